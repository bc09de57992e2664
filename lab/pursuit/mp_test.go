package pursuit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMPResidualNonIncreasing runs MP on a coherent dictionary: the residual norms never grow,
// each iteration removes exactly ⟨d, r⟩²/‖d‖² of the squared norm, and the coefficients
// reproduce the residual.
func TestMPResidualNonIncreasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 20))
	m := gaussianMatrix(rng, 50, 80)
	for j := range 80 { // atoms of various norms: MP normalises the selection
		for i := range 50 {
			m.Set(i, j, m.At(i, j)*float64(1+j%3))
		}
	}
	y := make([]float64, 50)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	for _, dict := range []Dictionary{mustDense(t, m), matrixOperator{m: m}} {
		res, err := MatchingPursuit(dict, y, Options{MaxIterations: 300})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != StopMaxIterations || len(res.Steps) != 300 {
			t.Fatalf("%T: %d steps, stop %v", dict, len(res.Steps), res.Stop)
		}
		norms := res.ResidualNorms()
		for k, s := range res.Steps {
			if norms[k+1] > norms[k]*(1+1e-14) {
				t.Fatalf("%T step %d: residual grew from %g to %g", dict, k, norms[k], norms[k+1])
			}
			col := mat.Col(nil, s.Atom, m)
			removed := norms[k]*norms[k] - norms[k+1]*norms[k+1]
			if want := s.Correlation * s.Correlation / dot(col, col); math.Abs(removed-want) > 1e-12 {
				t.Fatalf("%T step %d: removed %g of ‖r‖², want ⟨d,r⟩²/‖d‖² = %g", dict, k, removed, want)
			}
		}
		if norms[300] > 0.1*norms[0] {
			t.Fatalf("%T: residual %g after 300 iterations from %g", dict, norms[300], norms[0])
		}
		if !closeSlices(res.Residual, residualOf(m, res.Atoms, res.Coefficients, y), 1e-12) {
			t.Fatalf("%T: residual is not y − Dα", dict)
		}
	}
}

// TestMPOnOrthonormalBasis: in an orthonormal basis MP selects the m support atoms in order of
// decreasing |coefficient| and recovers the signal exactly in m iterations.
func TestMPOnOrthonormalBasis(t *testing.T) {
	// Columns: a rotation of ℝ³ (orthonormal), y = 3·q1 − 2·q3 + 0.5·q2.
	s := 1 / math.Sqrt(2)
	m := mat.NewDense(3, 3, []float64{s, -s, 0, s, s, 0, 0, 0, 1})
	y := []float64{3*s - 0.5*s, 3*s + 0.5*s, -2}
	res, err := MatchingPursuit(mustDense(t, m), y, Options{MaxIterations: 10, Tolerance: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 3 || res.Stop != StopTolerance {
		t.Fatalf("%d steps, stop %v; want 3 and the tolerance", len(res.Steps), res.Stop)
	}
	if res.Atoms[0] != 0 || res.Atoms[1] != 2 || res.Atoms[2] != 1 || !closeSlices(res.Coefficients, []float64{3, -2, 0.5}, 1e-15) {
		t.Fatalf("atoms %v coefficients %v; want [0 2 1] and [3 −2 0.5]", res.Atoms, res.Coefficients)
	}
}

// TestMPRateUnderRecoveryCondition checks Gribonval & Vandergheynst's result on an incoherent
// dictionary: MP selects only support atoms and ‖r_k‖² ≤ ‖y‖²(1 − (1 − μ₁(D, m−1))/m)^k.
func TestMPRateUnderRecoveryCondition(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	m := spikesAndHadamard(rng, 256)
	dd := mustDense(t, m)
	inc, err := MeasureIncoherence(dd, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, sparsity := range []int{2, 5, 8} {
		babel, exact := inc.Babel(sparsity - 1)
		theta, err := MatchingPursuitRate(babel, sparsity)
		if err != nil || !exact {
			t.Fatal(err, exact)
		}
		y, support, _ := sparseSignal(rng, m, sparsity)
		res, err := MatchingPursuit(dd, y, Options{MaxIterations: 60, Tolerance: 1e-10 * norm2(y)})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("m = %d: %d iterations down to %.1e", sparsity, len(res.Steps), res.ResidualNorm()/res.SignalNorm)
		inSupport := map[int]bool{}
		for _, j := range support {
			inSupport[j] = true
		}
		for k, s := range res.Steps {
			if !inSupport[s.Atom] {
				t.Fatalf("m = %d step %d: atom %d outside the support", sparsity, k, s.Atom)
			}
			if bound, _ := ResidualBound(res.SignalNorm, theta, k+1); s.ResidualNorm > bound*(1+1e-12) {
				t.Fatalf("m = %d step %d: residual %g above the bound %g", sparsity, k, s.ResidualNorm, bound)
			}
		}
	}
}
