package leverage

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// When s ≥ n there is a single level, whose landmarks are all the points with weights 1, and
// τ_i = (1/λ)[K − K(K + λI)⁻¹K]_ii = [K(K + λI)⁻¹]_ii: the exact scores.
func TestRecursiveSingleLevelFixedRidgeIsExact(t *testing.T) {
	x := randomPoints(41, 60, 3)
	k := gaussian(t, 0.4)
	for _, lambda := range []float64{0.01, 1} {
		want, _ := eigenScores(t, bruteGram(k, x), lambda)
		got, lam, err := Recursive(rand.New(rand.NewPCG(1, 1)), k, x, lambda, RecursiveOptions{Samples: 60})
		if err != nil {
			t.Fatal(err)
		}
		if lam != lambda {
			t.Errorf("top-level λ = %g, want the caller's %g", lam, lambda)
		}
		if d := maxAbsDiff(got, want); d > 1e-10 {
			t.Errorf("λ = %g: max |Recursive − eq. 2.2| = %.2g", lambda, d)
		}
	}
}

// With AdaptiveRidge and s = n, the single level's ridge is the authors' rule on K itself,
// (tr K − sum of the k largest eigenvalues)/k with k = ⌈n/(4 ln n)⌉, and the scores are the exact
// scores at that ridge.
func TestRecursiveSingleLevelAdaptiveRidge(t *testing.T) {
	const n = 90
	x := randomPoints(42, n, 2)
	k := gaussian(t, 0.3)
	K := bruteGram(k, x)
	var eig mat.EigenSym
	if !eig.Factorize(K, false) {
		t.Fatal("eigenvalues")
	}
	values := eig.Values(nil)
	rank := int(math.Ceil(n / (4 * math.Log(n))))
	var tail float64
	for _, v := range values[:n-rank] {
		tail += v
	}
	wantLambda := tail / float64(rank)
	got, lam, err := Recursive(rand.New(rand.NewPCG(2, 2)), k, x, AdaptiveRidge, RecursiveOptions{Samples: n})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(lam-wantLambda) > 1e-10*wantLambda {
		t.Fatalf("adaptive λ = %.15g, want %.15g", lam, wantLambda)
	}
	want, _ := eigenScores(t, K, wantLambda)
	if d := maxAbsDiff(got, want); d > 1e-10 {
		t.Errorf("max |Recursive − exact scores at the adaptive λ| = %.2g", d)
	}
}

// Over several levels the estimates are within a constant factor of the exact scores and their sum
// within a small multiple of d_eff, as the paper's analysis promises (its constants; the bounds here
// are loosened for the code's practical ones, and wider for the accelerated variant), for several
// ridges and seeds.
func TestRecursiveMultiLevelConstantFactor(t *testing.T) {
	x := randomPoints(31, 1000, 2) // s = 32: five levels
	k := gaussian(t, 0.2)
	for _, lambda := range []float64{0.003, 0.1, 3} {
		exact, deff, err := Exact(k, x, lambda, ExactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, acc := range []bool{false, true} {
			lowest, highest, sumBound := 0.5, 8.0, 3.0
			if acc {
				highest, sumBound = 20, 4
			}
			for seed := range uint64(3) {
				got, _, err := Recursive(rand.New(rand.NewPCG(seed, 9)), k, x, lambda, RecursiveOptions{Accelerated: acc})
				if err != nil {
					t.Fatal(err)
				}
				for i := range got {
					if r := got[i] / exact[i]; r < lowest || r > highest {
						t.Errorf("λ=%g accelerated=%v seed %d: τ_%d/l_%d = %.3g outside [%g, %g]", lambda, acc, seed, i, i, r, lowest, highest)
						break
					}
				}
				if s := sum(got); s < deff || s > sumBound*deff {
					t.Errorf("λ=%g accelerated=%v seed %d: Σ τ = %.3g, d_eff = %.3g, want the ratio in [1, %g]", lambda, acc, seed, s, deff, sumBound)
				}
			}
		}
	}
}

// Same seed, same scores, whatever the number of goroutines; the accelerated variant differs.
func TestRecursiveDeterministic(t *testing.T) {
	x := randomPoints(43, 3000, 3)
	k := gaussian(t, 0.3)
	run := func(procs int, acc bool) []float64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s, _, err := Recursive(rand.New(rand.NewPCG(8, 8)), k, x, AdaptiveRidge, RecursiveOptions{Accelerated: acc})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	one, many := run(1, false), run(4, false)
	if !slices.Equal(one, many) {
		t.Fatalf("Recursive differs between 1 and 4 goroutines (max diff %.2g)", maxAbsDiff(one, many))
	}
	if fast := run(2, true); slices.Equal(one, fast) {
		t.Fatal("the accelerated variant gives the standard one's scores")
	}
}

func TestRecursiveErrors(t *testing.T) {
	x := randomPoints(1, 5, 2)
	k := gaussian(t, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"nil rng", func() error { _, _, err := Recursive(nil, k, x, 1, RecursiveOptions{}); return err }, "nil *rand.Rand"},
		{"nil kernel", func() error { _, _, err := Recursive(rng, nil, x, 1, RecursiveOptions{}); return err }, "nil kernel"},
		{"negative λ", func() error { _, _, err := Recursive(rng, k, x, -1, RecursiveOptions{}); return err }, "λ = -1"},
		{"s > n", func() error { _, _, err := Recursive(rng, k, x, 1, RecursiveOptions{Samples: 9}); return err }, "9 samples for 5 points"},
		{"NaN", func() error {
			_, _, err := Recursive(rng, k, mat.NewDense(1, 2, []float64{0, math.NaN()}), 1, RecursiveOptions{})
			return err
		}, "X[0,1] = NaN"},
	} {
		if err := tc.err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}
