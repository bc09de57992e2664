package forest

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Regression tests for issue 16.

// TestHugeTargets: y holding MaxFloat64 made Predict return +Inf with a nil error.
func TestHugeTargets(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := []float64{math.MaxFloat64, math.MaxFloat64, 1, 2}
	f, err := Fit(rand.New(rand.NewPCG(1, 2)), Regression, X, y, Options{Trees: 3})
	if err == nil {
		p, err := f.Predict(X)
		for _, v := range p {
			if err == nil && (math.IsInf(v, 0) || math.IsNaN(v)) {
				t.Fatalf("Predict = %v with a nil error", p)
			}
		}
	}
	// Large but safe targets still fit.
	if _, err := Fit(rand.New(rand.NewPCG(1, 2)), Regression, X, []float64{1e100, -1e100, 0, 1}, Options{Trees: 3}); err != nil {
		t.Errorf("targets of 1e100: %v", err)
	}
}

// TestHugeForest: Options{Trees: 2⁴⁰} killed the process.
func TestHugeForest(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	if _, err := Fit(rand.New(rand.NewPCG(1, 2)), Regression, X, []float64{0, 1, 2, 3}, Options{Trees: 1 << 40}); err == nil {
		t.Error("Trees = 2⁴⁰: nil error")
	}
}

// TestZeroForest: a forest not made by Fit has no trees; Predict divided by zero.
func TestZeroForest(t *testing.T) {
	X := mat.NewDense(1, 1, []float64{0})
	if p, err := new(Forest).Predict(X); err == nil {
		t.Errorf("zero Forest: Predict = %v with a nil error", p)
	}
	if v, err := new(Tree).Predict(nil); err == nil {
		t.Errorf("zero Tree: Predict = %g with a nil error", v)
	}
	if _, err := new(Forest).TreePredictions(X); err == nil {
		t.Error("zero Forest: TreePredictions: nil error")
	}
}

// TestTreeOutOfRange: Forest.Tree(i) panicked outside [0, Size()) (found by the sweep).
func TestTreeOutOfRange(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	f, err := Fit(rand.New(rand.NewPCG(1, 2)), Regression, X, []float64{0, 1, 2, 3}, Options{Trees: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{-1, 2, math.MaxInt} {
		if tr := f.Tree(i); tr != nil {
			t.Errorf("Tree(%d) = %v, want nil", i, tr)
		}
	}
	if f.Tree(1) == nil || new(Forest).Tree(0) != nil {
		t.Error("Tree(1) nil or zero Forest's Tree(0) not nil")
	}
}

// Issue 34: weights ±MaxFloat64 made the weighted sum of a regression forest −Inf, returned with a
// nil error.
func TestPrunedForestOverflowIsAnError(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := []float64{1, 2, 3, 4}
	f, err := Fit(rand.New(rand.NewPCG(1, 2)), Regression, X, y, Options{Trees: 3})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPrunedForest(f, Selection{Trees: []int{0, 1, 2}, Weights: []float64{math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64}})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := p.Predict(X); err == nil {
		t.Errorf("Predict with ±MaxFloat64 weights: %v with a nil error", out)
	}
}
