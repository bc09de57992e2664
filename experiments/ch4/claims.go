package ch4

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// drawKey identifies one draw: its batch (the row's repetition), its index in the batch and n.
type drawKey struct {
	rep, draw int
	n         float64
}

// nRange is the sample sizes a claim speaks of, with their description in the evidence.
type nRange struct {
	keep func(n float64) bool
	text string
}

// The sample-size ranges of the claims.
func everyN() nRange { return nRange{func(float64) bool { return true }, "over every n"} }

func atN(n float64) nRange {
	return nRange{func(x float64) bool { return x == n }, fmt.Sprintf("at n = %g", n)}
}

func fromN(lo float64) nRange {
	return nRange{func(x float64) bool { return x >= lo }, fmt.Sprintf("at n ≥ %g", lo)}
}

func uptoN(hi float64) nRange {
	return nRange{func(x float64) bool { return x <= hi }, fmt.Sprintf("at n ≤ %g", hi)}
}

// nInSet is the range of the sample sizes ns, described as text.
func nInSet(ns []float64, text string) nRange {
	return nRange{func(x float64) bool { return slices.Contains(ns, x) }, text}
}

// drawValues returns method's values of metric by draw, at the n that r keeps. A draw recorded
// twice is an error.
func drawValues(res *run.Results, dataset, method, metric string, r nRange) (map[drawKey]float64, error) {
	out := map[drawKey]float64{}
	for _, row := range res.Where(dataset, method, metric) {
		n, err := row.ParamFloat("n")
		if err != nil {
			return nil, err
		}
		if !r.keep(n) {
			continue
		}
		draw, err := row.ParamFloat("draw")
		if err != nil {
			return nil, err
		}
		k := drawKey{rep: row.Rep, draw: int(draw), n: n}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s: %s %s: draw %d of batch %d at n = %g appears twice", res.ID, method, metric, k.draw, k.rep, n)
		}
		out[k] = row.Value
	}
	return out, nil
}

// sortedDrawKeys returns the draws of v ordered by n, batch and draw.
func sortedDrawKeys(v map[drawKey]float64) []drawKey {
	keys := make([]drawKey, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b drawKey) int {
		return cmp.Or(cmp.Compare(a.n, b.n), cmp.Compare(a.rep, b.rep), cmp.Compare(a.draw, b.draw))
	})
	return keys
}

// pairedDraws returns the values of metric for methods a and b on the same draws, at the n that r
// keeps, in the order of sortedDrawKeys. The two methods must have measured exactly the same draws: an
// unpaired comparison must not pass for a paired one.
func pairedDraws(res *run.Results, dataset, metric, a, b string, r nRange) ([]float64, []float64, error) {
	va, err := drawValues(res, dataset, a, metric, r)
	if err != nil {
		return nil, nil, err
	}
	vb, err := drawValues(res, dataset, b, metric, r)
	if err != nil {
		return nil, nil, err
	}
	if len(va) != len(vb) {
		return nil, nil, fmt.Errorf("%s: %s: %d draws of %s against %d of %s %s", res.ID, metric, len(va), a, len(vb), b, r.text)
	}
	keys := sortedDrawKeys(va)
	xa, xb := make([]float64, len(keys)), make([]float64, len(keys))
	for i, k := range keys {
		v, ok := vb[k]
		if !ok {
			return nil, nil, fmt.Errorf("%s: %s: draw %d of batch %d at n = %g has %s but not %s", res.ID, metric, k.draw, k.rep, k.n, a, b)
		}
		xa[i], xb[i] = va[k], v
	}
	return xa, xb, nil
}

// ns returns the sample sizes at which method has rows of metric, in increasing order.
func ns(res *run.Results, dataset, method, metric string) ([]float64, error) {
	var ns []float64
	for _, row := range res.Where(dataset, method, metric) {
		n, err := row.ParamFloat("n")
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return nil, fmt.Errorf("%s: no %s rows for %s on %s", res.ID, metric, method, dataset)
	}
	slices.Sort(ns)
	return ns, nil
}

// largestN is the largest n at which method has rows of metric.
func largestN(res *run.Results, dataset, method, metric string) (float64, error) {
	ns, err := ns(res, dataset, method, metric)
	if err != nil {
		return 0, err
	}
	return ns[len(ns)-1], nil
}

// ranAt is the range of the sample sizes at which method decided.
func ranAt(res *run.Results, dataset, method string) (nRange, error) {
	ns, err := ns(res, dataset, method, metricWrong)
	if err != nil {
		return nRange{}, err
	}
	return nInSet(ns, fmt.Sprintf("at n = %s (where %s ran)", kit.FormatFloats(ns), method)), nil
}

// drawErrorCount returns the errors and the decisions of method at the n that r keeps.
func drawErrorCount(res *run.Results, dataset, method string, r nRange) (k, n int, err error) {
	v, err := drawValues(res, dataset, method, metricWrong, r)
	if err != nil {
		return 0, 0, err
	}
	for _, w := range v {
		if w != 0 {
			k++
		}
	}
	return k, len(v), nil
}

// beatsChance tests "method does better than chance" at the n that r keeps: its error rate is
// below 1/2 (exact binomial test).
func beatsChance(res *run.Results, dataset, method string, r nRange) (verdict.Test, error) {
	k, n, err := drawErrorCount(res, dataset, method, r)
	if err != nil {
		return verdict.Test{}, err
	}
	return verdict.RateBelow(fmt.Sprintf("%s error rate %s vs 1/2", method, r.text), k, n, 0.5), nil
}

// noError tests "method makes no error" at the n that r keeps: its error rate is below noErrorRate
// (exact binomial test).
func noError(res *run.Results, dataset, method string, r nRange) (verdict.Test, error) {
	k, n, err := drawErrorCount(res, dataset, method, r)
	if err != nil {
		return verdict.Test{}, err
	}
	return verdict.RateBelow(fmt.Sprintf("%s error rate %s", method, r.text), k, n, noErrorRate), nil
}

// fewerErrors tests "a errs less often than b" by McNemar's exact test on the decisions both made
// on the same draws at the n that r keeps.
func fewerErrors(res *run.Results, dataset, a, b string, r nRange) (verdict.Test, error) {
	wa, wb, err := pairedDraws(res, dataset, metricWrong, a, b, r)
	if err != nil {
		return verdict.Test{}, err
	}
	ba, bb := make([]bool, len(wa)), make([]bool, len(wb))
	for i := range wa {
		ba[i], bb[i] = wa[i] != 0, wb[i] != 0
	}
	return verdict.FewerErrors(fmt.Sprintf("%s − %s error rate %s", a, b, r.text), ba, bb), nil
}

// separationPremise tests the premise of a ranking of error rates at the n that r keeps: that the
// reference separates P_X from P_Z at all. The reference is the exact MMD where it ran there,
// otherwise the compared method with the fewest errors. ok reports whether the premise holds.
func separationPremise(res *run.Results, dataset string, compared []string, r nRange) (t verdict.Test, ok bool, err error) {
	ref := "exact"
	k, n, err := drawErrorCount(res, dataset, ref, r)
	if err != nil {
		return verdict.Test{}, false, err
	}
	if n == 0 {
		best := math.Inf(1)
		for _, m := range compared {
			km, nm, err := drawErrorCount(res, dataset, m, r)
			if err != nil {
				return verdict.Test{}, false, err
			}
			if nm > 0 && float64(km)/float64(nm) < best {
				ref, k, n, best = m, km, nm, float64(km)/float64(nm)
			}
		}
	}
	t = verdict.RateBelow(fmt.Sprintf("premise: %s error rate %s vs 1/2", ref, r.text), k, n, 0.5)
	return t, t.Outcome() == verdict.Supported, nil
}

// noSeparation is the verdict of a ranking whose premise fails.
func noSeparation(premise verdict.Test, notes ...string) verdict.Verdict {
	return verdict.Decide([]verdict.Test{verdict.Premise("ranking of error rates",
		"its premise does not hold: the reference method does not separate P_X from P_Z here, so every method may be at chance and a ranking says nothing")},
		append([]string{premise.String()}, notes...)...)
}

// deltaBelow tests "better converges faster than worse", Δ being what the thesis calls the speed
// of convergence: the mean over the draws with the exact MMD² (at the n that r keeps) of
// log(Δ_better / Δ_worse) is below 0.
func deltaBelow(res *run.Results, dataset, better, worse string, r nRange) (verdict.Test, error) {
	a, b, err := pairedDraws(res, dataset, metricDelta, better, worse, r)
	if err != nil {
		return verdict.Test{}, err
	}
	label := fmt.Sprintf("log(Δ %s / Δ %s) %s", better, worse, r.text)
	d := make([]float64, len(a))
	for i := range a {
		if !(a[i] > 0 && b[i] > 0) {
			return verdict.Premise(label, "a Δ is 0: its logarithm does not exist"), nil
		}
		d[i] = math.Log(a[i] / b[i])
	}
	return verdict.MeanBelow(label, d, 0), nil
}

// logDrawPoints returns (log n, log value) of method's metric over every draw at the n that r keeps,
// and whether every value was positive.
func logDrawPoints(res *run.Results, dataset, method, metric string, r nRange) (x, y []float64, positive bool, err error) {
	v, err := drawValues(res, dataset, method, metric, r)
	if err != nil {
		return nil, nil, false, err
	}
	positive = true
	for _, k := range sortedDrawKeys(v) {
		if !(v[k] > 0) {
			positive = false
			continue
		}
		x, y = append(x, math.Log(k.n)), append(y, math.Log(v[k]))
	}
	return x, y, positive, nil
}

// sameConvergence tests "a and b converge to the exact MMD² at the same speed": both converge (the
// least-squares slope of log Δ against log n over every draw is below 0), and then the ratio of
// their slopes lies within a factor sameSpeed either way (Fieller TOST, verdict.SlopeRatioWithin).
// It returns the test and, as notes, the two convergence tests; when either curve does not
// converge the test is inconclusive with that reason.
func sameConvergence(res *run.Results, dataset, a, b string) (verdict.Test, []string, error) {
	label := fmt.Sprintf("slope of log Δ: %s / %s", a, b)
	var xs, ys [2][]float64
	var notes []string
	converge := true
	for i, m := range []string{a, b} {
		x, y, positive, err := logDrawPoints(res, dataset, m, metricDelta, everyN())
		if err != nil {
			return verdict.Test{}, nil, err
		}
		if !positive {
			return verdict.Premise(label, fmt.Sprintf("a Δ of %s is 0: its logarithm does not exist", m)), nil, nil
		}
		t := verdict.SlopeBelow(fmt.Sprintf("%s converges: slope of log Δ vs log n", m), x, y, 0)
		notes = append(notes, t.String())
		converge = converge && t.Outcome() == verdict.Supported
		xs[i], ys[i] = x, y
	}
	if !converge {
		return verdict.Premise(label, fmt.Sprintf("%s and %s do not both converge (slope of log Δ significantly below 0), so equal slopes would say nothing", a, b)), notes, nil
	}
	return verdict.SlopeRatioWithin(label, xs[0], ys[0], xs[1], ys[1], sameSpeed), notes, nil
}

// timeRatio tests the ratio of the times of a and b on the same timed draws at n, as order says,
// against the one practical margin of timing claims, verdict.TimeMargin (verdict.TimeOrder).
func timeRatio(res *run.Results, dataset, a, b string, n float64, order verdict.TimeOrder) (verdict.Test, error) {
	ta, tb, err := pairedDraws(res, dataset, metricSeconds, a, b, atN(n))
	if err != nil {
		return verdict.Test{}, err
	}
	return order.Test(fmt.Sprintf("time %s / %s at n = %g", a, b, n), ta, tb, true), nil
}

// claimFewestErrors is the claim that best makes fewer errors than each of others on the same
// decisions at the n of r (McNemar, a family), provided the reference separates there.
func claimFewestErrors(id, text, dataset, best string, others []string, r func(*run.Results) (nRange, error)) run.Claim {
	return run.Claim{ID: id, Kind: run.Finding, Text: text,
		Rule: fmt.Sprintf("McNemar's exact test of %s against each of %s on the same decisions, Holm over the family; supported if %s errs alone significantly less often than every other, contradicted if significantly more often than one; premise: the exact MMD (where it ran, else the compared method with the fewest errors) has an error rate below 1/2 (exact binomial), else INCONCLUSIVE",
			best, strings.Join(others, ", "), best),
		Check: func(res *run.Results) (verdict.Verdict, error) {
			rng, err := r(res)
			if err != nil {
				return verdict.Verdict{}, err
			}
			premise, ok, err := separationPremise(res, dataset, append([]string{best}, others...), rng)
			if err != nil {
				return verdict.Verdict{}, err
			}
			if !ok {
				return noSeparation(premise), nil
			}
			tests := make([]verdict.Test, len(others))
			for i, o := range others {
				if tests[i], err = fewerErrors(res, dataset, best, o, rng); err != nil {
					return verdict.Verdict{}, err
				}
			}
			return verdict.Decide(tests, premise.String()), nil
		}}
}

// fixedRange adapts a range that does not depend on the results to claimFewestErrors.
func fixedRange(r nRange) func(*run.Results) (nRange, error) {
	return func(*run.Results) (nRange, error) { return r, nil }
}

// claimExactFewest is the claim that the exact MMD makes fewer errors than every approximation, on
// the draws where it ran.
func claimExactFewest(id, dataset string, approximations []string) run.Claim {
	return claimFewestErrors(id, "the exact MMD makes the fewest errors: fewer than every approximation on the draws where it ran",
		dataset, "exact", approximations, func(res *run.Results) (nRange, error) { return ranAt(res, dataset, "exact") })
}

// claimSameConvergence is the claim that a and b converge to the exact MMD² at the same speed.
func claimSameConvergence(id, text, dataset, a, b string) run.Claim {
	return run.Claim{ID: id, Kind: run.Finding, Text: text,
		Rule: fmt.Sprintf("least-squares slopes of log Δ against log n over every draw with the exact MMD²; premise: both slopes significantly below 0 (both converge), else INCONCLUSIVE; then %s", sameSpeedRule),
		Check: func(res *run.Results) (verdict.Verdict, error) {
			t, notes, err := sameConvergence(res, dataset, a, b)
			if err != nil {
				return verdict.Verdict{}, err
			}
			return verdict.Decide([]verdict.Test{t}, notes...), nil
		}}
}

// sameSpeedRule says how sameConvergence decides "the same speed" once both curves converge.
var sameSpeedRule = fmt.Sprintf("supported if the ratio of the two slopes lies within [1/%g, %g] (Fieller's 90%% interval inside: TOST on the linear combinations b₁ − c·b₂ at both edges, standard errors of the two independent fits), contradicted if it is shown outside; the factor %g is the project's 'close' margin, relative because the slopes can be as small as −0.1 (the thesis gives no number)",
	sameSpeed, sameSpeed, sameSpeed)

// checkDeltaBelow is the family "every method of better converges faster than every method of
// worse" (deltaBelow over every draw with the exact MMD²).
func checkDeltaBelow(dataset string, better, worse []string) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		var tests []verdict.Test
		for _, b := range better {
			for _, w := range worse {
				t, err := deltaBelow(res, dataset, b, w, everyN())
				if err != nil {
					return verdict.Verdict{}, err
				}
				tests = append(tests, t)
			}
		}
		return verdict.Decide(tests), nil
	}
}

// deltaRule is the Rule of the claims decided by checkDeltaBelow.
const deltaRule = "Δ is what the thesis calls the speed of convergence (§4.6.1): for each pair, the mean over every draw with the exact MMD² of the paired log(Δ_a / Δ_b), 90% t interval; supported if below 0 for every pair (Holm), contradicted if above 0 for one"

// timeOrder is one comparison of a time claim: a against b.
type timeOrder struct {
	a, b string
	kind verdict.TimeOrder
}

// checkTimes decides a family of time comparisons at the largest n where ref was timed.
func checkTimes(dataset, ref string, orders []timeOrder) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		n, err := largestN(res, dataset, ref, metricSeconds)
		if err != nil {
			return verdict.Verdict{}, err
		}
		tests := make([]verdict.Test, len(orders))
		for i, o := range orders {
			if tests[i], err = timeRatio(res, dataset, o.a, o.b, n, o.kind); err != nil {
				return verdict.Verdict{}, err
			}
		}
		return verdict.Decide(tests), nil
	}
}

// timeRule is the Rule of the claims decided by checkTimes.
var timeRule = fmt.Sprintf("at the largest n timed, the geometric-mean ratio of times a/b (each draw timed by run.TimeMedian for every method), t test on log ratios paired by draw with 90%% interval, against the one practical margin of every timing claim, a factor %g (verdict.TimeMargin: the smallest difference a reader sees on the log time axis, the project's 'close' margin [0.8, 1.25]; the thesis gives none): 'a faster than b' supported if the ratio is below 1/%g = %g, contradicted if above; 'similar' supported if its interval lies inside [1/%g, %g], contradicted if the ratio is shown outside; Holm over the family",
	verdict.TimeMargin, verdict.TimeMargin, 1/verdict.TimeMargin, verdict.TimeMargin, verdict.TimeMargin)
