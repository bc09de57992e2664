package learn

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// RidgeScaling says how the ridge λ enters the kernel ridge regression system.
type RidgeScaling int

const (
	// RidgeAbsolute solves (K + λI) α = y: the minimiser of Σ_i (y_i - a(x_i))² + λ||a||²_H, the
	// convention of scikit-learn's KernelRidge(alpha=λ) and of primal ridge regression
	// (XᵀX + λI)⁻¹Xᵀy with the linear kernel. FitKRR uses it.
	RidgeAbsolute RidgeScaling = iota
	// RidgePerSample solves (K + λnI) α = y: the minimiser of (1/n) Σ_i (y_i - a(x_i))² + λ||a||²_H,
	// the convention of the learning-theory texts (λ comparable across sample sizes).
	RidgePerSample
)

// String names the scaling, for results tables.
func (s RidgeScaling) String() string {
	switch s {
	case RidgeAbsolute:
		return "K+λI"
	case RidgePerSample:
		return "K+λnI"
	}
	return fmt.Sprintf("RidgeScaling(%d)", int(s))
}

// KRR is a fitted kernel ridge regression model a(x) = Σ_i α_i k(x, x_i): by the representer
// theorem (HSE lecture) the minimiser of squared loss plus λ||a||²_H over the kernel's
// Hilbert space is a combination of the kernel at the training points. There is no intercept:
// centre y first if the target has a non-zero mean.
type KRR struct {
	kernel kernel.Kernel
	train  *mat.Dense // n×d copy of the training inputs
	alpha  []float64
}

// FitKRR fits kernel ridge regression with α = (K + λI)⁻¹ y ([RidgeAbsolute]), K the n×n Gram
// matrix of k on the rows of X (n×d) and y the n targets, solved by Cholesky. λ = 0 interpolates
// the training data when K is positive definite. See [FitKRRScaled] for the (K + λnI) convention.
//
// Errors: nil kernel, nil/empty X, NaN or ±Inf in X or y, len(y) ≠ n, λ < 0 or not finite, and
// K + λI not numerically positive definite or too ill-conditioned to solve (increase λ).
// Cost: O(n²d + n³) time and O(n²) memory (the Gram matrix and its factor).
func FitKRR(k kernel.Kernel, X mat.Matrix, y []float64, lambda float64) (*KRR, error) {
	return FitKRRScaled(k, X, y, lambda, RidgeAbsolute)
}

// FitKRRScaled is [FitKRR] with a choice of how λ enters the system: [RidgeAbsolute] solves
// (K + λI) α = y, [RidgePerSample] solves (K + λnI) α = y. Errors and cost as for FitKRR, plus an
// unknown scaling.
func FitKRRScaled(k kernel.Kernel, X mat.Matrix, y []float64, lambda float64, scaling RidgeScaling) (*KRR, error) {
	const op = "FitKRR"
	if scaling != RidgeAbsolute && scaling != RidgePerSample {
		return nil, fmt.Errorf("learn: %s: unknown ridge scaling %v", op, scaling)
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("learn: %s: λ = %g, want a finite value ≥ 0", op, lambda)
	}
	train, err := trainingCopy(op, X, y)
	if err != nil {
		return nil, err
	}
	n, _ := train.Dims()
	gram, err := kernel.Gram(k, train)
	if err != nil {
		return nil, fmt.Errorf("learn: %s: %w", op, err)
	}
	ridge := lambda
	if scaling == RidgePerSample {
		ridge *= float64(n)
	}
	for i := range n {
		gram.SetSym(i, i, gram.At(i, i)+ridge)
	}
	var chol mat.Cholesky
	if !chol.Factorize(gram) {
		return nil, fmt.Errorf("learn: %s: K + %gI (kernel %s, n = %d) is not numerically positive definite; increase λ",
			op, ridge, k.Name(), n)
	}
	var alpha mat.VecDense
	if err := chol.SolveVecTo(&alpha, mat.NewVecDense(n, append([]float64(nil), y...))); err != nil {
		var cond mat.Condition
		if errors.As(err, &cond) {
			return nil, fmt.Errorf("learn: %s: K + %gI (kernel %s, n = %d) has condition number %.3g, too large for an accurate solve; increase λ",
				op, ridge, k.Name(), n, float64(cond))
		}
		return nil, fmt.Errorf("learn: %s: %w", op, err)
	}
	if err := finiteOutput(op, "coefficient", alpha.RawVector().Data); err != nil {
		return nil, err
	}
	return &KRR{kernel: k, train: train, alpha: alpha.RawVector().Data}, nil
}

// Predict returns a(x) = Σ_i α_i k(x, x_i) for each row x of X (m×d, d as in training). The
// cross-kernel is computed in blocks of rows ([kernel.CrossBlocks], all cores), so predicting many
// points never forms the full m×n cross-kernel matrix.
// Errors: nil/empty X, NaN or ±Inf, a column count other than the training one.
// Cost: O(m·n·d) time, O(m + n·d) memory plus one block of at most 2 MiB.
func (m *KRR) Predict(X mat.Matrix) ([]float64, error) {
	const op = "KRR.Predict"
	if m == nil || m.train == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "learn: %s: the model is not fitted (make it with FitKRR)", op)
	}
	n, d := m.train.Dims()
	x, err := matcheck.PredictCopy("learn: "+op, X, d)
	if err != nil {
		return nil, err
	}
	rows, _ := x.Dims()
	alpha := mat.NewVecDense(n, m.alpha)
	out := make([]float64, rows)
	err = kernel.CrossBlocks(m.kernel, x, m.train, func(lo, hi int, block *mat.Dense) {
		mat.NewVecDense(hi-lo, out[lo:hi]).MulVec(block, alpha)
	})
	if err != nil {
		return nil, fmt.Errorf("learn: %s: %w", op, err)
	}
	if err := finiteOutput(op, "prediction", out); err != nil {
		return nil, err
	}
	return out, nil
}

// Coefficients returns a copy of α, the weights of the training points in a(x) = Σ_i α_i k(x, x_i).
func (m *KRR) Coefficients() []float64 { return append([]float64(nil), m.alpha...) }
