package verdict

import (
	"math"
	"math/rand/v2"
	"testing"
)

// calibrationDraws is the number of simulated data sets per primitive and n: the Monte Carlo
// standard error of a rate near Alpha = 0.05 is then √(0.05·0.95/4000) ≈ 0.0034.
const calibrationDraws = 4000

// supportRate is the share of simulated data sets on which test supports the claim.
func supportRate(rng *rand.Rand, test func(rng *rand.Rand) Test) float64 {
	k := 0
	for range calibrationDraws {
		if test(rng).Outcome() == Supported {
			k++
		}
	}
	return float64(k) / calibrationDraws
}

// normals returns n draws of N(mu, sd²).
func normals(rng *rand.Rand, n int, mu, sd float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = mu + sd*rng.NormFloat64()
	}
	return v
}

// lognormalPair returns n paired positive values (a_i, b_i) sharing a per-draw factor, with
// ln(a_i/b_i) ~ N(ln ratio, 0.3²): timings of two methods on the same repetitions.
func lognormalPair(rng *rand.Rand, n int, ratio float64) (a, b []float64) {
	a, b = make([]float64, n), make([]float64, n)
	for i := range a {
		shared := 0.5 * rng.NormFloat64()
		b[i] = math.Exp(shared + 0.2*rng.NormFloat64())
		a[i] = b[i] * math.Exp(math.Log(ratio)+0.3*rng.NormFloat64())
	}
	return a, b
}

// slopePair returns x = 0, 1, …, n−1 and two independent lines through it with slopes s1 and s2
// and N(0, 1) noise: two fitted curves whose slopes a claim compares.
func slopePair(rng *rand.Rand, n int, s1, s2 float64) (x, y1, y2 []float64) {
	x, y1, y2 = make([]float64, n), normals(rng, n, 0, 1), normals(rng, n, 0, 1)
	for i := range x {
		x[i] = float64(i)
		y1[i] += s1 * x[i]
		y2[i] += s2 * x[i]
	}
	return x, y1, y2
}

// Under a true null on the boundary of each claim, every decision primitive supports the claim in
// at most Alpha of the draws (within 3 Monte Carlo standard errors), at every number of draws the
// catalogue uses; the t-based ones also do not fall far below Alpha (they are exact for normal
// data), and each has power against a clear alternative.
func TestPrimitivesAreCalibratedUnderTheNull(t *testing.T) {
	mcErr := 3 * math.Sqrt(Alpha*(1-Alpha)/calibrationDraws)
	primitives := []struct {
		name  string
		exact bool // level exactly Alpha for this model (else conservative allowed)
		null  func(rng *rand.Rand, n int) Test
	}{
		{"MeanAbove", true, func(rng *rand.Rand, n int) Test { return MeanAbove("", normals(rng, n, 0, 1), 0) }},
		{"MeanBelow", true, func(rng *rand.Rand, n int) Test { return MeanBelow("", normals(rng, n, 0, 1), 0) }},
		{"Equivalent (true difference on the margin)", false, func(rng *rand.Rand, n int) Test {
			return Equivalent("", normals(rng, n, 0.5, 1), 0.5)
		}},
		{"RatioBelow paired", true, func(rng *rand.Rand, n int) Test {
			a, b := lognormalPair(rng, n, 1)
			return RatioBelow("", a, b, true, 1)
		}},
		{"RatioAbove paired", true, func(rng *rand.Rand, n int) Test {
			a, b := lognormalPair(rng, n, 1.1)
			return RatioAbove("", a, b, true, 1.1)
		}},
		{"RatioBelow unpaired (Welch)", false, func(rng *rand.Rand, n int) Test {
			a, b := lognormalPair(rng, n, 1)
			rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			return RatioBelow("", a, b, false, 1)
		}},
		{"RatioWithin (true ratio on the edge)", false, func(rng *rand.Rand, n int) Test {
			a, b := lognormalPair(rng, n, 1.5)
			return RatioWithin("", a, b, true, 1.5)
		}},
		{"RateBelow", false, func(rng *rand.Rand, n int) Test {
			k := 0
			for range n {
				if rng.Float64() < 0.3 {
					k++
				}
			}
			return RateBelow("", k, n, 0.3)
		}},
		{"SlopeAbove", true, func(rng *rand.Rand, n int) Test {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(i)
			}
			return SlopeAbove("", x, normals(rng, n, 0, 1), 0)
		}},
		{"SlopeRatioWithin (true ratio on the upper edge)", false, func(rng *rand.Rand, n int) Test {
			x, y1, y2 := slopePair(rng, n, -5*1.25, -5)
			return SlopeRatioWithin("", x, y1, x, y2, 1.25)
		}},
		{"SlopeRatioWithin (true ratio on the lower edge)", false, func(rng *rand.Rand, n int) Test {
			x, y1, y2 := slopePair(rng, n, -5/1.25, -5)
			return SlopeRatioWithin("", x, y1, x, y2, 1.25)
		}},
		{"FewerErrors (McNemar)", false, func(rng *rand.Rand, n int) Test {
			a, b := make([]bool, 4*n), make([]bool, 4*n)
			for i := range a {
				a[i], b[i] = rng.Float64() < 0.3, rng.Float64() < 0.3
			}
			return FewerErrors("", a, b)
		}},
	}
	for _, p := range primitives {
		for _, n := range []int{3, 5, 8, 20, 50} {
			rng := rand.New(rand.NewPCG(uint64(n), 31))
			rate := supportRate(rng, func(rng *rand.Rand) Test { return p.null(rng, n) })
			if rate > Alpha+mcErr {
				t.Errorf("%s at n = %d: supports a false claim in %.3f of the draws, above α = %.2f", p.name, n, rate, Alpha)
			}
			if p.exact && rate < Alpha-mcErr {
				t.Errorf("%s at n = %d: supports in %.3f of the draws under the boundary null, far below α (an exact test)", p.name, n, rate)
			}
		}
	}
	// Power: a method twice as fast, 20 paired draws; a mean one standard deviation above 0.
	rng := rand.New(rand.NewPCG(7, 31))
	if rate := supportRate(rng, func(rng *rand.Rand) Test {
		a, b := lognormalPair(rng, 20, 0.5)
		return RatioBelow("", a, b, true, 1)
	}); rate < 0.99 {
		t.Errorf("RatioBelow detects a ratio of 0.5 over 20 paired draws in only %.3f of the draws", rate)
	}
	if rate := supportRate(rng, func(rng *rand.Rand) Test {
		x, y1, y2 := slopePair(rng, 20, -5, -5)
		return SlopeRatioWithin("", x, y1, x, y2, 1.25)
	}); rate < 0.99 {
		t.Errorf("SlopeRatioWithin finds equal slopes of −5 over 20 points within [0.8, 1.25] in only %.3f of the draws", rate)
	}
	if rate := supportRate(rng, func(rng *rand.Rand) Test { return MeanAbove("", normals(rng, 20, 1, 1), 0) }); rate < 0.99 {
		t.Errorf("MeanAbove detects a mean of 1 sd over 20 draws in only %.3f of the draws", rate)
	}
}
