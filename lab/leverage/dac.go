package leverage

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/isqrt"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// DACOptions are the options of DAC.
type DACOptions struct {
	// BlockSize is m, the largest block of the random partition; 0 means ⌈√n⌉, the thesis's
	// choice (§3.3.1). m ≥ n gives one block, hence the exact scores.
	BlockSize int
	// Blocks, when not nil, is the partition to use instead of a random one: non-empty blocks
	// of row indices, each of 0..n-1 in exactly one block (DACPartition returns the one DAC
	// would draw). rng is then not used and may be nil, and BlockSize must be 0. To reuse or
	// reproduce a partition, or to study a chosen one.
	Blocks [][]int
}

// DACPartition returns the random partition DAC(rng, …) draws for n points and block size m (0
// for ⌈√n⌉): a permutation of 0..n-1 from rng cut into ⌈n/m⌉ consecutive blocks of ⌊n/r⌋ or ⌈n/r⌉
// points. Given as DACOptions.Blocks it reproduces DAC's scores for the same rng state.
//
// Errors: nil rng, n < 1, m < 0, memory above the allocation limit (lab/internal/memlimit).
func DACPartition(rng *rand.Rand, n, m int) ([][]int, error) {
	const op = "DACPartition"
	if rng == nil {
		return nil, fmt.Errorf("leverage: %s: %w", op, laberr.ErrNilRand)
	}
	if n < 1 {
		return nil, fmt.Errorf("leverage: %s: n = %d, want n ≥ 1", op, n)
	}
	return randomPartition(op, rng, n, m)
}

// randomPartition is DACPartition for a valid rng and n.
func randomPartition(op string, rng *rand.Rand, n, m int) ([][]int, error) {
	switch {
	case m < 0:
		return nil, fmt.Errorf("leverage: %s: block size %d, want m ≥ 1 (or 0 for ⌈√n⌉)", op, m)
	case m == 0:
		m = isqrt.Ceil(n)
	}
	m = min(m, n) // one block at most (and no overflow in ⌈n/m⌉)
	if err := memlimit.Check("leverage: "+op, fmt.Sprintf("a permutation of %d points", n), 8, n); err != nil {
		return nil, err
	}
	return balancedBlocks(rng.Perm(n), m), nil
}

// checkPartition checks that blocks are non-empty and hold each of 0..n-1 exactly once.
func checkPartition(op string, blocks [][]int, n int) error {
	seen := make([]bool, n)
	count := 0
	for b, block := range blocks {
		if len(block) == 0 {
			return fmt.Errorf("leverage: %s: block %d of the given partition is empty", op, b)
		}
		for _, i := range block {
			if i < 0 || i >= n {
				return fmt.Errorf("leverage: %s: block %d holds index %d, outside the %d rows of X", op, b, i, n)
			}
			if seen[i] {
				return fmt.Errorf("leverage: %s: index %d appears twice in the given partition", op, i)
			}
			seen[i] = true
			count++
		}
	}
	if count != n {
		return fmt.Errorf("leverage: %s: the given partition covers %d of the %d rows of X, want all", op, count, n)
	}
	return nil
}

// DAC returns the divide-and-conquer estimates of the ridge leverage scores of the rows of X
// (n×d), the thesis's DAC-RLS (Algorithm 2): the points are split by a random permutation (from
// rng) into r = ⌈n/m⌉ blocks R of ⌊n/r⌋ or ⌈n/r⌉ points (consecutive in the permutation), and the
// estimate of a point of R is its exact score within R, l̂_i = [K_R(K_R + λI)⁻¹]_ii.
//
// Every estimate is at least the exact score (Corollary 1), so they can feed Algorithm 3
// ([BernoulliSample]), and Σ l̂_i ≤ d_eff + n(1 − 1/β) with β the condition number of K + λI
// (Corollary 2).
//
// Blocks are processed in parallel on all cores, each by the route of Exact (Gram matrix, Cholesky
// factorisation, diagonal of the inverse); a block's scores depend only on its points, so the result
// depends on rng but not on the number of goroutines. Cost: O(n m² + n m d) time; memory O(n) for
// the scores and the permutation plus about m² + m·d floats per core.
//
// Errors: nil rng (without opts.Blocks) or kernel, nil, empty or non-finite X, λ not finite and
// > 0, a negative block size, a given partition that is not one of 0..n-1 (or comes with a
// BlockSize), a kernel error, and a block whose K_R + λI is not numerically positive definite.
func DAC(rng *rand.Rand, k kernel.Kernel, X mat.Matrix, lambda float64, opts DACOptions) ([]float64, error) {
	return DACContext(context.Background(), rng, k, X, lambda, opts)
}

// DACContext is DAC that gives up with ctx's error (wrapped) once ctx is done: it looks before
// each block, so it returns within about one block's time, O(m²d + m³). When it returns scores
// they are DAC's, bit for bit. A nil ctx is an error.
func DACContext(ctx context.Context, rng *rand.Rand, k kernel.Kernel, X mat.Matrix, lambda float64, opts DACOptions) ([]float64, error) {
	const op = "DAC"
	if err := ctxcheck.NotNil(ctx, "leverage: "+op); err != nil {
		return nil, err
	}
	if rng == nil && opts.Blocks == nil {
		return nil, fmt.Errorf("leverage: %s: %w", op, laberr.ErrNilRand)
	}
	x, err := checkInputs(op, k, X, lambda)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if opts.Blocks != nil {
		if opts.BlockSize != 0 {
			return nil, fmt.Errorf("leverage: %s: both a partition and BlockSize = %d given, want one of them", op, opts.BlockSize)
		}
		if err := checkPartition(op, opts.Blocks, n); err != nil {
			return nil, err
		}
		return dacScores(ctx, op, k, x, lambda, opts.Blocks)
	}
	blocks, err := randomPartition(op, rng, n, opts.BlockSize)
	if err != nil {
		return nil, err
	}
	return dacScores(ctx, op, k, x, lambda, blocks)
}

// balancedBlocks splits perm into r = ⌈n/m⌉ consecutive blocks whose sizes differ by at most one.
func balancedBlocks(perm []int, m int) [][]int {
	n := len(perm)
	r := (n + m - 1) / m
	blocks := make([][]int, r)
	lo := 0
	for b := range r {
		size := n / r
		if b < n%r {
			size++
		}
		blocks[b] = perm[lo : lo+size : lo+size]
		lo += size
	}
	return blocks
}

// dacScores computes the within-block scores for the given partition of the rows of x (each index
// in exactly one block), in parallel over the blocks with per-goroutine buffers; blocks not yet
// started when ctx is done are skipped, and ctx's error returned.
func dacScores(ctx context.Context, op string, k kernel.Kernel, x *mat.Dense, lambda float64, blocks [][]int) ([]float64, error) {
	n, d := x.Dims()
	largest := 0
	for _, b := range blocks {
		largest = max(largest, len(b))
	}
	type buffers struct {
		rows, gram, scores []float64
	}
	workers := parallel.Workers(len(blocks))
	buf := make([]buffers, workers)
	errs := make([]error, len(blocks))
	scores := make([]float64, n)
	parallel.For(len(blocks), func(w, t int) {
		if ctx.Err() != nil {
			return
		}
		block := blocks[t]
		size := len(block)
		b := &buf[w]
		if b.rows == nil {
			b.rows = make([]float64, largest*d)
			b.gram = make([]float64, largest*largest)
			b.scores = make([]float64, largest)
		}
		rows := mat.NewDense(size, d, b.rows[:size*d])
		gatherRows(rows, x, block)
		gram := mat.NewSymDense(size, b.gram[:size*size])
		if err := kernel.GramInto(gram, k, rows); err != nil {
			errs[t] = fmt.Errorf("leverage: %s: block %d: %w", op, t, err)
			return
		}
		if !ridgeScoresInPlace(gram.RawSymmetric(), lambda, b.scores[:size]) {
			errs[t] = notPositiveDefinite(fmt.Sprintf("%s: block %d", op, t), k, size, lambda)
			return
		}
		for j, i := range block {
			scores[i] = b.scores[j]
		}
	})
	if err := ctxcheck.Done(ctx, "leverage: "+op); err != nil {
		return nil, err
	}
	if err := firstError(errs); err != nil {
		return nil, err
	}
	return scores, nil
}
