package forest

import (
	"context"
	"math"
	"math/bits"

	"gonum.org/v1/gonum/mat"
)

// PruneZhangPredictions is Zhang & Wang's (2009) backward pruning "by predictions": starting
// from all T trees, it removes, step after step, the tree whose removal leaves the best
// ensemble on the data P, y it is given (lowest mean squared error of the mean for Regression,
// lowest error rate of the sign vote for Classification, 0 giving +1); ties remove the lowest
// tree index. Size m is the forest left with m trees, each with the weight 1/m, trees in
// increasing index. One pass down to the smallest size gives every size.
//
// Cost: the sum of the remaining trees' predictions is kept and updated by one column per
// removal, so a step with l trees scores its l candidates in O(n·T) on all cores (the candidate
// sums are sum − P[:, t], never recomputed from the l trees): O(n·T²) in all, where recomputing every
// candidate ensemble from its trees would cost O(n·l²) per step and O(n·T³) in all. Memory as
// [PruneEnsemble]'s: n·T bytes of ±1 votes (Classification), P itself (Regression), and O(n + T).
func PruneZhangPredictions(P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return PruneZhangPredictionsContext(context.Background(), P, y, sizes, opts)
}

// PruneZhangPredictionsContext is [PruneZhangPredictions] with a context: it looks at ctx before
// each removal, never inside one, so a pruning it returns is PruneZhangPredictions's, bit for bit.
// Errors: PruneZhangPredictions's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: PruneZhangPredictions's; once ctx is done it returns within about one removal, O(n·T).
func PruneZhangPredictionsContext(ctx context.Context, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	in, err := newPruneInput(ctx, "PruneZhangPredictions", opts.Task, P, y, sizes)
	if err != nil {
		return nil, err
	}
	sum := make([]float64, in.n)
	for t := range in.T {
		in.addColumn(sum, 1, t)
	}
	errs := make([]float64, in.T)
	return in.backward(ctx, func(removed []bool, l int) int {
		in.candidateErrors(errs, sum, -1, float64(l-1), removed)
		t := argmin(errs, removed)
		in.addColumn(sum, -1, t)
		return t
	})
}

// PruneZhangSimilarity is Zhang & Wang's (2009) backward pruning "by similarity": starting from
// all T trees, it removes, step after step, the tree most similar to the others: the largest
// mean inner product ⟨tᵢ, tⱼ⟩ = Σₓ tᵢ(x)tⱼ(x) with the other remaining trees on the data P
// (for ±1 votes, n minus twice the number of rows where two trees disagree); ties, sums within
// 4·T·ε times the largest Σⱼ|⟨tᵢ, tⱼ⟩| of each other, remove the lowest tree index. y is only validated. Size m is the forest left with m trees, each with the
// weight 1/m, trees in increasing index.
//
// Cost: the T×T Gram matrix of the trees is formed once, O(n·T²) (for Classification from the
// votes packed one bit per row, n/64 words per tree, by XOR and popcount), and each tree's sum
// of inner products with the remaining trees is updated in O(T) per removal: O(n·T²) in all,
// not the O(n·l²) per step (O(n·T³) in all) of recomputing them. Memory 8·T² bytes for the Gram
// matrix, n·T/8 bytes for the packed votes or 8·n·T for the Regression columns, plus the
// input as in [PruneEnsemble].
func PruneZhangSimilarity(P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return PruneZhangSimilarityContext(context.Background(), P, y, sizes, opts)
}

// PruneZhangSimilarityContext is [PruneZhangSimilarity] with a context: it looks at ctx before each
// row of the Gram matrix (the bulk of the work) and each removal, never inside one, so a pruning it
// returns is PruneZhangSimilarity's, bit for bit.
// Errors: PruneZhangSimilarity's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: PruneZhangSimilarity's; once ctx is done it returns within about one Gram row, O(n·T).
func PruneZhangSimilarityContext(ctx context.Context, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	in, err := newPruneInput(ctx, "PruneZhangSimilarity", opts.Task, P, y, sizes)
	if err != nil {
		return nil, err
	}
	gram, err := in.gram(ctx)
	if err != nil {
		return nil, err
	}
	T := in.T
	rowSum := make([]float64, T) // Σ_{j remaining, j ≠ t} ⟨t_t, t_j⟩
	for t := range T {
		for j := range T {
			if j != t {
				rowSum[t] += gram[t*T+j]
			}
		}
	}
	// Rounding tolerance of the incremental sums: the order of the additions must not decide
	// between trees whose sums are equal (the last two trees always are).
	var scale float64
	for t := range T {
		var a float64
		for j := range T {
			a += math.Abs(gram[t*T+j])
		}
		scale = max(scale, a)
	}
	tol := 4 * float64(T) * 0x1p-52 * scale
	return in.backward(ctx, func(removed []bool, _ int) int {
		best := -1
		for t, s := range rowSum {
			if !removed[t] && (best < 0 || s > rowSum[best]+tol) {
				best = t
			}
		}
		for j := range T {
			rowSum[j] -= gram[j*T+best]
		}
		return best
	})
}

// gram returns the T×T matrix of inner products of the trees' prediction columns, row major.
// For Classification the ±1 votes are packed one bit per row and ⟨a, b⟩ = n − 2·popcount(a⊕b),
// exact; for Regression the columns are multiplied in float64. O(n·T²). It looks at ctx before
// each row and returns its error (wrapped) once ctx is done.
func (in *pruneInput) gram(ctx context.Context) ([]float64, error) {
	T, n := in.T, in.n
	g := make([]float64, T*T)
	if in.task == Classification {
		words := (n + 63) / 64
		packed := make([]uint64, T*words) // bit i of tree t: its vote on row i is +1
		for i := range n {
			for t, v := range in.votes[i*T : (i+1)*T] {
				if v > 0 {
					packed[t*words+i/64] |= 1 << (i % 64)
				}
			}
		}
		for a := range T {
			if err := in.done(ctx); err != nil {
				return nil, err
			}
			pa := packed[a*words : (a+1)*words]
			for b := a; b < T; b++ {
				pb := packed[b*words : (b+1)*words]
				diff := 0
				for w := range pa {
					diff += bits.OnesCount64(pa[w] ^ pb[w])
				}
				g[a*T+b] = float64(n - 2*diff)
				g[b*T+a] = g[a*T+b]
			}
		}
		return g, nil
	}
	cols := make([][]float64, T)
	for t := range cols {
		cols[t] = in.col(t)
	}
	for a := range T {
		if err := in.done(ctx); err != nil {
			return nil, err
		}
		for b := a; b < T; b++ {
			var s float64
			for i, v := range cols[a] {
				s += v * cols[b][i]
			}
			g[a*T+b] = s
			g[b*T+a] = s
		}
	}
	return g, nil
}

// backward runs a backward elimination from all trees down to the smallest size: remove(removed,
// l) returns the tree to take out of the l remaining ones (removed marks the trees already
// out) and updates its own state. Each size of the grid gets the remaining trees with weights
// 1/m. It looks at ctx before each removal and returns its error (wrapped) once ctx is done.
func (in *pruneInput) backward(ctx context.Context, remove func(removed []bool, l int) int) (*Pruning, error) {
	want := sizeIndex(in.sizes)
	smallest := in.T
	for _, m := range in.sizes {
		smallest = min(smallest, m)
	}
	out := &Pruning{Sizes: in.sizes, Selections: make([]Selection, len(in.sizes))}
	removed := make([]bool, in.T)
	record := func(l int) {
		if len(want[l]) == 0 {
			return
		}
		kept := make([]int, 0, l)
		for t, r := range removed {
			if !r {
				kept = append(kept, t)
			}
		}
		for _, k := range want[l] {
			out.Selections[k] = uniform(kept)
		}
	}
	record(in.T)
	for l := in.T; l > smallest; l-- {
		if err := in.done(ctx); err != nil {
			return nil, err
		}
		removed[remove(removed, l)] = true
		record(l - 1)
	}
	return out, nil
}
