package factor

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAdaptiveRangeFinderMeetsTolerance checks the stopping rule by brute force: the residual
// ‖(I − QQᵀ)A‖₂ is at most eps, Q is orthonormal, it has at least as many columns as A has
// singular values above eps (any fewer could not reach eps), and j + r vectors were drawn.
func TestAdaptiveRangeFinderMeetsTolerance(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	values := make([]float64, 60)
	for i := range values {
		values[i] = math.Pow(10, -float64(i)/4) // σ from 1 down to 10^-14.75
	}
	d := withSpectrum(rng, 120, 80, values)
	for _, a := range []mat.Matrix{d, sparseOf(t, d)} {
		for _, eps := range []float64{1e-2, 1e-6} {
			q, drawn, err := AdaptiveRangeFinder(rand.New(rand.NewPCG(23, 24)), a, eps, 10)
			if err != nil {
				t.Fatal(err)
			}
			_, j := q.Dims()
			var qtq mat.Dense
			qtq.Mul(q.T(), q)
			for i := range j {
				qtq.Set(i, i, qtq.At(i, i)-1)
			}
			if e := mat.Norm(&qtq, 2); e > 1e-12 {
				t.Fatalf("%T eps %g: ‖QᵀQ − I‖ = %g", a, eps, e)
			}
			var qta, res mat.Dense
			qta.Mul(q.T(), d)
			res.Mul(q, &qta)
			res.Sub(d, &res)
			residual := spectralNorm(t, &res)
			above := 0
			for _, s := range values {
				if s > eps {
					above++
				}
			}
			if residual > eps || j < above || drawn != j+10 {
				t.Fatalf("%T eps %g: residual %g with %d columns (%d singular values above eps), %d vectors drawn", a, eps, residual, j, above, drawn)
			}
			t.Logf("%T eps %g: %d columns, residual %.3g", a, eps, j, residual)
		}
	}
}

// TestAdaptiveRangeFinderLimits: a negligible A yields no basis; a tolerance below rounding stops
// at a basis of the whole space instead of running on.
func TestAdaptiveRangeFinderLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	tiny := mat.NewDense(5, 4, nil)
	tiny.Set(2, 3, 1e-12)
	q, drawn, err := AdaptiveRangeFinder(rng, tiny, 1, 3)
	if err != nil || q != nil || drawn != 3 {
		t.Fatalf("negligible A: Q %v, %d drawn, error %v; want nil, 3, nil", q, drawn, err)
	}
	a := mat.NewDense(6, 4, nil)
	fillGaussian(rng, a)
	q, _, err = AdaptiveRangeFinder(rng, a, 1e-300, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := q.Dims(); r != 6 || c != 4 {
		t.Fatalf("tolerance below rounding: Q is %d×%d, want 6×4", r, c)
	}
	for _, c := range []struct {
		name string
		eps  float64
		r    int
		rng  *rand.Rand
		want string
	}{
		{"eps 0", 0, 3, rng, "eps = 0"},
		{"eps NaN", math.NaN(), 3, rng, "eps = NaN"},
		{"eps Inf", math.Inf(1), 3, rng, "eps = +Inf"},
		{"r 0", 1, 0, rng, "r = 0"},
		{"nil rng", 1, 3, nil, "rng is nil"},
	} {
		if _, _, err := AdaptiveRangeFinder(c.rng, a, c.eps, c.r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}
