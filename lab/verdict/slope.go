package verdict

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// slopeFit is a least-squares line through (x, y) with the standard error of its slope.
type slopeFit struct {
	slope, se float64
	df        int
	reason    string
}

// fitSlope fits y = a + b·x by least squares (gonum stat.LinearRegression) over every draw, so the
// slope's standard error, √(RSS/(n − 2) / Σ(x − x̄)²), reflects the spread between draws.
func fitSlope(x, y []float64) slopeFit {
	if len(x) != len(y) {
		return slopeFit{reason: fmt.Sprintf("%d x against %d y values", len(x), len(y))}
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) || math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return slopeFit{reason: "a point is not finite"}
		}
	}
	if len(x) < 3 {
		return slopeFit{reason: fmt.Sprintf("%d points: at least 3 are needed for the slope's standard error", len(x))}
	}
	xm := stat.Mean(x, nil)
	var sxx float64
	for _, v := range x {
		sxx += (v - xm) * (v - xm)
	}
	if sxx == 0 {
		return slopeFit{reason: "every point has the same x"}
	}
	a, b := stat.LinearRegression(x, y, nil, false)
	var rss float64
	for i := range x {
		r := y[i] - a - b*x[i]
		rss += r * r
	}
	df := len(x) - 2
	return slopeFit{slope: b, se: math.Sqrt(rss / float64(df) / sxx), df: df}
}

// slopeTest turns an estimate with standard error se on df degrees of freedom into a test of
// "estimate above c" (above) or "below c".
func slopeTest(label string, est, se float64, df int, c float64, above bool) Test {
	t := Test{Label: label, Estimate: est, N: df + 2}
	if se == 0 {
		t.Lo, t.Hi = est, est
		up, down := 1.0, 1.0
		if est > c {
			up = 0
		} else if est < c {
			down = 0
		}
		t.PSupport, t.PContradict = orient(up, down, above)
		return t
	}
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}
	q := dist.Quantile(1 - Alpha)
	t.Lo, t.Hi = est-q*se, est+q*se
	t.PSupport, t.PContradict = orient(1-dist.CDF((est-c)/se), dist.CDF((est-c)/se), above)
	return t
}

// SlopeAbove tests the claim "y grows with x at a slope above c" (for a power law, x and y are
// logarithms and c the exponent) by a one-sided t test on the least-squares slope over every draw:
// supported if the slope is significantly above c, contradicted if significantly below.
func SlopeAbove(label string, x, y []float64, c float64) Test {
	return slopeClaim(label, x, y, c, true)
}

// SlopeBelow tests the claim "the slope of y against x is below c"; see [SlopeAbove].
func SlopeBelow(label string, x, y []float64, c float64) Test {
	return slopeClaim(label, x, y, c, false)
}

// slopeClaim is SlopeAbove (above) or SlopeBelow.
func slopeClaim(label string, x, y []float64, c float64, above bool) Test {
	f := fitSlope(x, y)
	if f.reason != "" {
		return Premise(label, f.reason)
	}
	t := slopeTest(label, f.slope, f.se, f.df, c, above)
	t.Rule = "least-squares slope over every draw, 90% t interval; " + directionRule("%.4g", c, above)
	return t
}

// SlopesEquivalent tests the claim "two curves have the same slope, within ±margin" by two
// one-sided t tests on the difference of their least-squares slopes (independent fits, standard
// error √(se₁² + se₂²), degrees of freedom the smaller of the two: conservative). Supported when
// the difference's 90% interval lies inside (−margin, margin), contradicted when the difference
// is shown to lie outside. Callers check first that the slopes mean something (e.g. both curves
// do converge): a claim of equal speed between two curves that do not move is not supported by
// equal slopes of zero.
func SlopesEquivalent(label string, x1, y1, x2, y2 []float64, margin float64) Test {
	f1, f2 := fitSlope(x1, y1), fitSlope(x2, y2)
	if f1.reason != "" || f2.reason != "" {
		return Premise(label, "slopes cannot be fitted: "+f1.reason+f2.reason)
	}
	d := f1.slope - f2.slope
	se := math.Hypot(f1.se, f2.se)
	df := min(f1.df, f2.df)
	t := Test{Label: label, Estimate: d, N: df + 2,
		Rule: fmt.Sprintf("difference of least-squares slopes (%.4g and %.4g), TOST, margin ±%.4g", f1.slope, f2.slope, margin)}
	if se == 0 {
		t.Lo, t.Hi = d, d
		t.PSupport, t.PContradict = 1, 1
		if math.Abs(d) < margin {
			t.PSupport = 0
		} else if math.Abs(d) > margin {
			t.PContradict = 0
		}
		return t
	}
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}
	q := dist.Quantile(1 - Alpha)
	t.Lo, t.Hi = d-q*se, d+q*se
	t.PSupport = math.Max(1-dist.CDF((d+margin)/se), dist.CDF((d-margin)/se))
	t.PContradict = math.Min(1, 2*math.Min(1-dist.CDF((d-margin)/se), dist.CDF((d+margin)/se)))
	return t
}

// SlopeRatioWithin tests the claim "two curves have the same slope up to a factor f either way":
// the ratio β₁/β₂ of their least-squares slopes lies within (1/f, f), f > 1. It is the relative
// form of SlopesEquivalent, for slopes whose size a fixed ±margin would not respect (a margin of
// 0.25 between slopes of −0.17 lets any two converging curves pass). The test is Fieller's: for
// β₂ of sign s, "β₁/β₂ > c" is the linear claim s·(β₁ − c·β₂) > 0, whose estimate b₁ − c·b₂ has
// standard error √(se₁² + c²·se₂²) (independent fits) and, conservatively, the smaller of the two
// fits' degrees of freedom. Two one-sided t tests at c = 1/f and c = f (TOST) support the claim
// when both reject, which is when Fieller's 90% interval of the ratio lies inside (1/f, f);
// contradicted when the one-sided test beyond the nearer edge rejects at Alpha/2 (the ratio is
// shown outside), inconclusive otherwise. The sign s is that of b₂; when b₂ is not significantly
// different from 0 (|b₂|/se₂ at most the one-sided t quantile) the ratio's interval is unbounded
// and the test is inconclusive, saying so. The estimate is b₁/b₂ with Fieller's interval. Callers
// check first that the slopes mean something (e.g. both curves do converge).
func SlopeRatioWithin(label string, x1, y1, x2, y2 []float64, f float64) Test {
	f1, f2 := fitSlope(x1, y1), fitSlope(x2, y2)
	if f1.reason != "" || f2.reason != "" {
		return Premise(label, "slopes cannot be fitted: "+f1.reason+f2.reason)
	}
	if !(f > 1) || math.IsInf(f, 0) {
		return Premise(label, fmt.Sprintf("a factor %g cannot bound a ratio: it must be finite and above 1", f))
	}
	df := min(f1.df, f2.df)
	t := Test{Label: label, Estimate: f1.slope / f2.slope, N: df + 2, Format: "%.3g",
		Rule: fmt.Sprintf("ratio of least-squares slopes (%.4g / %.4g), Fieller TOST on b₁ − c·b₂ at c = 1/%.3g and %.3g; supported if its 90%% interval lies inside [1/%.3g, %.3g], contradicted if the ratio is shown outside",
			f1.slope, f2.slope, f, f, f, f)}
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}
	q := dist.Quantile(1 - Alpha)
	b1, b2, se1, se2 := f1.slope, f2.slope, f1.se, f2.se
	if !(math.Abs(b2) > q*se2) {
		p := Premise(label, fmt.Sprintf("the second slope %.4g (se %.3g) is not significantly different from 0, so the ratio's interval is unbounded", b2, se2))
		p.N = df + 2
		return p
	}
	s := math.Copysign(1, b2)
	if se1 == 0 && se2 == 0 {
		r := b1 / b2
		t.Lo, t.Hi = r, r
		t.PSupport, t.PContradict = 1, 1
		if r > 1/f && r < f {
			t.PSupport = 0
		} else if r < 1/f || r > f {
			t.PContradict = 0
		}
		return t
	}
	// z(c) > 0 is evidence that the ratio exceeds c.
	z := func(c float64) float64 { return s * (b1 - c*b2) / math.Sqrt(se1*se1+c*c*se2*se2) }
	zl, zu := z(1/f), z(f)
	t.PSupport = math.Max(1-dist.CDF(zl), dist.CDF(zu))
	t.PContradict = math.Min(1, 2*math.Min(dist.CDF(zl), 1-dist.CDF(zu)))
	t.Lo, t.Hi = fiellerInterval(b1, b2, se1, se2, q)
	return t
}

// fiellerInterval is the set of ratios c with |b₁ − c·b₂| ≤ q·√(se₁² + c²·se₂²), the roots of
// (b₂² − q²se₂²)c² − 2b₁b₂c + b₁² − q²se₁² = 0; bounded because |b₂| > q·se₂ (the caller's check).
func fiellerInterval(b1, b2, se1, se2, q float64) (lo, hi float64) {
	a := b2*b2 - q*q*se2*se2
	half := math.Sqrt(q * q * (b1*b1*se2*se2 + se1*se1*a))
	return (b1*b2 - half) / a, (b1*b2 + half) / a
}
