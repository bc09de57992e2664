package factor

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// PCA is a fitted principal component analysis: the mean of the training rows and the leading
// right singular vectors of the centred data, the directions of largest variance.
type PCA struct {
	mean       []float64  // d column means of the training data
	components *mat.Dense // d×c, orthonormal columns
	variance   []float64  // c variances along the components
}

// FitPCA fits PCA with the given number of components to the rows of X (n×d): it centres the
// columns and takes the thin SVD X_c = U S Vᵀ; the components are the first columns of V, with
// variances s_j²/(n-1). The SVD avoids forming XᵀX, which would square the condition number.
// Errors: nil/empty X, NaN or ±Inf, n < 2, components outside [1, min(n, d)], SVD failure.
// Cost: O(n·d·min(n, d)) time, O(n·d + d²) memory.
func FitPCA(X mat.Matrix, components int) (*PCA, error) {
	const op = "FitPCA"
	x, err := denseCopy(op, "X", X)
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if n < 2 {
		return nil, fmt.Errorf("factor: %s: X has %d row, want at least 2", op, n)
	}
	if components < 1 || components > min(n, d) {
		return nil, fmt.Errorf("factor: %s: components = %d, want 1 ≤ components ≤ min(n, d) = %d", op, components, min(n, d))
	}
	mean := make([]float64, d)
	for i := range n {
		for j, v := range x.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := range n {
		row := x.RawRowView(i)
		for j := range row {
			row[j] -= mean[j]
		}
	}
	var svd mat.SVD
	if !svd.Factorize(x, mat.SVDThinV) {
		return nil, fmt.Errorf("factor: %s: SVD of the centred %d×%d data did not converge", op, n, d)
	}
	var v mat.Dense
	svd.VTo(&v)
	comp := mat.DenseCopyOf(v.Slice(0, d, 0, components))
	fixSigns(comp)
	s := svd.Values(nil)
	variance := make([]float64, components)
	for j := range variance {
		variance[j] = s[j] * s[j] / float64(n-1)
	}
	for j, v := range variance {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "factor: %s: the variance along component %d overflows (%g); rescale X", op, j+1, v)
		}
	}
	return &PCA{mean: mean, components: comp, variance: variance}, nil
}

// Transform returns (X - mean)·V, the m×c coordinates of the rows of X (m×d) on the components.
// Errors: nil/empty X, NaN or ±Inf, a column count other than the training one.
// Cost: O(m·d·c) time, O(m·(d + c)) memory.
func (m *PCA) Transform(X mat.Matrix) (*mat.Dense, error) {
	const op = "PCA.Transform"
	if m == nil || m.components == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "factor: %s: the model is not fitted (make it with FitPCA)", op)
	}
	x, err := matcheck.PredictCopy("factor: "+op, X, len(m.mean))
	if err != nil {
		return nil, err
	}
	rows, _ := x.Dims()
	for i := range rows {
		row := x.RawRowView(i)
		for j := range row {
			row[j] -= m.mean[j]
		}
	}
	var out mat.Dense
	out.Mul(x, m.components)
	if err := finiteResult(op, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Components returns a copy of the d×c matrix whose orthonormal columns are the principal
// directions, by decreasing variance (scikit-learn's components_ transposed).
// It is nil for a model not made by [FitPCA].
func (m *PCA) Components() *mat.Dense {
	if m == nil || m.components == nil {
		return nil
	}
	return mat.DenseCopyOf(m.components)
}

// ExplainedVariance returns a copy of the variances s_j²/(n-1) of the training data along the
// components, in decreasing order.
func (m *PCA) ExplainedVariance() []float64 {
	if m == nil {
		return nil
	}
	return append([]float64(nil), m.variance...)
}
