package pursuit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bruteForceBabel evaluates Definition 10 literally: the maximum over every set Λ of m atoms
// and every atom j outside it of Σ_{i∈Λ} |⟨v_i, v_j⟩| on the normalised atoms.
func bruteForceBabel(m *mat.Dense, size int) float64 {
	_, n := m.Dims()
	cols := make([][]float64, n)
	for j := range n {
		cols[j] = mat.Col(nil, j, m)
		nrm := norm2(cols[j])
		for i := range cols[j] {
			cols[j][i] /= nrm
		}
	}
	best := 0.0
	var rec func(start int, set []int)
	rec = func(start int, set []int) {
		if len(set) == size {
			for j := range n {
				in, sum := false, 0.0
				for _, i := range set {
					in = in || i == j
					sum += math.Abs(dot(cols[i], cols[j]))
				}
				if !in {
					best = max(best, sum)
				}
			}
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(set, i))
		}
	}
	rec(0, nil)
	return best
}

func TestIncoherenceAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 50))
	for trial := range 3 {
		m := mat.NewDense(5, 9, nil)
		for i := range 5 {
			for j := range 9 {
				m.Set(i, j, rng.NormFloat64()*float64(1+j%2)) // unnormalised atoms
			}
		}
		for _, dict := range []Dictionary{mustDense(t, m), matrixOperator{m: m}} {
			inc, err := MeasureIncoherence(dict, 5)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteForceBabel(m, 1); math.Abs(inc.Coherence-want) > 1e-14 {
				t.Fatalf("trial %d %T: μ = %g, brute force %g", trial, dict, inc.Coherence, want)
			}
			for size := 1; size <= 5; size++ {
				got, exact := inc.Babel(size)
				if want := bruteForceBabel(m, size); !exact || math.Abs(got-want) > 1e-14 {
					t.Fatalf("trial %d %T: μ₁(D, %d) = %g (exact %v), brute force %g", trial, dict, size, got, exact, want)
				}
			}
			if got, exact := inc.Babel(7); exact || got != 7*inc.Coherence {
				t.Fatalf("μ₁(D, 7) beyond maxM = %g (exact %v), want the bound 7μ", got, exact)
			}
		}
	}
}

// TestCoherenceAcrossBlocks: with n spanning several 64-row blocks, μ alone (computed on the
// upper triangle of the Gram matrix) equals μ computed with the Babel function and μ₁(D, 2) by
// brute force.
func TestCoherenceAcrossBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 52))
	m := gaussianMatrix(rng, 6, 150)
	dd := mustDense(t, m)
	alone, err := MeasureIncoherence(dd, 0)
	if err != nil {
		t.Fatal(err)
	}
	with, err := MeasureIncoherence(dd, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := bruteForceBabel(m, 1)
	b2, _ := with.Babel(2)
	if math.Abs(alone.Coherence-want) > 1e-14 || math.Abs(with.Coherence-want) > 1e-14 || math.Abs(b2-bruteForceBabel(m, 2)) > 1e-14 {
		t.Fatalf("μ = %g (alone), %g (with Babel), brute force %g; μ₁(2) = %g", alone.Coherence, with.Coherence, want, b2)
	}
}

// TestIncoherenceHandExample: atoms e1, e2 and (e1 + e2)/√2 of ℝ². μ = 1/√2 (the diagonal atom
// against either axis), μ₁(D, 2) = √2 (both axes against the diagonal atom), μ₁(D, 0) = 0.
func TestIncoherenceHandExample(t *testing.T) {
	s := 1 / math.Sqrt2
	inc, err := MeasureIncoherence(mustDense(t, mat.NewDense(2, 3, []float64{1, 0, s, 0, 1, s})), 2)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := inc.Babel(2)
	b0, exact0 := inc.Babel(0)
	if math.Abs(inc.Coherence-s) > 1e-15 || math.Abs(b2-math.Sqrt2) > 1e-15 || b0 != 0 || !exact0 {
		t.Fatalf("μ = %g, μ₁(2) = %g, μ₁(0) = %g; want 1/√2, √2, 0", inc.Coherence, b2, b0)
	}
}

// TestExactRecoveryCondition: by hand, Λ = {e1, e2} against (e1 + e2)/√2 gives
// ‖D_Λ⁺v‖₁ = √2 ≥ 1 (fails), Λ = {e1} gives 1/√2 (holds); on random dictionaries the value
// equals max ‖x_i‖₁ for x_i the least-squares solution of D_Λ x = v_i (gonum QR).
func TestExactRecoveryCondition(t *testing.T) {
	s := 1 / math.Sqrt2
	hand := mustDense(t, mat.NewDense(3, 4, []float64{1, 0, s, 0, 0, 1, s, 0, 0, 0, 0, 2}))
	v, worst, err := ExactRecoveryCondition(hand, []int{0, 1})
	if err != nil || math.Abs(v-math.Sqrt2) > 1e-15 || worst != 2 {
		t.Fatalf("Λ = {0, 1}: ERC = %g at atom %d (%v), want √2 at atom 2", v, worst, err)
	}
	v, worst, _ = ExactRecoveryCondition(hand, []int{0})
	if math.Abs(v-s) > 1e-15 || worst != 2 {
		t.Fatalf("Λ = {0}: ERC = %g at atom %d, want 1/√2 at atom 2", v, worst)
	}
	rng := rand.New(rand.NewPCG(51, 51))
	m := gaussianMatrix(rng, 20, 40)
	support := []int{5, 17, 30}
	for _, dict := range []Dictionary{mustDense(t, m), matrixOperator{m: m}} {
		got, _, err := ExactRecoveryCondition(dict, support)
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		for i := range 40 {
			if i == 5 || i == 17 || i == 30 {
				continue
			}
			x := leastSquares(t, m, support, mat.Col(nil, i, m))
			l1 := 0.0
			for _, xv := range x {
				l1 += math.Abs(xv)
			}
			want = max(want, l1)
		}
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("%T: ERC = %g, least squares %g", dict, got, want)
		}
	}
}

// TestRateFunctions checks the closed forms on hand-computed values.
func TestRateFunctions(t *testing.T) {
	// θ = (1/16)·(0.9/4)·(1 − 1/2)² = 0.003515625.
	if th, err := FrankWolfeRate(0.1, 4, 1, 2); err != nil || math.Abs(th-0.003515625) > 1e-18 {
		t.Errorf("FrankWolfeRate = %g (%v), want 0.003515625", th, err)
	}
	if th, err := MatchingPursuitRate(0.2, 5); err != nil || math.Abs(th-0.16) > 1e-17 {
		t.Errorf("MatchingPursuitRate = %g (%v), want 0.16", th, err)
	}
	// Threshold 2·3·√(4/(1 − 0.2)) = 6√5; with β = 12√5, τ = ½ and θ₆ = (0.8/16)·¼ = 0.0125.
	if th, err := FrankWolfeRadiusThreshold(3, 0.2, 4); err != nil || math.Abs(th-6*math.Sqrt(5)) > 1e-14 {
		t.Errorf("FrankWolfeRadiusThreshold = %g (%v), want 6√5", th, err)
	}
	if th, err := FrankWolfeRateFromFirstIteration(3, 0.2, 4, 12*math.Sqrt(5)); err != nil || math.Abs(th-0.0125) > 1e-16 {
		t.Errorf("FrankWolfeRateFromFirstIteration = %g (%v), want 0.0125", th, err)
	}
	if b, err := ResidualBound(2, 0.75, 3); err != nil || math.Abs(b-0.25) > 1e-16 {
		t.Errorf("ResidualBound(2, 0.75, 3) = %g (%v), want 2·0.25^1.5 = 0.25", b, err)
	}
	// m* = largest m with (2m − 1)μ < 1: μ = 1/17 → 8 (m = 9 gives exactly 1), μ = 0.058 → 9,
	// μ = 0.2 → 2, μ = 1 → 0, μ = 1/16 → 8.
	for _, c := range []struct {
		mu   float64
		want int
	}{{1.0 / 17, 8}, {0.058, 9}, {0.2, 2}, {1, 0}, {1.0 / 16, 8}, {0.1, 5}} {
		if got, err := RecoverySparsity(c.mu); err != nil || got != c.want {
			t.Errorf("RecoverySparsity(%g) = %d (%v), want %d", c.mu, got, err, c.want)
		}
	}
	bad := []error{}
	for _, f := range []func() error{
		func() error { _, err := FrankWolfeRate(1, 4, 1, 2); return err },
		func() error { _, err := FrankWolfeRate(0.1, 0, 1, 2); return err },
		func() error { _, err := FrankWolfeRate(0.1, 4, 2, 2); return err },
		func() error { _, err := FrankWolfeRate(math.NaN(), 4, 1, 2); return err },
		func() error { _, err := MatchingPursuitRate(-0.1, 4); return err },
		func() error { _, err := FrankWolfeRadiusThreshold(math.Inf(1), 0.1, 4); return err },
		func() error { _, err := FrankWolfeRateFromFirstIteration(3, 0.2, 4, 1); return err },
		func() error { _, err := RecoverySparsity(0); return err },
		func() error { _, err := RecoverySparsity(1.5); return err },
	} {
		bad = append(bad, f())
	}
	for i, err := range bad {
		if err == nil {
			t.Errorf("bad input %d: no error", i)
		}
	}
}
