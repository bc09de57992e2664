package verdict

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// tSummary is a sample's mean, its standard error and the Student t distribution of the
// standardised mean (n − 1 degrees of freedom).
type tSummary struct {
	mean, se float64
	n        int
	t        distuv.StudentsT
	reason   string
}

// summariseT checks the sample (at least 2 finite values) and summarises it.
func summariseT(d []float64) tSummary {
	s := tSummary{n: len(d)}
	for _, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			s.reason = "a draw is not finite"
			return s
		}
	}
	if len(d) < 2 {
		s.reason = fmt.Sprintf("%d draw(s): at least 2 are needed for a standard error", len(d))
		if len(d) == 1 {
			s.mean = d[0]
		}
		return s
	}
	s.mean = stat.Mean(d, nil)
	s.se = stat.StdDev(d, nil) / math.Sqrt(float64(len(d)))
	s.t = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(d) - 1)}
	return s
}

// upperP is P(mean > c is not true by chance): the one-sided p-value of H0: μ ≤ c against μ > c.
// With a zero standard error the sample decides exactly (0 or 1).
func (s tSummary) upperP(c float64) float64 {
	if s.se == 0 {
		if s.mean > c {
			return 0
		}
		return 1
	}
	return 1 - s.t.CDF((s.mean-c)/s.se)
}

// lowerP is the one-sided p-value of H0: μ ≥ c against μ < c.
func (s tSummary) lowerP(c float64) float64 {
	if s.se == 0 {
		if s.mean < c {
			return 0
		}
		return 1
	}
	return s.t.CDF((s.mean - c) / s.se)
}

// interval is the two-sided 1 − 2·Alpha interval of the mean.
func (s tSummary) interval() (lo, hi float64) {
	if s.se == 0 {
		return s.mean, s.mean
	}
	q := s.t.Quantile(1 - Alpha)
	return s.mean - q*s.se, s.mean + q*s.se
}

func (s tSummary) test(label string) Test {
	if s.reason != "" {
		t := Premise(label, s.reason)
		t.N = s.n
		return t
	}
	lo, hi := s.interval()
	return Test{Label: label, Estimate: s.mean, Lo: lo, Hi: hi, N: s.n}
}

// MeanAbove tests the claim "the mean of d is above c" with a one-sided Student t test (d are
// independent draws, e.g. paired differences a − b over repetitions, each repetition drawing its
// data once for every method): supported if H0: μ ≤ c is rejected at Alpha, contradicted if
// H0: μ ≥ c is, inconclusive otherwise. Fewer than two draws, or a non-finite one, give an
// inconclusive test saying so.
func MeanAbove(label string, d []float64, c float64) Test { return meanTest(label, d, c, true) }

// MeanBelow tests the claim "the mean of d is below c"; see [MeanAbove].
func MeanBelow(label string, d []float64, c float64) Test { return meanTest(label, d, c, false) }

// meanTest is MeanAbove (above) or MeanBelow.
func meanTest(label string, d []float64, c float64, above bool) Test {
	if math.IsNaN(c) {
		return Premise(label, "the value to compare the mean with is NaN")
	}
	s := summariseT(d)
	t := s.test(label)
	if t.Reason == "" {
		t.PSupport, t.PContradict = orient(s.upperP(c), s.lowerP(c), above)
	}
	t.Rule = fmt.Sprintf("mean with 90%% t interval; %s", directionRule("%.4g", c, above))
	return t
}

// orient returns (p for, p against) of a claim "above" (up rejects "≤ c") or "below".
func orient(up, down float64, above bool) (float64, float64) {
	if above {
		return up, down
	}
	return down, up
}

// directionRule is the decision rule of a one-sided claim in words.
func directionRule(format string, c float64, above bool) string {
	if above {
		return fmt.Sprintf("supported if above "+format+", contradicted if below", c)
	}
	return fmt.Sprintf("supported if below "+format+", contradicted if above", c)
}

// Equivalent tests the claim "the mean of d lies within ±margin of 0" (d: paired differences) by
// two one-sided t tests (TOST): supported when the whole 90% interval lies inside (−margin,
// margin), contradicted when the mean is shown to lie outside (the one-sided test beyond the
// nearer edge rejects at Alpha/2 on either side), inconclusive otherwise. The margin must be fixed
// from the claim's words before looking at the data.
func Equivalent(label string, d []float64, margin float64) Test {
	if !(margin >= 0) {
		return Premise(label, fmt.Sprintf("the equivalence margin %g is not ≥ 0", margin))
	}
	s := summariseT(d)
	t := s.test(label)
	if t.Reason == "" {
		t.PSupport = math.Max(s.upperP(-margin), s.lowerP(margin))
		t.PContradict = math.Min(1, 2*math.Min(s.upperP(margin), s.lowerP(-margin)))
	}
	t.Rule = fmt.Sprintf("TOST, margin ±%.4g; supported if the interval lies inside, contradicted if the mean lies outside", margin)
	return t
}
