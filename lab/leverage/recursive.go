package leverage

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

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

// AdaptiveRidge, passed as λ to Recursive, selects the ridge of the authors' code at every level:
// the one for which about s points are kept (see Recursive).
const AdaptiveRidge = 0.0

// Ridges of the authors' code where the adaptive rule does not apply: when the previous level kept
// at most k points ("10e-6" in their MATLAB), and a floor against a rule that rounds to zero or
// below.
const (
	fewSamplesRidge = 1e-5
	ridgeFloor      = 1e-7
)

// recursiveBlockRows is the number of rows whose scores are computed at once.
const recursiveBlockRows = 512

// RecursiveOptions are the options of Recursive.
type RecursiveOptions struct {
	// Samples is s, the number of landmarks the authors' code draws at the top level and keeps
	// (in expectation) at every other level; 0 means ⌈√n⌉, their default and the thesis's m = √n.
	Samples int
	// Accelerated uses s_level = ⌈√((n s + s³)/(4n))⌉ < s points on the levels below the top
	// (the authors' accelerated variant, §5.2.1 of their paper): O(ns + s³) time instead of
	// O(ns²), with estimates of lower quality.
	Accelerated bool
}

// Recursive returns the recursive ridge leverage score estimates of Musco and Musco (2017,
// "Recursive sampling for the Nyström method"), as their MATLAB code computes them (the reference,
// cnmusco/recursive-nystrom), for the rows of X (n×d), together with the ridge of the top level.
//
// With s_level = s (or the accelerated size), oversampling q = ln s_level and k = ⌈s_level/(4q)⌉:
// a random permutation (from rng) orders the points, the levels are its prefixes of
// n, ⌈n/2⌉, ⌈n/4⌉, … points down to the first one of at most s_level points, which is kept
// whole with weights 1. Going up, each level computes, for each of its points,
//
//	τ_i = (1/λ_ℓ) max(0, k(x_i, x_i) − k_iS W (W K_SS W + λ_ℓ I)⁻¹ W k_Si),
//
// a ridge leverage score estimate from the Nyström approximation on the points S kept below with
// weights W = diag(w), where λ_ℓ = λ when λ > 0, and with [AdaptiveRidge] the authors' choice
// λ_ℓ = (Σ_j K_jj w_j² − sum of the k largest eigenvalues of W K_SS W)/k (1e-5 when |S| ≤ k,
// at least 1e-7). An intermediate level keeps each point independently with probability
// p_i = min(1, q τ_i), with weight 1/√p_i (a uniform draw of s_level points, with p_i = s_level/n_ℓ,
// if none is kept); the top level, all n points, returns min(1, τ_i), from which the authors draw
// s landmarks without replacement (Sample does this).
//
// One deviation from the authors' code: with AdaptiveRidge, a level that keeps at most k points
// also falls back to the uniform draw. Their code instead gives the next level λ = 1e-5, which makes
// every score large and keeps every point of that level; this is rare with the standard sizes but
// frequent in the accelerated variant (s_level = 9 and k = 2 for n = 20000), where it turned a
// 0.1 s computation into one with 10000 landmarks.
//
// Random draws, all from rng: the permutation, then one uniform number per point of each
// intermediate level from the bottom up (plus the fallback draws). Row blocks are processed on all
// cores; the result does not depend on their number. Cost: O(n s_level (s_level + d)) time over the
// levels plus O(s_level³) per level; memory O(n + s_level²) plus blocks of 512 rows per core.
//
// Errors: nil rng or kernel, nil, empty or non-finite X, λ negative or not finite, s < 0 or
// s > n, a kernel error, a level whose regularised matrix is not numerically positive definite,
// and (with a fixed λ far below the kernel's eigenvalues) a level that keeps more than [ExactLimit]
// points.
func Recursive(rng *rand.Rand, k kernel.Kernel, X mat.Matrix, lambda float64, opts RecursiveOptions) (scores []float64, topLambda float64, err error) {
	return RecursiveContext(context.Background(), rng, k, X, lambda, opts)
}

// RecursiveContext is Recursive that gives up with ctx's error (wrapped) once ctx is done: it
// looks before each level and each block of 512 rows of a level, so it returns within about one
// block's time, O(512·s_level(s_level + d)), or one level's factorisation, O(s_level³). When it
// returns scores they are Recursive's, bit for bit. A nil ctx is an error.
func RecursiveContext(ctx context.Context, rng *rand.Rand, k kernel.Kernel, X mat.Matrix, lambda float64, opts RecursiveOptions) (scores []float64, topLambda float64, err error) {
	const op = "Recursive"
	if err := ctxcheck.NotNil(ctx, "leverage: "+op); err != nil {
		return nil, 0, err
	}
	if rng == nil {
		return nil, 0, fmt.Errorf("leverage: %s: %w", op, laberr.ErrNilRand)
	}
	if err := checkKernel(op, k); err != nil {
		return nil, 0, err
	}
	if lambda != AdaptiveRidge {
		if err := checkRidge(op, lambda); err != nil {
			return nil, 0, fmt.Errorf("%w (or AdaptiveRidge = 0)", err)
		}
	}
	x, err := finiteDense(op, X)
	if err != nil {
		return nil, 0, err
	}
	n, _ := x.Dims()
	s := opts.Samples
	switch {
	case s < 0 || s > n:
		return nil, 0, fmt.Errorf("leverage: %s: %d samples for %d points, want 1 ≤ s ≤ n (or 0 for ⌈√n⌉)", op, s, n)
	case s == 0:
		s = isqrt.Ceil(n)
	}
	sLevel := s
	if opts.Accelerated {
		fn, fs := float64(n), float64(s)
		sLevel = int(math.Ceil(math.Sqrt((fn*fs + fs*fs*fs) / (4 * fn))))
	}
	sLevel = max(2, sLevel) // ln 1 = 0 would make k infinite
	diag, err := kernel.Diagonal(k, x)
	if err != nil {
		return nil, 0, fmt.Errorf("leverage: %s: %w", op, err)
	}
	rec := recursion{op: op, k: k, x: x, diag: diag, lambda: lambda,
		oversampling: math.Log(float64(sLevel))}
	rec.rank = int(math.Ceil(float64(sLevel) / (4 * rec.oversampling)))

	levels := 0
	for sLevel<<levels < n {
		levels++
	}
	sizes := make([]int, levels+1)
	sizes[0] = n
	for l := 1; l <= levels; l++ {
		sizes[l] = (sizes[l-1] + 1) / 2
	}
	perm := rng.Perm(n)
	kept := make([]int, sizes[levels]) // positions in perm of the points kept below
	for i := range kept {
		kept[i] = i
	}
	weights := slices.Repeat([]float64{1}, len(kept))
	for l := max(levels-1, 0); l >= 0; l-- {
		current := perm[:sizes[l]]
		landmarks := make([]int, len(kept))
		for j, p := range kept {
			landmarks[j] = perm[p]
		}
		tau, lam, err := rec.level(ctx, current, landmarks, weights)
		if err != nil {
			return nil, 0, err
		}
		if l == 0 {
			scores = make([]float64, n)
			for p, i := range current {
				scores[i] = min(1, tau[p])
			}
			return scores, lam, nil
		}
		prob := tau // reused in place
		kept = kept[:0]
		for p := range prob {
			prob[p] = min(1, rec.oversampling*tau[p])
			if rng.Float64() < prob[p] {
				kept = append(kept, p)
			}
		}
		if len(kept) == 0 || (lambda == AdaptiveRidge && len(kept) <= rec.rank) {
			// The authors' fallback for an empty sample, a uniform sample of s_level points
			// (sizes[l] > s_level here), also taken when the adaptive rule would get at most k
			// points (see Recursive).
			if kept, err = lowrank.UniformLandmarks(rng, sizes[l], sLevel); err != nil {
				return nil, 0, fmt.Errorf("leverage: %s: %w", op, err)
			}
			for p := range prob {
				prob[p] = float64(sLevel) / float64(sizes[l])
			}
		}
		if len(kept) > ExactLimit {
			return nil, 0, fmt.Errorf("leverage: %s: level of %d points keeps %d > ExactLimit = %d (λ = %g is small for this kernel and data: d_eff is large); "+
				"use a larger λ or AdaptiveRidge", op, sizes[l], len(kept), ExactLimit, lambda)
		}
		weights = make([]float64, len(kept))
		for j, p := range kept {
			weights[j] = 1 / math.Sqrt(prob[p])
		}
	}
	panic("leverage: Recursive: no top level") // unreachable: the loop always ends at l = 0
}

// recursion holds what the levels of Recursive share.
type recursion struct {
	op           string
	k            kernel.Kernel
	x            *mat.Dense
	diag         []float64 // k(x_i, x_i) for every row of x
	lambda       float64   // the caller's λ, or AdaptiveRidge
	oversampling float64   // q = ln s_level
	rank         int       // k = ⌈s_level/(4q)⌉
}

// level returns τ_i for the rows current of x from the landmarks (rows of x) with their weights,
// and the ridge λ_ℓ it used; it returns ctx's error once ctx is done (checked first and before each
// block of rows).
func (rec *recursion) level(ctx context.Context, current, landmarks []int, weights []float64) ([]float64, float64, error) {
	if err := ctxcheck.Done(ctx, "leverage: "+rec.op); err != nil {
		return nil, 0, err
	}
	_, d := rec.x.Dims()
	size := len(landmarks)
	xs := mat.NewDense(size, d, nil)
	gatherRows(xs, rec.x, landmarks)
	kss, err := kernel.Gram(rec.k, xs)
	if err != nil {
		return nil, 0, fmt.Errorf("leverage: %s: %w", rec.op, err)
	}
	// A = W K_SS W, upper triangle.
	a := kss.RawSymmetric()
	for i := range size {
		row := a.Data[i*a.Stride : i*a.Stride+size]
		for j := i; j < size; j++ {
			row[j] *= weights[i] * weights[j]
		}
	}
	lam := rec.lambda
	if lam == AdaptiveRidge {
		if lam, err = rec.adaptiveRidge(kss); err != nil {
			return nil, 0, err
		}
	}
	for i := range size {
		a.Data[i*a.Stride+i] += lam
	}
	u, ok := lapack64.Potrf(a)
	if !ok {
		return nil, 0, fmt.Errorf("leverage: %s: W K_SS W + λI (%d landmarks, λ = %g) is not numerically positive definite; "+
			"λ is too small for the kernel's scale, or the kernel is not positive semi-definite", rec.op, size, lam)
	}

	tau := make([]float64, len(current))
	blocks := (len(current) + recursiveBlockRows - 1) / recursiveBlockRows
	type buffers struct{ rows, cross *mat.Dense }
	buf := make([]buffers, parallel.Workers(blocks))
	errs := make([]error, blocks)
	parallel.For(blocks, func(w, t int) {
		if ctx.Err() != nil {
			return
		}
		lo, hi := t*recursiveBlockRows, min(len(current), (t+1)*recursiveBlockRows)
		b := &buf[w]
		if b.rows == nil {
			b.rows = mat.NewDense(recursiveBlockRows, d, nil)
			b.cross = mat.NewDense(recursiveBlockRows, size, nil)
		}
		rows := b.rows.Slice(0, hi-lo, 0, d).(*mat.Dense)
		gatherRows(rows, rec.x, current[lo:hi])
		cross := b.cross.Slice(0, hi-lo, 0, size).(*mat.Dense)
		if err := kernel.CrossInto(cross, rec.k, rows, xs); err != nil {
			errs[t] = fmt.Errorf("leverage: %s: %w", rec.op, err)
			return
		}
		// Z = K(rows, S) W U⁻¹, so that ||z_i||² = k_iS W (W K_SS W + λI)⁻¹ W k_Si.
		raw := cross.RawMatrix()
		for i := range raw.Rows {
			row := raw.Data[i*raw.Stride : i*raw.Stride+size]
			for j := range row {
				row[j] *= weights[j]
			}
		}
		blas64.Trsm(blas.Right, blas.NoTrans, 1, u, raw)
		for i := range raw.Rows {
			var sq float64
			for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+size] {
				sq += v * v
			}
			tau[lo+i] = max(0, rec.diag[current[lo+i]]-sq) / lam
		}
	})
	if err := ctxcheck.Done(ctx, "leverage: "+rec.op); err != nil {
		return nil, 0, err
	}
	if err := firstError(errs); err != nil {
		return nil, 0, err
	}
	return tau, lam, nil
}

// adaptiveRidge returns the authors' ridge for the weighted landmark matrix A = W K_SS W (upper
// triangle of a): (tr A − sum of its k largest eigenvalues)/k, the mean of the eigenvalues beyond
// the k-th scaled by (|S| − k)/k, for which about k log k points have large scores.
func (rec *recursion) adaptiveRidge(a *mat.SymDense) (float64, error) {
	size := a.SymmetricDim()
	if rec.rank >= size {
		return fewSamplesRidge, nil
	}
	var trace float64
	for i := range size {
		trace += a.At(i, i)
	}
	var eig mat.EigenSym
	if !eig.Factorize(a, false) {
		return 0, fmt.Errorf("leverage: %s: the eigenvalues of the %d×%d landmark matrix did not converge", rec.op, size, size)
	}
	values := eig.Values(nil) // ascending
	var top float64
	for _, v := range values[size-rec.rank:] {
		top += v
	}
	return max(ridgeFloor, (trace-top)/float64(rec.rank)), nil
}
