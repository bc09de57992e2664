package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestMeanSquaredDistanceByHand(t *testing.T) {
	// Points 0 and 2 on a line: the four ordered pairs give 0 + 4 + 4 + 0 = 8, over n² = 4.
	got, err := MeanSquaredDistance(mat.NewDense(2, 1, []float64{0, 2}))
	if err != nil || got != 2 {
		t.Fatalf("σ² of {0, 2} = %v, %v; want 2", got, err)
	}
}

func TestMeanSquaredDistanceAgainstDoubleSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, offset := range []float64{0, 100} { // 100: the naive 2(mean||x||² - ||mean x||²) would cancel
		X := randomMatrix(rng, 150, 7, offset)
		var sum float64
		for i := range 150 {
			for j := range 150 {
				for l := range 7 {
					d := X.At(i, l) - X.At(j, l)
					sum += d * d
				}
			}
		}
		want := sum / (150 * 150)
		got, err := MeanSquaredDistance(X)
		if err != nil || math.Abs(got-want) > 1e-12*want {
			t.Fatalf("offset %v: σ² = %v, %v; the O(n²d) double sum gives %v", offset, got, err, want)
		}
	}
}

func TestThesisRidgeByHand(t *testing.T) {
	// Norms 5 and 0: mean 2.5, λ = 0.4. Norms 1 and 2: mean 1.5, λ = 2/3.
	for _, c := range []struct {
		data []float64
		want float64
	}{{[]float64{3, 4, 0, 0}, 0.4}, {[]float64{1, 0, 0, 2}, 2.0 / 3}} {
		got, err := ThesisRidge(mat.NewDense(2, 2, c.data))
		if err != nil || math.Abs(got-c.want) > 1e-16 {
			t.Errorf("ThesisRidge(%v) = %v, %v; want %v", c.data, got, err, c.want)
		}
	}
}

func TestMedianHeuristicByHand(t *testing.T) {
	// {0, 1, 3, 7}: distances 1, 3, 7, 2, 6, 4, sorted 1 2 3 4 6 7, median (3+4)/2.
	// {0, 1, 3}: distances 1, 3, 2, median 2. rng is not needed (nil) at these sizes.
	for _, c := range []struct {
		points []float64
		want   float64
	}{{[]float64{0, 1, 3, 7}, 3.5}, {[]float64{0, 1, 3}, 2}} {
		got, err := MedianHeuristic(nil, mat.NewDense(len(c.points), 1, c.points))
		if err != nil || got != c.want {
			t.Errorf("median heuristic of %v = %v, %v; want %v", c.points, got, err, c.want)
		}
	}
	// 2-d: the unit square's corners: four sides of 1 and two diagonals of √2, median 1.
	got, err := MedianHeuristic(nil, mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1}))
	if err != nil || got != 1 {
		t.Errorf("median heuristic of the square's corners = %v, %v; want 1", got, err)
	}
}

// TestMedianHeuristicSubsample draws 3000 uniform points of [0, 1]: the distance |U - V| has
// median 1 - 1/√2 ≈ 0.2929; with a subsample of 1000 points the estimate's standard deviation is
// about 0.01 (a U-statistic: ~ sqrt(4·Var(h₁)/1000) with Var(h₁) ≈ 0.02), so it must land within
// 0.04 (4 standard deviations). Same seed, same value; a different seed, another subsample.
func TestMedianHeuristicSubsample(t *testing.T) {
	points := make([]float64, 3000)
	data := rand.New(rand.NewPCG(33, 34))
	for i := range points {
		points[i] = data.Float64()
	}
	X := mat.NewDense(3000, 1, points)
	a, err := MedianHeuristic(rand.New(rand.NewPCG(1, 2)), X)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 - 1/math.Sqrt2; math.Abs(a-want) > 0.04 {
		t.Fatalf("median heuristic %v, want %v ± 0.04", a, want)
	}
	b, _ := MedianHeuristic(rand.New(rand.NewPCG(1, 2)), X)
	c, _ := MedianHeuristic(rand.New(rand.NewPCG(5, 6)), X)
	if a != b || a == c {
		t.Fatalf("seeded results %v, %v (same seed) and %v (another seed)", a, b, c)
	}
	// The result is a median of distances between sample points: it must be a pairwise
	// distance of X, or the mean of two.
	sorted := slices.Clone(points)
	slices.Sort(sorted)
	if math.IsNaN(a) || a <= 0 || a >= sorted[len(sorted)-1]-sorted[0] {
		t.Fatalf("median %v outside the range of distances", a)
	}
}

func TestBandwidthErrors(t *testing.T) {
	same := mat.NewDense(3, 2, []float64{1, 2, 1, 2, 1, 2})
	zeros := mat.NewDense(2, 2, nil)
	withNaN := mat.NewDense(2, 1, []float64{1, math.NaN()})
	many := mat.NewDense(MedianSubsample+1, 1, nil)
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"σ² of identical rows", first(MeanSquaredDistance(same)), "identical"},
		{"σ² of NaN", first(MeanSquaredDistance(withNaN)), "NaN"},
		{"σ² of nil", first(MeanSquaredDistance(nil)), "nil"},
		{"λ of zero rows", first(ThesisRidge(zeros)), "zero"},
		{"λ of empty", first(ThesisRidge(&mat.Dense{})), "empty"},
		{"median of one row", first(MedianHeuristic(nil, mat.NewDense(1, 3, nil))), "at least 2"},
		{"median without rng", first(MedianHeuristic(nil, many)), "nil rng"},
		{"median zero", first(MedianHeuristic(nil, same)), "median pairwise distance is 0"},
		{"median of Inf", first(MedianHeuristic(nil, mat.NewDense(2, 1, []float64{math.Inf(1), 0}))), "+Inf"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, c.err, c.want)
		}
	}
}

// ThesisGaussian is NewGaussian(√MeanSquaredDistance): on the rows (0, 0), (2, 0) the mean
// squared distance over all ordered pairs is (0 + 4 + 4 + 0)/4 = 2, so k((0,0), (2,0)) = e^{-4/4}.
func TestThesisGaussian(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{0, 0, 2, 0})
	k, sigma2, err := ThesisGaussian(X)
	if err != nil {
		t.Fatal(err)
	}
	if sigma2 != 2 {
		t.Errorf("σ² = %g, want 2", sigma2)
	}
	if got, want := k.Eval([]float64{0, 0}, []float64{2, 0}), math.Exp(-1); math.Abs(got-want) > 1e-15 {
		t.Errorf("k = %g, want %g", got, want)
	}
	if _, _, err := ThesisGaussian(mat.NewDense(2, 1, []float64{3, 3})); err == nil {
		t.Error("identical rows have no bandwidth: want an error")
	}
}
