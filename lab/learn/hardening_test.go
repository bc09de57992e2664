package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// Regression tests for issue 16.

func anyNonFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return true
		}
	}
	return false
}

// TestKRRHugeTargets: y = ±MaxFloat64 gave NaN coefficients with a nil error.
func TestKRRHugeTargets(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := []float64{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64}
	if m, err := FitKRR(kernel.Gaussian{Sigma: 1}, X, y, 1e-3); err == nil && anyNonFinite(m.Coefficients()) {
		t.Errorf("FitKRR: coefficients %v with a nil error", m.Coefficients())
	}
}

// TestZeroKRR: Predict on the zero KRR panicked.
func TestZeroKRR(t *testing.T) {
	if _, err := new(KRR).Predict(mat.NewDense(1, 1, []float64{1})); err == nil {
		t.Error("zero KRR: Predict: nil error")
	}
	if _, err := new(SVM).Decision(mat.NewDense(1, 1, []float64{1})); err == nil {
		t.Error("zero SVM: Decision: nil error")
	}
}

// TestSVMSubnormalLaplace: Laplace{5e-324} was accepted and Decision returned NaN.
func TestSVMSubnormalLaplace(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	m, err := FitSVM(kernel.Laplace{Sigma: 5e-324}, X, []float64{-1, -1, 1, 1}, SVMOptions{})
	if err == nil {
		if d, err := m.Decision(X); err == nil && anyNonFinite(d) {
			t.Errorf("Decision = %v with a nil error", d)
		}
	}
}

// TestOverflowingMetrics: KMeans inertia and MSE overflowed to +Inf.
func TestOverflowingMetrics(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{1e200, -1e200, 0})
	if r, err := KMeans(rand.New(rand.NewPCG(1, 2)), X, 1, KMeansOptions{}); err == nil && (math.IsInf(r.Inertia, 0) || math.IsNaN(r.Inertia)) {
		t.Errorf("KMeans inertia %g with a nil error", r.Inertia)
	}
	Y := mat.NewDense(2, 1, []float64{1.7e308, -1.7e308})
	if r, err := KMeans(rand.New(rand.NewPCG(1, 2)), Y, 1, KMeansOptions{}); err == nil && (math.IsInf(r.Inertia, 0) || math.IsNaN(r.Inertia)) {
		t.Errorf("KMeans(±1.7e308) inertia %g with a nil error", r.Inertia)
	}
	if v, err := MSE([]float64{1e200}, []float64{-1e200}); err == nil {
		t.Errorf("MSE = %g with a nil error", v)
	}
}
