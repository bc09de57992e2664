package verdict

import (
	"fmt"
	"math"
	"strings"
)

// Alpha is the level of every claim test: a one-sided test rejects at p < Alpha, the intervals
// shown are the matching two-sided 1 − 2·Alpha (90%) intervals, and a claim made over a family
// (every data set, every n) controls the family-wise error at Alpha by Holm's step-down method.
const Alpha = 0.05

// Outcome is what the statistics say of a claim.
type Outcome int

// The outcomes of a claim check.
const (
	// Inconclusive: the data neither support nor contradict the claim at level Alpha, or the
	// claim's premise does not hold at this scale (the evidence says which).
	Inconclusive Outcome = iota
	// Supported: the test whose rejection supports the claim rejects at level Alpha (for a family,
	// every member's does, Holm-adjusted).
	Supported
	// Contradicted: the test whose rejection contradicts the claim rejects at level Alpha (for a
	// family, at least one member's does, Holm-adjusted).
	Contradicted
)

// String is the outcome as the report prints it.
func (o Outcome) String() string {
	switch o {
	case Supported:
		return "SUPPORTED"
	case Contradicted:
		return "CONTRADICTED"
	case Inconclusive:
		return "INCONCLUSIVE"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Verdict is the outcome of a claim check.
type Verdict struct {
	Outcome Outcome
	// Evidence is the numbers behind the verdict: each estimate with its interval (or p-value), the
	// number of draws and the rule in words.
	Evidence string
	// Tests are the members the verdict was decided from, as given to [Decide] (nil for a verdict
	// made without tests, such as [InconclusiveVerdict]): the report reads the deciding p-value
	// ([Verdict.Deciding]) and the members that point against the claim
	// ([Verdict.NearContradictions]) from them.
	Tests []Test
}

// Test is one statistical test behind a claim: a point estimate with its interval and the two
// one-sided p-values that decide it. Build Tests with the helpers of this package ([MeanAbove],
// Equivalent, [RateBelow], [FewerErrors], [SlopeAbove], [RatioBelow], ...) rather than by hand.
type Test struct {
	// Label names what is tested, e.g. "KC1: DAC − recursive accuracy".
	Label string
	// Estimate is the statistic; Lo and Hi its two-sided 1 − 2·Alpha interval (NaN when the test
	// has none); N the number of draws (or decisions) behind it.
	Estimate, Lo, Hi float64
	N                int
	// PSupport is the p-value of the test whose rejection supports the claim, PContradict the
	// p-value of the test whose rejection contradicts it.
	PSupport, PContradict float64
	// Rule says in words what supports and what contradicts, e.g. "supported if the interval lies
	// above 0, contradicted if it lies below 0".
	Rule string
	// Reason, when set, makes the test inconclusive whatever its p-values: a premise that does not
	// hold at this scale, or too few draws.
	Reason string
	// Format prints Estimate, Lo and Hi (default "%.4g").
	Format string
	// Exact marks a test decided without statistics, on a quantity computed exactly by a
	// deterministic procedure (PSupport and PContradict are then 0 or 1): the evidence says so
	// instead of printing draws and p-values.
	Exact bool
}

// Premise is a Test that can only be inconclusive, with the reason: the claim's premise does not
// hold (every method at chance, no method converging) or the data are too few to test it.
func Premise(label, reason string) Test {
	return Test{Label: label, Estimate: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), PSupport: 1, PContradict: 1, Reason: reason}
}

// ExactTest is a test decided without statistics, for a quantity computed exactly by a
// deterministic procedure (a data set's size, the separability of one fixed point set): there is
// no draw to repeat and so no noise; it supports when holds is true and contradicts otherwise.
// rule says what is computed. Use it only where no randomness enters the quantity.
func ExactTest(label string, estimate float64, holds bool, rule string) Test {
	t := Test{Label: label, Estimate: estimate, Lo: math.NaN(), Hi: math.NaN(), N: 1,
		PSupport: 1, PContradict: 0, Rule: rule, Exact: true}
	if holds {
		t.PSupport, t.PContradict = 0, 1
	}
	return t
}

// Outcome decides the test on its own at level Alpha.
func (t Test) Outcome() Outcome {
	switch {
	case t.Reason != "":
		return Inconclusive
	case t.PSupport < Alpha:
		return Supported
	case t.PContradict < Alpha:
		return Contradicted
	}
	return Inconclusive
}

// Brief is the test in short, as a summary line quotes it: the label, the estimate and its
// interval ("KC1: DAC / recursive error: 2.04 [1.71, 2.44]"), or the label and the reason of a
// test that could not be made.
func (t Test) Brief() string {
	f := t.Format
	if f == "" {
		f = "%.4g"
	}
	var b strings.Builder
	b.WriteString(t.Label)
	b.WriteString(": ")
	if t.Reason != "" && math.IsNaN(t.Estimate) {
		b.WriteString("INCONCLUSIVE, " + t.Reason)
		return b.String()
	}
	fmt.Fprintf(&b, f, t.Estimate)
	if !math.IsNaN(t.Lo) || !math.IsNaN(t.Hi) {
		fmt.Fprintf(&b, " [%s, %s]", fmt.Sprintf(f, t.Lo), fmt.Sprintf(f, t.Hi))
	}
	return b.String()
}

// String is the test as evidence: label, estimate, interval, draws, p-values and rule.
func (t Test) String() string {
	var b strings.Builder
	b.WriteString(t.Brief())
	if t.Reason != "" && math.IsNaN(t.Estimate) {
		return b.String()
	}
	if t.Exact {
		b.WriteString(" (exact, no randomness")
	} else {
		fmt.Fprintf(&b, " (%d draws; p = %s for, %s against", t.N, pString(t.PSupport), pString(t.PContradict))
	}
	if t.Rule != "" {
		b.WriteString("; " + t.Rule)
	}
	b.WriteString(")")
	if t.Reason != "" {
		b.WriteString(" INCONCLUSIVE, " + t.Reason)
	}
	return b.String()
}

func pString(p float64) string {
	if p < 1e-4 {
		return "<1e-4"
	}
	return fmt.Sprintf("%.2g", p)
}

// Decide turns tests into a verdict on a claim that must hold for every one of them (every data
// set, every size): Supported when Holm's step-down method rejects every member's support null at
// level Alpha, Contradicted when it rejects at least one member's contradiction null, Inconclusive
// otherwise. One test is decided on its own. The evidence lists each test and, for a family, the
// rule; notes (set-up facts the reader needs) are appended.
func Decide(tests []Test, notes ...string) Verdict {
	if len(tests) == 0 {
		return Verdict{Outcome: Inconclusive, Evidence: "no test could be made"}
	}
	out := familyOutcome(tests)
	parts := make([]string, 0, len(tests)+len(notes)+1)
	for _, t := range tests {
		parts = append(parts, t.String())
	}
	if len(tests) > 1 {
		parts = append(parts, fmt.Sprintf("family of %d tests, Holm at %g: supported only if every test supports, contradicted if any contradicts", len(tests), Alpha))
	}
	parts = append(parts, notes...)
	return Verdict{Outcome: out, Evidence: strings.Join(parts, "; "), Tests: tests}
}

// Deciding is the member test that decided a supported or contradicted verdict, with its p-value
// as the decision used it (Holm-adjusted in a family of several): for a supported claim, the
// member whose adjusted support p-value is the largest (the last to reject); for a contradicted
// one, the member whose adjusted contradiction p-value is the smallest. ok is false, and p NaN,
// for an inconclusive verdict and for one made without tests. A deciding p-value close to Alpha (between
// 0.01 and 0.05, say) marks a fragile verdict: a few more draws could move it.
func (v Verdict) Deciding() (t Test, p float64, ok bool) {
	if len(v.Tests) == 0 || v.Outcome == Inconclusive {
		return Test{}, math.NaN(), false
	}
	ps := make([]float64, len(v.Tests))
	for i, m := range v.Tests {
		ps[i] = m.PSupport
		if v.Outcome == Contradicted {
			ps[i] = m.PContradict
		}
		if m.Reason != "" || math.IsNaN(ps[i]) {
			ps[i] = 1
		}
	}
	adj := Holm(ps)
	best := 0
	for i := range adj {
		if (v.Outcome == Supported && adj[i] > adj[best]) || (v.Outcome == Contradicted && adj[i] < adj[best]) {
			best = i
		}
	}
	return v.Tests[best], adj[best], true
}

// NearContradictions lists the members of an inconclusive family whose own test points against
// the claim with an unadjusted contradiction p-value below level (0.01, say): evidence against
// the claim that the family's Holm decision does not reach, which an INCONCLUSIVE headline would
// otherwise hide. nil for a supported or contradicted verdict, or a single test (which would have
// been decided at Alpha).
func (v Verdict) NearContradictions(level float64) []Test {
	if v.Outcome != Inconclusive || len(v.Tests) < 2 {
		return nil
	}
	var out []Test
	for _, m := range v.Tests {
		if m.Reason == "" && m.PContradict < level {
			out = append(out, m)
		}
	}
	return out
}

// familyOutcome is the Holm decision described at Decide.
func familyOutcome(tests []Test) Outcome {
	if len(tests) == 1 {
		return tests[0].Outcome()
	}
	support := make([]float64, len(tests))
	contra := make([]float64, len(tests))
	for i, t := range tests {
		support[i], contra[i] = t.PSupport, t.PContradict
		if t.Reason != "" {
			support[i], contra[i] = 1, 1
		}
	}
	cAdj := Holm(contra)
	for _, p := range cAdj {
		if p < Alpha {
			return Contradicted
		}
	}
	for _, p := range Holm(support) {
		if !(p < Alpha) {
			return Inconclusive
		}
	}
	return Supported
}

// InconclusiveVerdict is an inconclusive verdict with its reason, for a claim whose premise fails
// before any test can be made.
func InconclusiveVerdict(reason string) Verdict {
	return Verdict{Outcome: Inconclusive, Evidence: reason}
}
