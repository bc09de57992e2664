package factor

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Regression tests for issue 16.

// TestZeroModels: methods of models not made by the Fit functions panicked on nil matrices.
func TestZeroModels(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{1, 2})
	var kpca KernelPCA
	if _, err := kpca.Transform(X); err == nil {
		t.Error("zero KernelPCA: Transform: nil error")
	}
	if p := kpca.TrainingProjections(); p != nil {
		t.Errorf("zero KernelPCA: TrainingProjections = %v, want nil", p)
	}
	if e := kpca.Eigenvalues(); len(e) != 0 {
		t.Errorf("zero KernelPCA: Eigenvalues = %v, want none", e)
	}
	var pca PCA
	if c := pca.Components(); c != nil {
		t.Errorf("zero PCA: Components = %v, want nil", c)
	}
	if _, err := pca.Transform(X); err == nil {
		t.Error("zero PCA: Transform: nil error")
	}
}

// TestPCAOverflow: the explained variance of huge coordinates overflowed to +Inf.
func TestPCAOverflow(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1e200, 1, -1e200, 2, 0, 3})
	if m, err := FitPCA(X, 1); err == nil {
		t.Errorf("FitPCA: variance %v with a nil error", m.ExplainedVariance())
	}
	Y := mat.NewDense(3, 1, []float64{1.7e308, -1.7e308, 1.7e308})
	if m, err := FitPCA(Y, 1); err == nil {
		t.Errorf("FitPCA(±1.7e308): variance %v with a nil error", m.ExplainedVariance())
	}
	m, err := FitPCA(mat.NewDense(3, 1, []float64{0, 1, 2}), 1)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := m.Transform(mat.NewDense(1, 1, []float64{-1.7e308})); err == nil && out.At(0, 0)-out.At(0, 0) != 0 {
		t.Errorf("PCA.Transform(-1.7e308) = %v with a nil error", out.At(0, 0))
	}
}
