package leverage

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// ExactLimit is the largest number of points Exact accepts without ExactOptions.Force: its n×n
// Gram matrix then takes 3.2 GB and its factorisation about 5·10¹² floating-point operations.
const ExactLimit = 20000

// ExactOptions are the options of Exact.
type ExactOptions struct {
	// Force lifts the ExactLimit on the number of points (8n² bytes and O(n³) time); false, the
	// zero value, refuses more than ExactLimit points.
	Force bool
}

// Exact returns the ridge leverage scores l_i = [K(K + λI)⁻¹]_ii of the rows of X (n×d) for the
// kernel k and the ridge λ > 0, and their sum d_eff = tr K(K + λI)⁻¹ (thesis eqs. 2.1 and 2.4).
//
// Route: the Gram matrix K (lab/kernel, all cores); then X = U⁻¹ for the Cholesky factor of
// K + λI = UᵀU, built in place by a recursion that factorises and inverts together (see
// inverseCholeskyInPlace), and l_i = 1 − λ[(K + λI)⁻¹]_ii (eq. 2.3) with [(K + λI)⁻¹]_ii = Σ_j X_ij²,
// the squared norm of row i of X. The recursion's work is matrix products split over all cores
// (OpenBLAS when built with -tags openblas, see lab/blasbackend). Scores are clamped to [0, 1], which they
// satisfy in exact arithmetic; their absolute error is about the machine precision times the
// condition number of K + λI.
//
// Cost: O(n²d) for K plus 2n³/3 flops (as LAPACK's Cholesky factorisation followed by the inverse of
// the factor); memory one n×n matrix, 8n² bytes. It is meant for n up to a few thousand points,
// where it is the reference for the approximations; above [ExactLimit] points it returns an error
// unless opts.Force is set.
//
// Errors: nil kernel, nil, empty or non-finite X, λ not finite and > 0, n > ExactLimit without
// Force, a kernel error, and K + λI not numerically positive definite (λ too small for the
// kernel's scale, or a kernel that is not positive semi-definite).
func Exact(k kernel.Kernel, X mat.Matrix, lambda float64, opts ExactOptions) (scores []float64, deff float64, err error) {
	const op = "Exact"
	x, err := checkInputs(op, k, X, lambda)
	if err != nil {
		return nil, 0, err
	}
	n, _ := x.Dims()
	if n > ExactLimit && !opts.Force {
		return nil, 0, fmt.Errorf("leverage: %s: %d points exceed ExactLimit = %d (an n×n matrix of %.1f GB and O(n³) time); "+
			"use DAC, Uniform or Recursive, or set ExactOptions.Force", op, n, ExactLimit, 8*float64(n)*float64(n)/1e9)
	}
	if err := memlimit.Check("leverage: "+op, fmt.Sprintf("the %d×%d Gram matrix", n, n), 8, n, n); err != nil {
		return nil, 0, err
	}
	gram, err := kernel.Gram(k, x)
	if err != nil {
		return nil, 0, fmt.Errorf("leverage: %s: %w", op, err)
	}
	scores = make([]float64, n)
	if !ridgeScoresInPlace(gram.RawSymmetric(), lambda, scores) {
		return nil, 0, notPositiveDefinite(op, k, n, lambda)
	}
	for _, l := range scores {
		deff += l
	}
	return scores, deff, nil
}

// notPositiveDefinite is the error for a K + λI whose Cholesky factorisation fails.
func notPositiveDefinite(op string, k kernel.Kernel, n int, lambda float64) error {
	return fmt.Errorf("leverage: %s: K + λI (kernel %s, %d points, λ = %g) is not numerically positive definite; "+
		"λ is too small for the kernel's scale, or the kernel is not positive semi-definite", op, k.Name(), n, lambda)
}

// ridgeScoresInPlace writes l_i = 1 − λ[(K + λI)⁻¹]_ii, clamped to [0, 1], into out (length n)
// for the Gram matrix K held in the upper triangle of a, which it overwrites: λ is added to the
// diagonal, X = U⁻¹ with K + λI = UᵀU replaces it (inverseCholeskyInPlace), and
// [(K + λI)⁻¹]_ii = Σ_j X_ij² (squaredRowNorms). It reports false when the factorisation fails.
func ridgeScoresInPlace(a blas64.Symmetric, lambda float64, out []float64) bool {
	n, stride := a.N, a.Stride
	if a.Uplo != blas.Upper {
		panic("leverage: ridgeScoresInPlace: lower-triangular storage") // internal invariant
	}
	for i := range n {
		a.Data[i*stride+i] += lambda
	}
	x := square{n: n, stride: stride, data: a.Data}
	if !inverseCholeskyInPlace(x) {
		return false
	}
	squaredRowNorms(x, out)
	for i, d := range out {
		out[i] = min(1, max(0, 1-lambda*d))
	}
	return true
}
