package pursuit

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Regression tests for issue 16: each input here used to hang, panic, exhaust memory or return a
// non-finite value with a nil error.

// TestRecoverySparsityTinyCoherence: the search loop overflowed for μ ≤ 1e-19 and never returned.
func TestRecoverySparsityTinyCoherence(t *testing.T) {
	for _, mu := range []float64{1e-19, 1e-100, 5e-324, 0x1p-53} {
		done := make(chan error, 1)
		go func() { _, err := RecoverySparsity(mu); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("RecoverySparsity(%g): nil error, want one (m* beyond exact arithmetic)", mu)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("RecoverySparsity(%g) did not return within 5 s", mu)
		}
	}
	// The smallest accepted μ still gives the exact answer ⌈(1/μ − 1)/2⌉.
	if m, err := RecoverySparsity(0x1p-52); err != nil || m != 1<<51 {
		t.Errorf("RecoverySparsity(2⁻⁵²) = %d (%v), want 2⁵¹", m, err)
	}
}

// TestResidualBoundErrors: θ > 1 gave NaN with no way to report it.
func TestResidualBoundErrors(t *testing.T) {
	for _, c := range []struct {
		norm, theta float64
		k           int
	}{{1, 2, 1}, {1, -0.5, 1}, {1, math.NaN(), 1}, {-1, 0.5, 1}, {math.Inf(1), 0.5, 1}, {1, 0.5, -1}} {
		if b, err := ResidualBound(c.norm, c.theta, c.k); err == nil {
			t.Errorf("ResidualBound(%g, %g, %d) = %g with a nil error, want an error", c.norm, c.theta, c.k, b)
		}
	}
}

// TestNNLSSubnormal: entries of 1e-310 overflowed the solve to +Inf.
func TestNNLSSubnormal(t *testing.T) {
	for _, a := range []*mat.Dense{
		mat.NewDense(2, 2, []float64{1e-310, 0, 0, 1e-310}),
		mat.NewDense(2, 2, []float64{1e-310, 1e-310, 1e-310, 2e-310}),
		mat.NewDense(1, 2, []float64{1e-310, 1e-310}),
	} {
		x, err := NonNegativeLeastSquares(a, []float64{1, 1}[:a.RawMatrix().Rows])
		if err == nil && firstNonFinite(x) >= 0 {
			t.Errorf("NonNegativeLeastSquares(%v) = %v with a nil error", mat.Formatted(a), x)
		}
	}
}

// TestZeroDenseDictionary: Matrix on the zero value panicked.
func TestZeroDenseDictionary(t *testing.T) {
	if m := new(DenseDictionary).Matrix(); m != nil {
		t.Errorf("zero DenseDictionary: Matrix() = %v, want nil", m)
	}
}

// TestHugeDictionary: a 2²⁰×2²⁰ dictionary (8 TiB) killed the process.
func TestHugeDictionary(t *testing.T) {
	if _, err := NewGaussianDictionary(rand.New(rand.NewPCG(1, 2)), 1<<20, 1<<20); err == nil {
		t.Error("NewGaussianDictionary(2²⁰, 2²⁰): nil error, want the size refused")
	}
}

// TestSweepFindings: found by the sweep of lab/internal/sweep — an overflowing radius threshold,
// and 2⁴⁰ recorded iterations of matching pursuit and Frank-Wolfe (unbounded memory).
func TestSweepFindings(t *testing.T) {
	if v, err := FrankWolfeRadiusThreshold(math.MaxFloat64, 0.5, 2); err == nil {
		t.Errorf("FrankWolfeRadiusThreshold(MaxFloat64) = %g with a nil error", v)
	}
	dict, err := NewGaussianDictionary(rand.New(rand.NewPCG(1, 2)), 4, 6)
	if err != nil {
		t.Fatal(err)
	}
	y := []float64{1, 0, 0, 0}
	if _, err := MatchingPursuit(dict, y, Options{MaxIterations: 1 << 40}); err == nil {
		t.Error("MatchingPursuit with MaxIterations = 2⁴⁰: nil error")
	}
	if _, err := FrankWolfe(dict, y, 1, StepLineSearch, Options{MaxIterations: math.MaxInt}); err == nil {
		t.Error("FrankWolfe with MaxIterations = MaxInt: nil error")
	}
}
