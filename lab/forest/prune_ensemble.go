package forest

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/parallel"
)

// PruneEnsemble is ensemble selection (Caruana et al. 2004), forward and with replacement, on
// the data P (per-tree predictions) and y it is given (the validation data): it starts from the
// best single tree, then adds, step after step, the tree (possibly one already picked) whose
// addition to the running mean gives the best ensemble: lowest mean squared error for
// Regression, lowest error rate of the sign vote for Classification (0 giving +1); ties go to
// the lowest tree index. Size m is the forest after m picks: each picked tree has the weight
// (times picked)/m, so a tree picked twice counts twice in the mean, and the forest can hold
// fewer than m distinct trees; sizes are at most T, as for the other methods. One pass up to the
// largest size gives every size.
//
// Cost: the running sum of the picked trees' predictions is kept, so a step scores the T
// candidates in O(n·T) on all cores (result independent of GOMAXPROCS): O(n·T·M) in all for
// the largest size M. Memory: n·T bytes for the ±1 votes (Classification), nothing beyond P for Regression when P is a
// *mat.Dense (else an 8·n·T-byte copy), and O(n + T).
func PruneEnsemble(P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return PruneEnsembleContext(context.Background(), P, y, sizes, opts)
}

// PruneEnsembleContext is [PruneEnsemble] with a context: it looks at ctx before each pick, never
// inside one, so a pruning it returns is PruneEnsemble's, bit for bit.
// Errors: PruneEnsemble's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: PruneEnsemble's; once ctx is done it returns within about one pick, O(n·T).
func PruneEnsembleContext(ctx context.Context, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	in, err := newPruneInput(ctx, "PruneEnsemble", opts.Task, P, y, sizes)
	if err != nil {
		return nil, err
	}
	want := sizeIndex(in.sizes)
	out := &Pruning{Sizes: in.sizes, Selections: make([]Selection, len(in.sizes))}
	sum := make([]float64, in.n)
	errs := make([]float64, in.T)
	counts := make([]int, in.T)
	var order []int // distinct trees in the order they were first picked
	for step := 1; step <= in.max; step++ {
		if err := in.done(ctx); err != nil {
			return nil, err
		}
		in.candidateErrors(errs, sum, 1, float64(step), nil)
		best := argmin(errs, nil)
		if counts[best] == 0 {
			order = append(order, best)
		}
		counts[best]++
		in.addColumn(sum, 1, best)
		for _, k := range want[step] {
			sel := Selection{Trees: append([]int(nil), order...), Weights: make([]float64, len(order))}
			for i, t := range order {
				sel.Weights[i] = float64(counts[t]) / float64(step)
			}
			out.Selections[k] = sel
		}
	}
	return out, nil
}

// sizeIndex maps each size of the grid to its positions in the grid.
func sizeIndex(sizes []int) map[int][]int {
	want := make(map[int][]int, len(sizes))
	for k, m := range sizes {
		want[m] = append(want[m], k)
	}
	return want
}

// candidateRows is the number of rows per task of candidateErrors: fixed, so that the partial
// sums, added in block order, do not depend on the number of goroutines.
const candidateRows = 256

// candidateErrors sets errs[t], for every tree t not marked in skip (nil: none), to the metric
// (see score) of the ensemble whose summed predictions are sum + sign·P[:, t] and whose size is
// count: the ensemble with tree t added (sign +1) or removed (sign −1). One pass over P in row
// order, on all cores by blocks of candidateRows rows whose partial sums are added in block
// order (the result does not depend on GOMAXPROCS): O(n·T) time, O(T·n/256) memory.
func (in *pruneInput) candidateErrors(errs, sum []float64, sign, count float64, skip []bool) {
	T := in.T
	blocks := parallel.BlockCount(in.n, candidateRows)
	partial := make([]float64, blocks*T)
	_ = parallel.Blocks(in.n, candidateRows, func(_, lo, hi int) error {
		e := partial[(lo/candidateRows)*T : (lo/candidateRows+1)*T]
		if in.task == Classification {
			for i := lo; i < hi; i++ {
				s, pos := sum[i], in.y[i] > 0
				for t, v := range in.votes[i*T : (i+1)*T] {
					if (s+sign*float64(v) >= 0) != pos {
						e[t]++
					}
				}
			}
			return nil
		}
		for i := lo; i < hi; i++ {
			s, yi := sum[i], in.y[i]
			for t, v := range in.dense.RawRowView(i) {
				d := (s+sign*v)/count - yi
				e[t] += d * d
			}
		}
		return nil
	})
	clear(errs)
	for b := range blocks {
		for t, v := range partial[b*T : (b+1)*T] {
			errs[t] += v
		}
	}
	for t := range errs {
		errs[t] /= float64(in.n)
		if skip != nil && skip[t] {
			errs[t] = 0
		}
	}
}

// argmin returns the lowest index t, not marked in skip (nil: none), of the smallest errs[t].
func argmin(errs []float64, skip []bool) int {
	best := -1
	for t, e := range errs {
		if skip != nil && skip[t] {
			continue
		}
		if best < 0 || e < errs[best] {
			best = t
		}
	}
	return best
}
