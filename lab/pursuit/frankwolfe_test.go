package pursuit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFrankWolfeHandExample works Algorithm 5 out by hand with D = I₂, y = (1, 1), β = 1, whose
// solution is the projection (½, ½) of y on the l1 ball.
//
// Line search: k = 0 takes e1 (tie, smaller index) with γ = 1: α = (1, 0), r = (0, 1); k = 1
// takes e2, u = D(s − α) = (−1, 1), γ = ⟨u, r⟩/‖u‖² = ½: α = (½, ½); k = 2 finds γ = 0 and
// stops. Open loop: γ = 1, ⅔, ½ give α = (1, 0), (⅓, ⅔), (⅔, ⅓).
func TestFrankWolfeHandExample(t *testing.T) {
	id := mustDense(t, mat.NewDense(2, 2, []float64{1, 0, 0, 1}))
	y := []float64{1, 1}
	res, err := FrankWolfe(id, y, 1, StepLineSearch, Options{MaxIterations: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopNoProgress || len(res.Steps) != 2 || !closeSlices(res.Vector(), []float64{0.5, 0.5}, 1e-15) {
		t.Fatalf("line search: α = %v after %d steps (%v), want (½, ½) after 2 and no progress", res.Vector(), len(res.Steps), res.Stop)
	}
	if !closeSlices(res.ResidualNorms(), []float64{math.Sqrt2, 1, math.Sqrt(0.5)}, 1e-15) || res.Steps[1].StepSize != 0.5 {
		t.Fatalf("line search: residual norms %v, γ₁ = %g", res.ResidualNorms(), res.Steps[1].StepSize)
	}
	res, err = FrankWolfe(id, y, 1, StepOpenLoop, Options{MaxIterations: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{1, 0}, {1.0 / 3, 2.0 / 3}, {2.0 / 3, 1.0 / 3}}
	for k, s := range res.Steps {
		alpha := make([]float64, 2)
		for l, c := range s.Coefficients {
			alpha[res.Atoms[l]] = c
		}
		if !closeSlices(alpha, want[k], 1e-15) || s.StepSize != 2/float64(k+2) {
			t.Fatalf("open loop step %d: α = %v, γ = %g; want %v and %g", k, alpha, s.StepSize, want[k], 2/float64(k+2))
		}
	}
}

// TestFrankWolfeTheorems4And5 checks, on incoherent dictionaries with m ≤ m*, that Frank-Wolfe
// selects only atoms of the support (Theorem 4, both step rules), keeps its iterates in the
// ball, and, with the line search and β = 8‖α*‖₁ (the thesis's §5.4 setting), that
// ‖r_k‖ ≤ ‖y‖(1 − θ)^(k/2) with Theorem 5's θ from the exact Babel function.
func TestFrankWolfeTheorems4And5(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 40))
	for _, c := range incoherentCases(t) {
		dd := mustDense(t, c.m)
		inc, err := MeasureIncoherence(dd, c.mMax)
		if err != nil {
			t.Fatal(err)
		}
		for _, sparsity := range slices.Compact([]int{1, c.mMax / 2, c.mMax}) {
			y, support, coef := sparseSignal(rng, c.m, sparsity)
			l1 := 0.0
			for _, v := range coef {
				l1 += math.Abs(v)
			}
			radius := 8 * l1
			babel, _ := inc.Babel(sparsity - 1)
			theta, err := FrankWolfeRate(babel, sparsity, l1, radius)
			if err != nil {
				t.Fatal(err)
			}
			inSupport := map[int]bool{}
			for _, j := range support {
				inSupport[j] = true
			}
			for _, rule := range []StepRule{StepOpenLoop, StepLineSearch} {
				res, err := FrankWolfe(dd, y, radius, rule, Options{MaxIterations: 150, Tolerance: 1e-10 * norm2(y)})
				t.Logf("%s m = %d %v: %d iterations down to %.1e (θ = %.1e)", c.name, sparsity, rule, len(res.Steps), res.ResidualNorm()/res.SignalNorm, theta)
				if err != nil {
					t.Fatal(err)
				}
				for k, s := range res.Steps {
					if !inSupport[s.Atom] {
						t.Fatalf("%s m = %d %v step %d: atom %d outside the support %v", c.name, sparsity, rule, k, s.Atom, support)
					}
					l1k := 0.0
					for _, v := range s.Coefficients {
						l1k += math.Abs(v)
					}
					if l1k > radius*(1+1e-12) {
						t.Fatalf("%s %v step %d: ‖α‖₁ = %g outside the ball of radius %g", c.name, rule, k, l1k, radius)
					}
					if rule == StepLineSearch {
						if bound, _ := ResidualBound(res.SignalNorm, theta, k+1); s.ResidualNorm > bound {
							t.Fatalf("%s m = %d step %d: residual %g above Theorem 5's bound %g", c.name, sparsity, k, s.ResidualNorm, bound)
						}
						if s.ResidualNorm > res.ResidualNorms()[k]*(1+1e-14) {
							t.Fatalf("%s m = %d step %d: the line search increased the residual", c.name, sparsity, k)
						}
					}
				}
			}
		}
	}
}

// TestFrankWolfeTheorem6 checks the contraction from the first iteration when β exceeds
// Theorem 6's threshold: ‖r_{k+1}‖² ≤ (1 − θ₆)‖r_k‖² at every iteration.
func TestFrankWolfeTheorem6(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 41))
	m := spikesAndHadamard(rng, 256)
	dd := mustDense(t, m)
	inc, err := MeasureIncoherence(dd, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, sparsity := range []int{3, 8} {
		y, _, _ := sparseSignal(rng, m, sparsity)
		babel, _ := inc.Babel(sparsity - 1)
		threshold, err := FrankWolfeRadiusThreshold(norm2(y), babel, sparsity)
		if err != nil {
			t.Fatal(err)
		}
		radius := 1.5 * threshold
		theta6, err := FrankWolfeRateFromFirstIteration(norm2(y), babel, sparsity, radius)
		if err != nil {
			t.Fatal(err)
		}
		res, err := FrankWolfe(dd, y, radius, StepLineSearch, Options{MaxIterations: 100, Tolerance: 1e-12 * norm2(y)})
		if err != nil {
			t.Fatal(err)
		}
		norms := res.ResidualNorms()
		for k := 1; k < len(norms); k++ {
			if norms[k]*norms[k] > (1-theta6)*norms[k-1]*norms[k-1]*(1+1e-12) {
				t.Fatalf("m = %d step %d: ‖r‖² went from %g to %g, above the factor 1 − θ₆ = %g", sparsity, k, norms[k-1]*norms[k-1], norms[k]*norms[k], 1-theta6)
			}
		}
	}
}
