package kernel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Regression tests for issue 16: each input here used to give a NaN or ±Inf with a nil error.

// nanKernel is a user kernel that returns NaN.
type nanKernel struct{}

func (nanKernel) Eval(x, z []float64) float64 { return math.NaN() }
func (nanKernel) Name() string                { return "nan" }

// allFinite reports whether every entry of m is finite.
func allFinite(m mat.Matrix) bool {
	r, c := m.Dims()
	for i := range r {
		for j := range c {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

func TestKernelMatricesFiniteOrError(t *testing.T) {
	huge := mat.NewDense(2, 1, []float64{1e200, 2e200})
	small := mat.NewDense(8, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	big := mat.NewDense(2, 2, []float64{1e300, 1e300, -1e300, 1e300})
	poly, _ := NewPolynomial(1000, 10, 1)
	for _, c := range []struct {
		name string
		k    Kernel
		X    mat.Matrix
	}{
		{"gaussian 1e200", Gaussian{Sigma: 1}, huge},
		{"polynomial degree 1000", poly, small},
		{"linear 1e300", Linear{}, big},
		{"user NaN", nanKernel{}, small},
	} {
		if g, err := Gram(c.k, c.X); err == nil && !allFinite(g) {
			t.Errorf("%s: Gram = %v with a nil error", c.name, mat.Formatted(g))
		}
		if g, err := Cross(c.k, c.X, c.X); err == nil && !allFinite(g) {
			t.Errorf("%s: Cross(X, X) = %v with a nil error", c.name, mat.Formatted(g))
		}
		Z := mat.DenseCopyOf(c.X)
		if g, err := Cross(c.k, c.X, Z); err == nil && !allFinite(g) {
			t.Errorf("%s: Cross(X, Z) = %v with a nil error", c.name, mat.Formatted(g))
		}
		if d, err := Diagonal(c.k, c.X); err == nil && !allFinite(mat.NewVecDense(len(d), d)) {
			t.Errorf("%s: Diagonal = %v with a nil error", c.name, d)
		}
	}
}

// TestGaussianUnderflowIsZero: exp of −∞ (a tiny σ, far points) is 0, not NaN.
func TestGaussianUnderflowIsZero(t *testing.T) {
	g, err := Gram(Gaussian{Sigma: 1e-150}, mat.NewDense(3, 1, []float64{0, 1e100, -1e100}))
	if err != nil || !allFinite(g) || g.At(0, 1) != 0 || g.At(1, 1) != 1 {
		t.Errorf("Gram = %v (%v), want the identity", g, err)
	}
}

func TestLaplaceSubnormalBandwidth(t *testing.T) {
	if _, err := NewLaplace(5e-324); err == nil {
		t.Error("NewLaplace(5e-324): nil error, want 1/σ = +Inf refused")
	}
	if _, err := Gram(Laplace{Sigma: 5e-324}, mat.NewDense(2, 1, []float64{0, 1})); err == nil {
		t.Error("Gram(Laplace{5e-324}): nil error")
	}
}

func TestBandwidthOverflow(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{1e200, -1e200, 0})
	if v, err := MeanSquaredDistance(X); err == nil {
		t.Errorf("MeanSquaredDistance = %g with a nil error", v)
	}
	Y := mat.NewDense(2, 1, []float64{1.7e308, 1.7e308})
	if v, err := MeanSquaredDistance(mat.NewDense(2, 1, []float64{1.7e308, -1.7e308})); err == nil {
		t.Errorf("MeanSquaredDistance(±1.7e308) = %g with a nil error", v)
	}
	if v, err := ThesisRidge(Y); err == nil && v == 0 {
		t.Errorf("ThesisRidge(1.7e308) = %g with a nil error", v)
	}
	if v, err := MedianHeuristic(nil, mat.NewDense(2, 1, []float64{1.7e308, -1.7e308})); err == nil {
		t.Errorf("MedianHeuristic(±1.7e308) = %g with a nil error", v)
	}
}
