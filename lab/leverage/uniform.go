package leverage

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/isqrt"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// UniformOptions are the options of Uniform.
type UniformOptions struct {
	// Landmarks is m, the number of uniformly drawn landmarks of the Nyström approximation K̃;
	// 0 means ⌈√n⌉, the thesis's choice (§3.3.1). m = n gives the exact scores.
	Landmarks int
}

// uniformBlockRows is the number of rows of B computed at once; fixed so that results do not depend
// on the number of goroutines.
const uniformBlockRows = 1024

// uniformCacheElements bounds the size of B (n×r floats, 1 GiB) that Uniform keeps between its two
// passes; above it, the second pass computes B again. A variable so that tests can cover both.
var uniformCacheElements = 1 << 27

// Uniform returns the ridge leverage scores of a uniform Nyström approximation, the estimates of
// Alaoui and Mahoney (2015) that the thesis calls uniform RLS (eq. 3.2): with m landmarks drawn
// uniformly without replacement ([lowrank.UniformLandmarks], from rng) and the Nyström features
// B = K(X, S) V Σ^{-1/2} of [lowrank.FitNystrom] (n×r, BBᵀ = K̃, r ≤ m after the eigenvalue
// cut-off), l̂_i = [K̃(K̃ + λI)⁻¹]_ii = B_i (BᵀB + λI)⁻¹ B_iᵀ by the Woodbury identity.
//
// Because K̃ ⪯ K and x ↦ x/(x + λ) is operator monotone, every estimate is at most the exact
// score; Alaoui and Mahoney show l_i − 2ε ≤ l̂_i with high probability once
// m = Θ(tr K / (nλε)).
//
// B is computed in blocks of rows on all cores; a first pass accumulates BᵀB (in block order),
// a second gives l̂_i = ||B_i U⁻¹||² with BᵀB + λI = UᵀU. B is kept between the passes when it
// holds at most 2²⁷ floats (1 GiB) and computed again otherwise, with the same result. Cost:
// O(nmd + nm² + m³) time; memory O(m² + md) plus n·r floats when B is kept, or one block of
// 1024 rows per core when it is not. No n×n matrix is formed.
//
// Errors: nil rng or kernel, nil, empty or non-finite X, λ not finite and > 0, m < 0 or m > n,
// a kernel error, and a landmark matrix without a positive eigenvalue.
func Uniform(rng *rand.Rand, k kernel.Kernel, X mat.Matrix, lambda float64, opts UniformOptions) ([]float64, error) {
	return UniformContext(context.Background(), rng, k, X, lambda, opts)
}

// UniformContext is Uniform that gives up with ctx's error (wrapped) once ctx is done: it looks
// before each block of 1024 rows of either pass, so it returns within about one block's time,
// O(1024·m(m + d)), after the landmarks' Nyström fit. When it returns scores they are Uniform's,
// bit for bit. A nil ctx is an error.
func UniformContext(ctx context.Context, rng *rand.Rand, k kernel.Kernel, X mat.Matrix, lambda float64, opts UniformOptions) ([]float64, error) {
	const op = "Uniform"
	if err := ctxcheck.NotNil(ctx, "leverage: "+op); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, fmt.Errorf("leverage: %s: %w", op, laberr.ErrNilRand)
	}
	x, err := checkInputs(op, k, X, lambda)
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	m := opts.Landmarks
	switch {
	case m < 0 || m > n:
		return nil, fmt.Errorf("leverage: %s: %d landmarks for %d points, want 1 ≤ m ≤ n (or 0 for ⌈√n⌉)", op, m, n)
	case m == 0:
		m = isqrt.Ceil(n)
	}
	landmarks, err := lowrank.UniformLandmarks(rng, n, m)
	if err != nil {
		return nil, fmt.Errorf("leverage: %s: %w", op, err)
	}
	nys, err := lowrank.FitNystrom(k, x, landmarks, 0)
	if err != nil {
		return nil, fmt.Errorf("leverage: %s: %w", op, err)
	}
	r := nys.Components()
	blocks := (n + uniformBlockRows - 1) / uniformBlockRows
	keep := n*r <= uniformCacheElements
	var cached *mat.Dense
	if keep {
		cached = mat.NewDense(n, r, nil)
	}
	// features returns B for the rows of block t, in the worker's buffer or in the cache.
	workers := parallel.Workers(blocks)
	buffers := make([]*mat.Dense, workers)
	features := func(w, t int) (*mat.Dense, error) {
		lo, hi := t*uniformBlockRows, min(n, (t+1)*uniformBlockRows)
		var dst *mat.Dense
		if keep {
			dst = cached.Slice(lo, hi, 0, r).(*mat.Dense)
		} else {
			if buffers[w] == nil {
				buffers[w] = mat.NewDense(uniformBlockRows, r, nil)
			}
			dst = buffers[w].Slice(0, hi-lo, 0, r).(*mat.Dense)
		}
		if err := nys.TransformInto(dst, x.Slice(lo, hi, 0, d)); err != nil {
			return nil, fmt.Errorf("leverage: %s: rows %d–%d: %w", op, lo, hi-1, err)
		}
		return dst, nil
	}

	// Pass 1: G = BᵀB (upper triangle), summed block by block in block order.
	gram := newOrderedSum(r * r)
	partials := make([][]float64, workers)
	errs := make([]error, blocks)
	parallel.For(blocks, func(w, t int) {
		if ctx.Err() != nil {
			gram.add(t, nil)
			return
		}
		b, err := features(w, t)
		if err != nil {
			errs[t] = err
			gram.add(t, nil)
			return
		}
		if partials[w] == nil {
			partials[w] = make([]float64, r*r)
		}
		blas64.Syrk(blas.Trans, 1, b.RawMatrix(), 0, blas64.Symmetric{Uplo: blas.Upper, N: r, Stride: r, Data: partials[w]})
		gram.add(t, partials[w])
	})
	if err := ctxcheck.Done(ctx, "leverage: "+op); err != nil {
		return nil, err
	}
	if err := firstError(errs); err != nil {
		return nil, err
	}

	// BᵀB + λI = UᵀU.
	g := blas64.Symmetric{Uplo: blas.Upper, N: r, Stride: r, Data: gram.total}
	for i := range r {
		g.Data[i*r+i] += lambda
	}
	u, ok := lapack64.Potrf(g)
	if !ok {
		return nil, fmt.Errorf("leverage: %s: BᵀB + λI (%d×%d, λ = %g) is not numerically positive definite; λ is too small for the kernel's scale", op, r, r, lambda)
	}

	// Pass 2: l̂_i = B_i (UᵀU)⁻¹ B_iᵀ = ||B_i U⁻¹||².
	scores := make([]float64, n)
	parallel.For(blocks, func(w, t int) {
		if ctx.Err() != nil {
			return
		}
		lo := t * uniformBlockRows
		var b *mat.Dense
		if keep {
			b = cached.Slice(lo, min(n, lo+uniformBlockRows), 0, r).(*mat.Dense)
		} else {
			var err error
			if b, err = features(w, t); err != nil {
				errs[t] = err
				return
			}
		}
		raw := b.RawMatrix()
		blas64.Trsm(blas.Right, blas.NoTrans, 1, u, raw)
		for i := range raw.Rows {
			var sq float64
			for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+r] {
				sq += v * v
			}
			scores[lo+i] = min(1, sq)
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

// firstError returns the first non-nil error of errs (in task order), or nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
