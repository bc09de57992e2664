package verdict

import (
	"math"
	"strings"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g (±%g)", what, got, want, tol)
	}
}

// One-to-ten has mean 5.5 and standard error 3.0276504/√10 = 0.9574271; with 9 degrees of freedom
// the one-sided 5% point of Student's t is 1.8331129 (every statistics table), so testing
// "mean above 5.5 − 1.8331129·0.9574271" gives p = 0.05 exactly and that value as the lower end of
// the 90% interval.
func TestMeanTestsAgainstTables(t *testing.T) {
	d := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	c := 5.5 - 1.8331129*0.9574271
	m := MeanAbove("x", d, c)
	near(t, "p for", m.PSupport, 0.05, 1e-6)
	near(t, "p against", m.PContradict, 0.95, 1e-6)
	near(t, "lower end", m.Lo, c, 1e-6)
	near(t, "upper end", m.Hi, 11-c, 1e-6)
	if m.N != 10 || m.Outcome() != Inconclusive {
		t.Errorf("N %d outcome %v", m.N, m.Outcome())
	}
	// t = 2 on 5 degrees of freedom: P(T > 2) = 0.0509697 (scipy.stats.t.sf(2, 5)).
	// Sample 0, 0, 0, 0, 0, 6·k: mean k, sd √6·k... choose values whose t is exactly 2 instead:
	// d = mean + se·√n·z with z standardised so that mean/se = 2.
	z := []float64{-1, -1, -1, 1, 1, 1}
	sd := math.Sqrt(6.0 / 5.0)
	se := sd / math.Sqrt(6)
	for i := range z {
		z[i] += 2 * se
	}
	near(t, "P(T5 > 2)", MeanAbove("x", z, 0).PSupport, 0.0509697, 1e-6)
	near(t, "P(T5 < 2)", MeanBelow("x", z, 0).PSupport, 1-0.0509697, 1e-6)
	if got := MeanBelow("x", []float64{-3, -2.9, -3.1}, 0).Outcome(); got != Supported {
		t.Errorf("clearly below: %v", got)
	}
	if got := MeanBelow("x", []float64{3, 2.9, 3.1}, 0).Outcome(); got != Contradicted {
		t.Errorf("clearly above: %v", got)
	}
	for _, bad := range [][]float64{nil, {1}, {1, math.NaN()}, {math.Inf(1), 1, 2}} {
		if m := MeanAbove("x", bad, 0); m.Outcome() != Inconclusive || m.Reason == "" {
			t.Errorf("%v: %+v", bad, m)
		}
	}
	// Identical draws decide exactly.
	if MeanAbove("x", []float64{1, 1, 1}, 0).Outcome() != Supported || MeanAbove("x", []float64{0, 0}, 0).Outcome() != Inconclusive {
		t.Error("zero standard error")
	}
}

func TestEquivalentDrivesEachOutcome(t *testing.T) {
	for _, tc := range []struct {
		d    []float64
		want Outcome
	}{
		{[]float64{0.01, -0.01, 0.02, 0, -0.02}, Supported},
		{[]float64{5.1, 4.9, 5, 5.2, 4.8}, Contradicted},
		{[]float64{-5.1, -4.9, -5, -5.2, -4.8}, Contradicted},
		{[]float64{3, -3, 2, -2, 0.5}, Inconclusive},
		{[]float64{0.9, 0.95, 1.05, 1.1, 1}, Inconclusive},
	} {
		if got := Equivalent("x", tc.d, 1).Outcome(); got != tc.want {
			t.Errorf("%v: %v, want %v (%s)", tc.d, got, tc.want, Equivalent("x", tc.d, 1))
		}
	}
}

// Exact binomial values by hand: P(X ≤ 1 | n = 10, p = 1/2) = 11/1024. Clopper–Pearson's ends for
// 0 and n events have closed forms: 1 − α^(1/n) and α^(1/n).
func TestBinomialTests(t *testing.T) {
	r := RateBelow("x", 1, 10, 0.5)
	near(t, "P(X ≤ 1)", r.PSupport, 11.0/1024, 1e-12)
	near(t, "P(X ≥ 1)", r.PContradict, 1-1.0/1024, 1e-12)
	if r.Outcome() != Supported {
		t.Errorf("1 of 10 below 1/2: %v", r.Outcome())
	}
	z := RateBelow("x", 0, 10, 0.5)
	near(t, "upper end for 0/10", z.Hi, 1-math.Pow(0.05, 0.1), 1e-9)
	all := RateAbove("x", 10, 10, 0.5)
	near(t, "lower end for 10/10", all.Lo, math.Pow(0.05, 0.1), 1e-9)
	near(t, "P(X ≥ 10)", all.PSupport, 1.0/1024, 1e-12)
	if RateAbove("x", 1, 10, 0.5).Outcome() != Contradicted || RateBelow("x", 5, 10, 0.5).Outcome() != Inconclusive {
		t.Error("rate outcomes")
	}
	for _, bad := range [][2]int{{0, 0}, {-1, 3}, {4, 3}} {
		if RateBelow("x", bad[0], bad[1], 0.5).Reason == "" {
			t.Errorf("%v accepted", bad)
		}
	}
}

// A threshold that is no number (or no probability) makes every test inconclusive with the
// reason, and no p-value NaN (issue 34: NaN p-values, and a panic in gonum's beta function for a
// rate outside [0, 1]).
func TestBadThresholdsAreInconclusive(t *testing.T) {
	d := []float64{1, 2, 3, 4}
	for name, tc := range map[string]Test{
		"RateBelow p0 = NaN":   RateBelow("x", 2, 10, math.NaN()),
		"RateAbove p0 = -1":    RateAbove("x", 2, 10, -1),
		"RateBelow p0 = +Inf":  RateBelow("x", 2, 10, math.Inf(1)),
		"MeanAbove c = NaN":    MeanAbove("x", d, math.NaN()),
		"MeanBelow c = NaN":    MeanBelow("x", d, math.NaN()),
		"Equivalent margin -1": Equivalent("x", d, -1),
		"Equivalent NaN":       Equivalent("x", d, math.NaN()),
	} {
		if tc.Outcome() != Inconclusive || tc.Reason == "" || math.IsNaN(tc.PSupport) || math.IsNaN(tc.PContradict) {
			t.Errorf("%s: outcome %v, reason %q, p %g / %g; want inconclusive with a reason and numeric p", name, tc.Outcome(), tc.Reason, tc.PSupport, tc.PContradict)
		}
	}
}

func TestFewerErrorsIsMcNemar(t *testing.T) {
	// A alone wrong on 1 decision, B alone wrong on 9, both wrong on 5, both right on 85.
	var a, b []bool
	add := func(k int, x, y bool) {
		for range k {
			a, b = append(a, x), append(b, y)
		}
	}
	add(1, true, false)
	add(9, false, true)
	add(5, true, true)
	add(85, false, false)
	m := FewerErrors("x", a, b)
	near(t, "p for", m.PSupport, 11.0/1024, 1e-12)
	near(t, "estimate", m.Estimate, (6.0-14)/100, 1e-12)
	if m.Outcome() != Supported || FewerErrors("x", b, a).Outcome() != Contradicted {
		t.Errorf("outcomes %v %v", m.Outcome(), FewerErrors("x", b, a).Outcome())
	}
	if FewerErrors("x", []bool{true, false}, []bool{true, false}).Outcome() != Inconclusive {
		t.Error("no discordant pair")
	}
	if FewerErrors("x", []bool{true}, nil).Reason == "" {
		t.Error("unpaired accepted")
	}
}

// y = 1 + 2x plus residuals (1, −1, −1, 1) orthogonal to 1 and x: slope 2 exactly, RSS 4 on 2
// degrees of freedom, Σ(x − x̄)² = 5, so se = √0.4; t(0.95, 2) = 2.9199856.
func TestSlopeAgainstClosedForm(t *testing.T) {
	x := []float64{0, 1, 2, 3}
	y := []float64{2, 2, 4, 8}
	s := SlopeAbove("x", x, y, 0)
	near(t, "slope", s.Estimate, 2, 1e-12)
	near(t, "lower end", s.Lo, 2-2.9199856*math.Sqrt(0.4), 1e-6)
	if s.Outcome() != Supported || SlopeBelow("x", x, y, 0).Outcome() != Contradicted || SlopeAbove("x", x, y, 2).Outcome() != Inconclusive {
		t.Error("slope outcomes")
	}
	if SlopeAbove("x", x[:2], y[:2], 0).Reason == "" || SlopeAbove("x", []float64{1, 1, 1}, []float64{1, 2, 3}, 0).Reason == "" {
		t.Error("degenerate fits accepted")
	}
	same := SlopesEquivalent("x", x, y, x, []float64{3, 3, 5, 9}, 0.5)
	near(t, "difference", same.Estimate, 0, 1e-12)
	if same.Outcome() != Inconclusive { // se √0.8 is too wide for ±0.5
		t.Errorf("wide equal slopes: %v", same)
	}
	exact := []float64{1, 3, 5, 7}
	if SlopesEquivalent("x", x, exact, x, []float64{0, 2.1, 4.2, 6.3}, 0.5).Outcome() != Supported ||
		SlopesEquivalent("x", x, exact, x, []float64{0, 1, 2, 3}, 0.5).Outcome() != Contradicted {
		t.Error("exact slopes")
	}
}

func TestHolmAgainstHandComputation(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005})
	for i, want := range []float64{0.03, 0.06, 0.06, 0.02} {
		near(t, "adjusted p", got[i], want, 1e-12)
	}
	if h := Holm([]float64{math.NaN(), 0.5}); h[0] != 1 || h[1] != 1 {
		t.Errorf("NaN: %v", h)
	}
}

func TestDecideFamily(t *testing.T) {
	sup := Test{Label: "a", PSupport: 0.001, PContradict: 0.999}
	weak := Test{Label: "b", PSupport: 0.03, PContradict: 0.97} // 0.03·2 > 0.05 after Holm in a family of 3
	con := Test{Label: "c", PSupport: 0.999, PContradict: 0.001}
	for _, tc := range []struct {
		tests []Test
		want  Outcome
	}{
		{[]Test{sup, sup}, Supported},
		{[]Test{sup, weak, weak}, Inconclusive},
		{[]Test{sup, weak}, Supported},
		{[]Test{weak}, Supported},
		{[]Test{sup, con}, Contradicted},
		{[]Test{sup, Premise("p", "every method at chance")}, Inconclusive},
		{nil, Inconclusive},
	} {
		if got := Decide(tc.tests).Outcome; got != tc.want {
			t.Errorf("%v: %v, want %v", tc.tests, got, tc.want)
		}
	}
	v := Decide([]Test{sup, Premise("p", "every method at chance")}, "note")
	for _, want := range []string{"every method at chance", "Holm", "note", "a: "} {
		if !strings.Contains(v.Evidence, want) {
			t.Errorf("evidence lacks %q: %s", want, v.Evidence)
		}
	}
}

// TestDecidingAndNearContradictions checks the deciding member and its Holm-adjusted p-value
// against hand computation: sorted p-values p(1) ≤ … ≤ p(m) adjust to max over j ≤ i of
// (m − j + 1)·p(j), capped at 1.
func TestDecidingAndNearContradictions(t *testing.T) {
	a := Test{Label: "a", PSupport: 0.001, PContradict: 0.999}
	b := Test{Label: "b", PSupport: 0.02, PContradict: 0.98}
	c := Test{Label: "c", PSupport: 0.004, PContradict: 0.996}
	// Supported: adjusted support p = 3·0.001, max(0.003, 2·0.004), max(0.008, 0.02) → b decides at 0.02.
	m, p, ok := Decide([]Test{a, b, c}).Deciding()
	if !ok || m.Label != "b" || math.Abs(p-0.02) > 1e-15 {
		t.Errorf("supported family: deciding %q p = %g ok = %v, want b at 0.02", m.Label, p, ok)
	}
	// Contradicted: the smallest adjusted contradiction p, 2·0.003 for d.
	d := Test{Label: "d", PSupport: 0.997, PContradict: 0.003}
	e := Test{Label: "e", PSupport: 0.98, PContradict: 0.02}
	m, p, ok = Decide([]Test{e, d}).Deciding()
	if !ok || m.Label != "d" || math.Abs(p-0.006) > 1e-15 {
		t.Errorf("contradicted family: deciding %q p = %g ok = %v, want d at 0.006", m.Label, p, ok)
	}
	// One test: its own p-value.
	if m, p, ok = Decide([]Test{b}).Deciding(); !ok || m.Label != "b" || p != 0.02 {
		t.Errorf("single test: deciding %q p = %g ok = %v", m.Label, p, ok)
	}
	// Inconclusive: no deciding test; g points against at unadjusted p = 0.007 < 0.01, which Holm
	// over eight members (8·0.007 = 0.056) leaves undecided.
	f := Test{Label: "f", PSupport: 0.989, PContradict: 0.011}
	g := Test{Label: "g", PSupport: 0.993, PContradict: 0.007}
	h := Test{Label: "h", PSupport: 0.5, PContradict: 0.5}
	v := Decide([]Test{f, g, h, h, h, h, h, h})
	if v.Outcome != Inconclusive {
		t.Fatalf("family with a near contradiction: %v, want inconclusive", v.Outcome)
	}
	if _, _, ok := v.Deciding(); ok {
		t.Error("inconclusive verdict has a deciding test")
	}
	if near := v.NearContradictions(0.01); len(near) != 1 || near[0].Label != "g" {
		t.Errorf("near contradictions %v, want g only", near)
	}
	if near := Decide([]Test{a, b}).NearContradictions(0.01); near != nil {
		t.Errorf("supported verdict has near contradictions %v", near)
	}
	if _, _, ok := InconclusiveVerdict("no data").Deciding(); ok {
		t.Error("a verdict without tests has a deciding test")
	}
}

func TestRatios(t *testing.T) {
	fast := []float64{1.0, 1.1, 0.9, 1.05, 0.95}
	slow := []float64{2.0, 2.2, 1.9, 2.1, 1.8}
	r := RatioBelow("x", fast, slow, true, 1)
	geo := 1.0
	for i := range fast {
		geo *= fast[i] / slow[i]
	}
	near(t, "geometric-mean ratio", r.Estimate, math.Pow(geo, 1.0/float64(len(fast))), 1e-12)
	if r.Outcome() != Supported || RatioAbove("x", fast, slow, true, 1).Outcome() != Contradicted ||
		RatioBelow("x", slow, fast, false, 1).Outcome() != Contradicted {
		t.Errorf("clear ratios: %s", r)
	}
	if RatioWithin("x", fast, slow, true, 3).Outcome() != Supported || RatioWithin("x", fast, slow, true, 1.2).Outcome() != Contradicted {
		t.Error("within a factor")
	}
	mixed := []float64{0.5, 2.5, 1.0, 3, 0.7}
	if got := RatioBelow("x", mixed, fast, true, 1).Outcome(); got != Inconclusive {
		t.Errorf("straddling ratio: %v (%s)", got, RatioBelow("x", mixed, fast, true, 1))
	}
	if a, b := RatioBelow("x", mixed, fast, true, 1), RatioBelow("x", mixed, fast, true, 1); a != b {
		t.Error("ratio test not deterministic")
	}
	if RatioBelow("x", []float64{1, 0}, fast[:2], true, 1).Reason == "" || RatioBelow("x", fast, slow[:2], true, 1).Reason == "" {
		t.Error("bad times accepted")
	}
}

func TestExactTestEvidence(t *testing.T) {
	if got := ExactTest("x", 1, true, "r"); got.Outcome() != Supported || !got.Exact || ExactTest("x", 0, false, "r").Outcome() != Contradicted {
		t.Errorf("ExactTest outcomes: %+v", got)
	}
	e := Test{Label: "rings separable", Estimate: 1, Lo: math.NaN(), Hi: math.NaN(), N: 1, PSupport: 0, PContradict: 1, Rule: "supported if 1", Exact: true}
	if got := e.String(); got != "rings separable: 1 (exact, no randomness; supported if 1)" || e.Outcome() != Supported {
		t.Errorf("%q, %v", got, e.Outcome())
	}
}

func TestAnyOf(t *testing.T) {
	up := MeanAbove("up", []float64{1, 1.1, 0.9, 1.05, 0.95}, 0)          // clearly above: supports
	down := MeanAbove("down", []float64{-1, -1.1, -0.9, -1.05, -0.95}, 0) // clearly below: contradicts
	flat := MeanAbove("flat", []float64{0.1, -0.1, 0.05, -0.05, 0.02}, 0) // noise
	for _, c := range []struct {
		name  string
		tests []Test
		want  Outcome
	}{
		{"one supports", []Test{down, up, flat}, Supported},
		{"all contradict", []Test{down, down}, Contradicted},
		{"noise and a contradiction", []Test{down, flat}, Inconclusive},
		{"premise only", []Test{Premise("p", "too few")}, Inconclusive},
		{"empty", nil, Inconclusive},
	} {
		if got := AnyOf("claim", c.tests).Outcome(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// Holm's smallest adjusted p-value is m·min p: three members, the best with p = 0.02, give 0.06.
	tests := []Test{{PSupport: 0.02, PContradict: 0.9}, {PSupport: 0.5, PContradict: 0.01}, {PSupport: 0.3, PContradict: 0.2}}
	got := AnyOf("claim", tests)
	if math.Abs(got.PSupport-0.06) > 1e-15 || got.PContradict != 0.9 {
		t.Errorf("AnyOf p-values %g, %g; want 0.06 (3 × 0.02) and 0.9 (the largest)", got.PSupport, got.PContradict)
	}
}

// SlopeRatioWithin against closed forms: the fits of TestSlopeAgainstClosedForm have slopes 2 and
// 2.5 (residuals (1, −1, −1, 1) and (1, −1, −1, 1)/2), standard errors √0.4 and √0.1, 2 degrees of
// freedom each, and Student's t on 2 degrees of freedom has the closed-form CDF
// 1/2 + t/(2√(2 + t²)). The Fieller interval is checked by brute force: the ratios c on a fine
// grid whose |b₁ − c·b₂|/√(se₁² + c²se₂²) is at most t(0.95, 2) = 2.9199856.
func TestSlopeRatioAgainstClosedForm(t *testing.T) {
	x := []float64{0, 1, 2, 3}
	y1 := []float64{2, 2, 4, 8}     // 1 + 2x + (1, −1, −1, 1)
	y2 := []float64{1.5, 3, 5.5, 9} // 1 + 2.5x + (1, −1, −1, 1)/2
	b1, b2, se1, se2 := 2.0, 2.5, math.Sqrt(0.4), math.Sqrt(0.1)
	cdf2 := func(t float64) float64 { return 0.5 + t/(2*math.Sqrt(2+t*t)) }
	z := func(c float64) float64 { return (b1 - c*b2) / math.Sqrt(se1*se1+c*c*se2*se2) }
	for _, f := range []float64{1.25, 2, 4} {
		r := SlopeRatioWithin("x", x, y1, x, y2, f)
		near(t, "ratio", r.Estimate, 0.8, 1e-12)
		near(t, "p for", r.PSupport, math.Max(1-cdf2(z(1/f)), cdf2(z(f))), 1e-9)
		near(t, "p against", r.PContradict, math.Min(1, 2*math.Min(cdf2(z(1/f)), 1-cdf2(z(f)))), 1e-9)
	}
	r := SlopeRatioWithin("x", x, y1, x, y2, 1.25)
	const q, step = 2.9199856, 1e-5
	lo, hi := math.Inf(1), math.Inf(-1)
	for c := -5.0; c <= 5; c += step {
		if math.Abs(z(c)) <= q {
			lo, hi = math.Min(lo, c), math.Max(hi, c)
		}
	}
	near(t, "Fieller lower end", r.Lo, lo, 2*step)
	near(t, "Fieller upper end", r.Hi, hi, 2*step)
	// The ratio of the reversed fits is the reciprocal, with the same decision.
	rev := SlopeRatioWithin("x", x, y2, x, y1, 1.25)
	near(t, "reversed ratio", rev.Estimate, 1.25, 1e-12)
	if rev.Outcome() != r.Outcome() {
		t.Errorf("reversed fits: %v against %v", rev.Outcome(), r.Outcome())
	}
}

// SlopeRatioWithin's outcomes, on falling curves (converging errors) as the claims use it.
func TestSlopeRatioOutcomes(t *testing.T) {
	x := make([]float64, 40)
	for i := range x {
		x[i] = float64(i % 10)
	}
	line := func(slope, noise float64) []float64 {
		y := make([]float64, len(x))
		for i := range y {
			y[i] = slope*x[i] + noise*math.Sin(float64(7*i+1))
		}
		return y
	}
	for _, tc := range []struct {
		name   string
		s1, s2 float64
		noise  float64
		want   Outcome
	}{
		{"slopes −1 and −1.05", -1, -1.05, 0.01, Supported},
		{"slopes −1 and −2", -1, -2, 0.01, Contradicted},
		{"slopes −2 and −1", -2, -1, 0.01, Contradicted},
		{"opposite signs", 1, -1, 0.01, Contradicted},
		{"slopes −0.17 and −0.16 in noise", -0.17, -0.16, 1, Inconclusive},
	} {
		got := SlopeRatioWithin("x", x, line(tc.s1, tc.noise), x, line(tc.s2, tc.noise*1.1), 1.25)
		if got.Outcome() != tc.want {
			t.Errorf("%s: %v, want %v (%s)", tc.name, got.Outcome(), tc.want, got)
		}
	}
	flat := SlopeRatioWithin("x", x, line(-1, 0.01), x, line(0, 1), 1.25)
	if flat.Reason == "" || !strings.Contains(flat.Reason, "unbounded") {
		t.Errorf("a flat second curve: %s", flat)
	}
	exact := SlopeRatioWithin("x", x, line(-1, 0), x, line(-1.1, 0), 1.25)
	if exact.Outcome() != Supported || SlopeRatioWithin("x", x, line(-1, 0), x, line(-2, 0), 1.25).Outcome() != Contradicted {
		t.Errorf("noiseless lines: %s", exact)
	}
	if SlopeRatioWithin("x", x, line(-1, 0.01), x, line(-1, 0.01), 1).Reason == "" || SlopeRatioWithin("x", x[:2], x[:2], x, x, 2).Reason == "" {
		t.Error("a factor of 1 or two points accepted")
	}
}

// TestTimeOrders checks that the three orders partition the ratios at TimeMargin: a ratio of 0.5
// is faster, 1.1 about the same, 2 slower, and each other order contradicts there.
func TestTimeOrders(t *testing.T) {
	b := []float64{1, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1}
	scaled := func(f float64) []float64 {
		a := make([]float64, len(b))
		for i, v := range b {
			a[i] = f * v * (1 + 0.01*float64(i%3-1))
		}
		return a
	}
	want := map[float64]map[TimeOrder]Outcome{
		0.5: {Faster: Supported, Slower: Contradicted, SameTime: Contradicted},
		1.1: {Faster: Contradicted, Slower: Contradicted, SameTime: Supported},
		2:   {Faster: Contradicted, Slower: Supported, SameTime: Contradicted},
	}
	for f, orders := range want {
		for o, w := range orders {
			if got := o.Test("t", scaled(f), b, true).Outcome(); got != w {
				t.Errorf("ratio %g, order %d: %v, want %v", f, o, got, w)
			}
		}
	}
	for o, words := range map[TimeOrder]string{Faster: "below 1/1.25 = 0.8", Slower: "above 1.25", SameTime: "inside [1/1.25, 1.25]"} {
		if !strings.Contains(o.Decision(), words) {
			t.Errorf("order %d: decision %q lacks %q", o, o.Decision(), words)
		}
	}
}

// The Wilson interval against values computed by hand: k = 0 of 20 gives [0, z²/(n + z²)], and
// 5 of 10 is symmetric about 1/2 with half-width z/(1 + z²/n)·√(1/(4n) + z²/(4n²)), z the 97.5%
// normal quantile; invalid counts and levels give NaN.
func TestWilsonByHand(t *testing.T) {
	z := 1.959963984540054
	if lo, hi := Wilson(0, 20, 0.95); lo != 0 || math.Abs(hi-z*z/(20+z*z)) > 1e-12 {
		t.Errorf("0/20: [%g, %g]", lo, hi)
	}
	half := z / (1 + z*z/10) * math.Sqrt(1.0/40+z*z/400)
	if lo, hi := Wilson(5, 10, 0.95); math.Abs(lo-(0.5-half)) > 1e-12 || math.Abs(hi-(0.5+half)) > 1e-12 {
		t.Errorf("5/10: [%g, %g], want 0.5 ± %g", lo, hi, half)
	}
	if lo, hi := Wilson(20, 20, 0.95); math.Abs(hi-1) > 1e-12 || math.Abs(lo-20/(20+z*z)) > 1e-12 {
		t.Errorf("20/20: [%g, %g]", lo, hi)
	}
	for _, c := range [][3]float64{{1, 0, 0.95}, {-1, 5, 0.95}, {6, 5, 0.95}, {1, 5, 0}, {1, 5, 1}, {1, 5, math.NaN()}} {
		if lo, hi := Wilson(int(c[0]), int(c[1]), c[2]); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("Wilson(%v) = [%g, %g], want NaN", c, lo, hi)
		}
	}
}
