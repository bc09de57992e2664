package factor

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// KernelPCA is a fitted kernel principal component analysis: the leading eigenpairs of the
// centred Gram matrix of the training points, and what is needed to project new points.
type KernelPCA struct {
	kernel      kernel.Kernel
	train       *mat.Dense // n×d copy of the training inputs
	rowMeans    []float64  // mean_j K(x_i, x_j) for each training point i
	grandMean   float64    // mean of all entries of K
	alphas      *mat.Dense // n×c, column j is v_j / √λ_j
	eigenvalues []float64  // c leading eigenvalues of the centred Gram, decreasing
	projections *mat.Dense // n×c training projections √λ_j v_j
}

// FitKernelPCA fits kernel PCA with the given number of components to the rows of X (n×d): it
// forms the Gram matrix K, centres it in feature space, K̃ = HKH with H = I - 11ᵀ/n, takes its
// symmetric eigen-decomposition and keeps the leading eigenpairs (λ_j, v_j). Training point i
// projects to √λ_j (v_j)_i on component j (K̃α_j with α_j = v_j/√λ_j); see Transform for new points.
//
// A component needs λ_j > n²·ε·max|K_ij| (ε the float64 machine epsilon), a bound on the
// rounding errors of forming and centring K: below it the direction is noise that dividing by
// √λ_j would amplify, so asking for more components than the numerical rank of K̃ (at most n-1)
// is an error. Errors: nil kernel, nil/empty X, NaN or ±Inf, n < 2, components outside
// [1, n-1], too small eigenvalues, eigen-decomposition failure.
// Cost: O(n²d + n³) time, O(n²) memory (the Gram matrix and its eigenvectors).
func FitKernelPCA(k kernel.Kernel, X mat.Matrix, components int) (*KernelPCA, error) {
	const op = "FitKernelPCA"
	train, err := denseCopy(op, "X", X)
	if err != nil {
		return nil, err
	}
	n, _ := train.Dims()
	if n < 2 {
		return nil, fmt.Errorf("factor: %s: X has %d row, want at least 2", op, n)
	}
	if components < 1 || components > n-1 {
		return nil, fmt.Errorf("factor: %s: components = %d, want 1 ≤ components ≤ n-1 = %d (centring leaves rank ≤ n-1)", op, components, n-1)
	}
	gram, err := kernel.Gram(k, train)
	if err != nil {
		return nil, fmt.Errorf("factor: %s: %w", op, err)
	}
	rowMeans := make([]float64, n)
	var grandMean, maxAbs float64
	for i := range n {
		var s float64
		for j := range n {
			s += gram.At(i, j)
			maxAbs = max(maxAbs, math.Abs(gram.At(i, j)))
		}
		rowMeans[i] = s / float64(n)
		grandMean += rowMeans[i]
	}
	grandMean /= float64(n)
	for i := range n {
		for j := i; j < n; j++ {
			gram.SetSym(i, j, gram.At(i, j)-rowMeans[i]-rowMeans[j]+grandMean)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(gram, true) {
		return nil, fmt.Errorf("factor: %s: eigen-decomposition of the centred %d×%d Gram matrix did not converge", op, n, n)
	}
	values := eig.Values(nil) // ascending
	var vectors mat.Dense
	eig.VectorsTo(&vectors)
	// Rounding errors of ε·max|K_ij| in each entry of K̃ move its eigenvalues by up to n·ε·max|K_ij|
	// (a bound on the spectral norm of the error); the margin n above that keeps clear of it.
	cutoff := float64(n) * float64(n) * 0x1p-52 * maxAbs
	if values[n-1] <= cutoff {
		return nil, fmt.Errorf("factor: %s: the centred Gram matrix (kernel %s) is zero up to rounding: all points coincide in feature space", op, k.Name())
	}
	leading := mat.NewDense(n, components, nil)
	eigenvalues := make([]float64, components)
	for j := range components {
		col := n - 1 - j
		if values[col] <= cutoff {
			return nil, fmt.Errorf("factor: %s: component %d has eigenvalue %g ≤ %g = n²·ε·max|K_ij| (kernel %s): the centred Gram matrix has numerical rank %d, ask for at most that many components",
				op, j+1, values[col], cutoff, k.Name(), j)
		}
		eigenvalues[j] = values[col]
		for i := range n {
			leading.Set(i, j, vectors.At(i, col))
		}
	}
	fixSigns(leading)
	alphas := mat.NewDense(n, components, nil)
	projections := mat.NewDense(n, components, nil)
	for j, lambda := range eigenvalues {
		root := math.Sqrt(lambda)
		for i := range n {
			v := leading.At(i, j)
			alphas.Set(i, j, v/root)
			projections.Set(i, j, v*root)
		}
	}
	return &KernelPCA{
		kernel: k, train: train, rowMeans: rowMeans, grandMean: grandMean,
		alphas: alphas, eigenvalues: eigenvalues, projections: projections,
	}, nil
}

// Transform returns the m×c projections of the rows of X (m×d, d as in training) on the
// components: Σ_i α_ji k̃(x_i, x), with the cross-kernel centred on the training data,
// k̃(x_i, x) = k(x_i, x) - mean_j k(x_i, x_j) - mean_j k(x_j, x) + mean_jl k(x_j, x_l). For the
// training points this gives the fitted projections (TrainingProjections) up to rounding. The
// cross-kernel is computed in blocks of rows ([kernel.CrossBlocks], all cores), so projecting many
// points never forms the full m×n cross-kernel matrix.
// Errors: nil/empty X, NaN or ±Inf, a column count other than the training one.
// Cost: O(m·n·(d + c)) time, O(m·(d + c) + n·d) memory plus one block of at most 2 MiB.
func (m *KernelPCA) Transform(X mat.Matrix) (*mat.Dense, error) {
	const op = "KernelPCA.Transform"
	if m == nil || m.train == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "factor: %s: the model is not fitted (make it with FitKernelPCA)", op)
	}
	n, d := m.train.Dims()
	x, err := matcheck.PredictCopy("factor: "+op, X, d)
	if err != nil {
		return nil, err
	}
	rows, _ := x.Dims()
	_, c := m.alphas.Dims()
	out := mat.NewDense(rows, c, nil)
	err = kernel.CrossBlocks(m.kernel, x, m.train, func(lo, hi int, block *mat.Dense) {
		for a := range hi - lo {
			row := block.RawRowView(a)
			var rowMean float64
			for _, v := range row {
				rowMean += v
			}
			rowMean /= float64(n)
			// The terms constant along the row cancel in exact arithmetic (each α_j sums to 0, being
			// orthogonal to 1); subtracting them keeps large offsets from costing accuracy.
			for i := range row {
				row[i] += m.grandMean - rowMean - m.rowMeans[i]
			}
		}
		out.Slice(lo, hi, 0, c).(*mat.Dense).Mul(block, m.alphas)
	})
	if err != nil {
		return nil, fmt.Errorf("factor: %s: %w", op, err)
	}
	if err := finiteResult(op, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Eigenvalues returns a copy of the c leading eigenvalues λ_j of the centred Gram matrix, in
// decreasing order (divide by n-1 for the variance along each component, as PCA reports it).
func (m *KernelPCA) Eigenvalues() []float64 {
	if m == nil {
		return nil
	}
	return append([]float64(nil), m.eigenvalues...)
}

// TrainingProjections returns a copy of the n×c projections √λ_j (v_j)_i of the training points,
// computed at fit time without a cross-kernel (scikit-learn's fit_transform).
// It is nil for a model not made by [FitKernelPCA].
func (m *KernelPCA) TrainingProjections() *mat.Dense {
	if m == nil || m.projections == nil {
		return nil
	}
	return mat.DenseCopyOf(m.projections)
}
