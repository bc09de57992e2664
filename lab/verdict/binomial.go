package verdict

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// binomialCDF is P(X ≤ k) for X ~ Binomial(n, p), exact (gonum's regularised incomplete beta).
func binomialCDF(k, n int, p float64) float64 {
	if k < 0 {
		return 0
	}
	if k >= n {
		return 1
	}
	return distuv.Binomial{N: float64(n), P: p}.CDF(float64(k))
}

// clopperPearson is the exact two-sided 1 − 2·Alpha interval of a binomial proportion k/n.
func clopperPearson(k, n int) (lo, hi float64) {
	lo, hi = 0, 1
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(Alpha)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - Alpha)
	}
	return lo, hi
}

// Wilson returns the Wilson score interval of a binomial proportion k/n at the two-sided level
// level (0.95 for a 95% interval): unlike the normal (Wald) interval it stays within [0, 1] and
// keeps a width at k = 0 and k = n, so that it can draw the uncertainty of an error rate of 0.
// The figures draw it as a band; the claims' tests use the exact (Clopper–Pearson) interval. It
// returns NaN, NaN for n ≤ 0, k outside [0, n] or a level outside (0, 1).
func Wilson(k, n int, level float64) (lo, hi float64) {
	if n <= 0 || k < 0 || k > n || !(level > 0 && level < 1) {
		return math.NaN(), math.NaN()
	}
	z := distuv.UnitNormal.Quantile((1 + level) / 2)
	nf, p := float64(n), float64(k)/float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}

// rateTest is the common part of RateBelow and RateAbove: the rate k/n with its Clopper–Pearson
// interval, or an inconclusive test, with the reason, when the counts or p0 cannot be tested.
func rateTest(label string, k, n int, p0 float64) (Test, bool) {
	if !(p0 >= 0 && p0 <= 1) {
		return Premise(label, fmt.Sprintf("the rate to compare with, %g, is not a probability in [0, 1]", p0)), false
	}
	if n <= 0 || k < 0 || k > n {
		t := Premise(label, fmt.Sprintf("%d events out of %d decisions cannot be tested", k, n))
		t.N = n
		return t, false
	}
	lo, hi := clopperPearson(k, n)
	return Test{Label: label, Estimate: float64(k) / float64(n), Lo: lo, Hi: hi, N: n}, true
}

// RateBelow tests the claim "the rate of an event is below p0" from k events in n independent
// decisions with exact binomial tests: supported if H0: rate ≥ p0 is rejected (P(X ≤ k) < Alpha),
// contradicted if H0: rate ≤ p0 is (P(X ≥ k) < Alpha). The interval is Clopper–Pearson's.
func RateBelow(label string, k, n int, p0 float64) Test {
	t, ok := rateTest(label, k, n, p0)
	if ok {
		t.PSupport, t.PContradict = binomialCDF(k, n, p0), 1-binomialCDF(k-1, n, p0)
	}
	t.Rule = fmt.Sprintf("exact binomial, Clopper–Pearson interval; supported if below %.4g, contradicted if above", p0)
	return t
}

// RateAbove tests the claim "the rate of an event is above p0"; see [RateBelow].
func RateAbove(label string, k, n int, p0 float64) Test {
	t, ok := rateTest(label, k, n, p0)
	if ok {
		t.PSupport, t.PContradict = 1-binomialCDF(k-1, n, p0), binomialCDF(k, n, p0)
	}
	t.Rule = fmt.Sprintf("exact binomial, Clopper–Pearson interval; supported if above %.4g, contradicted if below", p0)
	return t
}

// FewerErrors tests the claim "method A errs less often than method B" on the same decisions
// (aWrong[i] and bWrong[i] are the two methods' outcomes on decision i) by McNemar's exact test:
// among the discordant decisions, the count where only A errs is Binomial(discordant, 1/2) under
// equal error rates. Supported if A errs alone significantly less often, contradicted if
// significantly more often; with no discordant decision the test is inconclusive. The estimate is
// A's error rate minus B's.
func FewerErrors(label string, aWrong, bWrong []bool) Test {
	if len(aWrong) != len(bWrong) || len(aWrong) == 0 {
		return Premise(label, fmt.Sprintf("%d against %d decisions cannot be paired", len(aWrong), len(bWrong)))
	}
	var onlyA, onlyB, errA, errB int
	for i := range aWrong {
		if aWrong[i] {
			errA++
		}
		if bWrong[i] {
			errB++
		}
		switch {
		case aWrong[i] && !bWrong[i]:
			onlyA++
		case bWrong[i] && !aWrong[i]:
			onlyB++
		}
	}
	n := len(aWrong)
	t := Test{Label: label, Estimate: float64(errA-errB) / float64(n), Lo: math.NaN(), Hi: math.NaN(), N: n,
		Rule: fmt.Sprintf("McNemar exact on %d discordant decisions (%d only A, %d only B); supported if A errs alone less often, contradicted if more", onlyA+onlyB, onlyA, onlyB)}
	disc := onlyA + onlyB
	if disc == 0 {
		t.PSupport, t.PContradict = 1, 1
		return t
	}
	t.PSupport = binomialCDF(onlyA, disc, 0.5)
	t.PContradict = 1 - binomialCDF(onlyA-1, disc, 0.5)
	return t
}
