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

// With m = n landmarks the Nyström approximation is K itself, so uniform RLS is exact (up to the
// eigenvalues below the relative cut-off 1e-12, here far below λ).
func TestUniformAllLandmarksIsExact(t *testing.T) {
	x := randomPoints(21, 80, 3)
	k := gaussian(t, 0.3)
	for _, lambda := range []float64{0.01, 1} {
		exact, _, err := Exact(k, x, lambda, ExactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Uniform(rand.New(rand.NewPCG(1, 2)), k, x, lambda, UniformOptions{Landmarks: 80})
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(got, exact); d > 1e-9 {
			t.Errorf("λ = %g: max |Uniform(m = n) − Exact| = %.2g", lambda, d)
		}
	}
}

// K̃ ⪯ K and x ↦ x/(x+λ) is operator monotone, so l̂_i ≤ l_i for every point and every draw; and
// the Alaoui–Mahoney gap l_i − l̂_i shrinks as m grows (their ε = Θ(tr K/(nλm))).
func TestUniformUnderEstimatesAndImprovesWithM(t *testing.T) {
	x := randomPoints(22, 300, 2)
	k := gaussian(t, 0.2)
	const lambda = 0.05
	exact, _, err := Exact(k, x, lambda, ExactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	meanGap := map[int]float64{}
	for _, m := range []int{10, 40, 160} {
		for range 5 {
			got, err := Uniform(rng, k, x, lambda, UniformOptions{Landmarks: m})
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i] > exact[i]+1e-10 {
					t.Fatalf("m = %d: l̂_%d = %.15g > exact %.15g", m, i, got[i], exact[i])
				}
				meanGap[m] += (exact[i] - got[i]) / float64(5*len(got))
			}
		}
	}
	if !(meanGap[10] > meanGap[40] && meanGap[40] > meanGap[160]) {
		t.Errorf("mean gap l − l̂ by m: %v, want it decreasing", meanGap)
	}
	t.Logf("mean gap l − l̂ by m: %v", meanGap)
}

// The result does not depend on the number of goroutines, nor on whether B is kept between the
// passes or computed twice.
func TestUniformDeterministic(t *testing.T) {
	x := randomPoints(23, 2500, 3) // three row blocks
	k := gaussian(t, 0.5)
	run := func(procs int) []float64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s, err := Uniform(rand.New(rand.NewPCG(6, 6)), k, x, 0.1, UniformOptions{Landmarks: 60})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	one, many := run(1), run(4)
	if !slices.Equal(one, many) {
		t.Fatalf("Uniform differs between 1 and 4 goroutines (max diff %.2g)", maxAbsDiff(one, many))
	}
	saved := uniformCacheElements
	uniformCacheElements = 0
	defer func() { uniformCacheElements = saved }()
	if streamed := run(3); !slices.Equal(one, streamed) {
		t.Fatalf("Uniform differs when B is computed twice (max diff %.2g)", maxAbsDiff(one, streamed))
	}
}

func TestUniformErrors(t *testing.T) {
	x := randomPoints(1, 5, 2)
	k := gaussian(t, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"nil rng", func() error { _, err := Uniform(nil, k, x, 1, UniformOptions{}); return err }, "nil *rand.Rand"},
		{"m > n", func() error { _, err := Uniform(rng, k, x, 1, UniformOptions{Landmarks: 6}); return err }, "6 landmarks for 5 points"},
		{"m < 0", func() error { _, err := Uniform(rng, k, x, 1, UniformOptions{Landmarks: -1}); return err }, "-1 landmarks"},
		{"λ", func() error { _, err := Uniform(rng, k, x, math.NaN(), UniformOptions{}); return err }, "λ = NaN"},
		{"empty X", func() error { _, err := Uniform(rng, k, &mat.Dense{}, 1, UniformOptions{}); return err }, "empty"},
	} {
		if err := tc.err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}
