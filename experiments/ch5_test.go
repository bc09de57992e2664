package experiments

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/sparse"
)

func TestFig5_1Smoke(t *testing.T) {
	runAndCheck(t, fig5_1(), run.Smoke, t.TempDir(), false)
}

func TestFig5_1Plans(t *testing.T) {
	e := fig5_1()
	if _, err := run.NewRegistry(e); err != nil {
		t.Fatal(err)
	}
	for _, sc := range []run.Scale{run.Smoke, run.Quick, run.Paper} {
		sz, err := fig5_1SizesAt(sc)
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := e.Plan(sc)
		if err != nil || len(tasks) < 2 || len(tasks)*sz.perTask != sz.draws {
			t.Errorf("%s: %d tasks of %d draws for %d draws, %v", sc, len(tasks), sz.perTask, sz.draws, err)
		}
		keys := map[string]bool{}
		for _, task := range tasks {
			if keys[task.Key] {
				t.Errorf("%s: task key %q twice", sc, task.Key)
			}
			keys[task.Key] = true
		}
	}
	if _, err := e.Plan("huge"); err == nil {
		t.Error("an unknown scale must be an error")
	}
}

// TestFig5_1SignalOnTheIdentity runs the figure's Frank-Wolfe on the identity dictionary, where
// every step is known by hand: with β = 8‖α*‖₁ the line search's first step removes the largest
// coefficient exactly (γ₀ = |α_i|/β), so ‖r₁‖ is the smaller coefficient for m = 2 and zero for
// m = 1 (recorded at the floor 2⁻⁵²‖y‖ and repeated after the stop).
func TestFig5_1SignalOnTheIdentity(t *testing.T) {
	const n = 6
	eye := mat.NewDense(n, n, nil)
	for i := range n {
		eye.Set(i, i, 1)
	}
	dict, err := sparse.NewDenseDictionary(eye)
	if err != nil {
		t.Fatal(err)
	}
	sz := fig5_1Sizes{d: n, n: n, iterations: 10, every: 1}
	rng := rand.New(rand.NewPCG(3, 4))

	one, err := fig5_1Signal(rng, dict, sz, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(one.logNorms) != sz.iterations+1 || one.offSupport != 0 {
		t.Fatalf("m = 1: %d values, %d atoms off the support", len(one.logNorms), one.offSupport)
	}
	// One atom: ‖y‖ = |α| = ‖α*‖₁.
	if math.Abs(one.logNorms[0]-math.Log(one.l1Norm)) > 1e-14 {
		t.Errorf("m = 1: ln‖y‖ = %v, want ln‖α*‖₁ = %v", one.logNorms[0], math.Log(one.l1Norm))
	}
	for k := 1; k <= sz.iterations; k++ {
		if want := math.Log(0x1p-52 * one.l1Norm); math.Abs(one.logNorms[k]-want) > 1e-12 {
			t.Errorf("m = 1, k = %d: %v, want the floor %v", k, one.logNorms[k], want)
		}
	}

	two, err := fig5_1Signal(rng, dict, sz, 2)
	if err != nil {
		t.Fatal(err)
	}
	// |a| + |b| = ‖α*‖₁ and a² + b² = ‖y‖² give min(|a|, |b|) = (‖α*‖₁ − √(2‖y‖² − ‖α*‖₁²))/2.
	y2 := math.Exp(2 * two.logNorms[0])
	smaller := (two.l1Norm - math.Sqrt(2*y2-two.l1Norm*two.l1Norm)) / 2
	if math.Abs(two.logNorms[1]-math.Log(smaller)) > 1e-9 {
		t.Errorf("m = 2: ln‖r₁‖ = %v, want ln(smaller coefficient) = %v", two.logNorms[1], math.Log(smaller))
	}
	for k := 1; k <= sz.iterations; k++ {
		if two.logNorms[k] > two.logNorms[k-1] {
			t.Errorf("m = 2: the line search let ‖r_k‖ grow at k = %d: %v", k, two.logNorms)
		}
	}
	if _, err := fig5_1Signal(rng, dict, sz, n+1); err == nil {
		t.Error("a support larger than the dictionary must be an error")
	}
}

// fig5_1Synthetic builds results of two draws whose ln‖r_k‖ at sparsity c·m* is
// ln‖y‖ + slopes[c]·k down to ln‖y‖ − 30 (then flat, as at the stopping tolerance), with θ = 0.01
// and 0.02 (Theorem 5 slopes −0.00503 and −0.0101) and θ_MP = 0.3.
func fig5_1Synthetic(slopes map[int]float64, drawAbove int) *run.Results {
	var rows []run.Row
	add := func(method, metric string, value float64, params ...run.Param) {
		rows = append(rows, run.Row{Dataset: fig5_1Dataset, Method: method, Params: params, Metric: metric, Value: value})
	}
	for draw, logY := range []float64{1, 2} {
		dp := run.P("draw", draw)
		add(fig5_1Dictionary, fig5_1Coherence, 0.15, dp, run.P("d", 100), run.P("n", 200))
		add(fig5_1Dictionary, fig5_1MStar, 3, dp)
		add(fig5_1Dictionary, fig5_1Babel, 0.3, dp, run.P("m", 2), run.P("exact", true))
		for _, c := range fig5_1Multiples {
			method := fig5_1Method(c)
			add(method, fig5_1LogSignal, logY, dp)
			add(method, fig5_1OffSupport, 0, dp)
			if c == 1 {
				add(method, fig5_1Theta, 0.01*float64(draw+1), dp)
				add(method, fig5_1ThetaMP, 0.3, dp)
			}
			for k := 0; k <= 400; k += 4 {
				v := logY + max(slopes[c]*float64(k), -30)
				if c == 1 && draw == drawAbove && k == 200 {
					v = logY // above its Theorem 5 line (slope < 0) at k = 200
				}
				add(method, fig5_1LogResidual, v, dp, run.P("k", k))
			}
		}
	}
	return rowsOf("fig5_1", rows...)
}

func TestFig5_1Lines(t *testing.T) {
	res := fig5_1Synthetic(map[int]float64{1: -1, 2: -1, 5: -1, 20: -1}, -1)
	mean, envelope, err := fig5_1Lines(res, fig5_1Theta)
	if err != nil {
		t.Fatal(err)
	}
	wantMean := (0.5*math.Log(0.99) + 0.5*math.Log(0.98)) / 2
	if math.Abs(mean.intercept-1.5) > 1e-15 || math.Abs(mean.slope-wantMean) > 1e-15 {
		t.Errorf("mean line %+v, want intercept 1.5 and slope %v", mean, wantMean)
	}
	if envelope.intercept != 2 || math.Abs(envelope.slope-0.5*math.Log(0.99)) > 1e-15 {
		t.Errorf("envelope %+v, want intercept 2 and slope ½ ln 0.99", envelope)
	}
}

func TestFig5_1Claims(t *testing.T) {
	// The floor at ln‖y‖ − 30 lies below the fit floor ln 10⁻¹⁰ ≈ −23.0: the fits must stop before
	// it, so that the straight parts give their slopes exactly.
	good := map[int]float64{1: -1, 2: -0.5, 5: -0.2, 20: -0.03}
	for _, tc := range []struct {
		name                          string
		slopes                        map[int]float64
		drawAbove                     int
		below, exponential, slower    bool
		wantSlope2, wantFrom, wantTo2 float64
	}{
		{"as in the thesis", good, -1, true, true, true, -0.5, 24, 48},
		{"one draw above its line", good, 0, false, true, true, -0.5, 24, 48},
		{"2m* slower than Theorem 5", map[int]float64{1: -1, 2: -0.004, 5: -0.2, 20: -0.03}, -1, true, false, true, -0.004, 200, 400},
		{"20m* as fast as 5m*", map[int]float64{1: -1, 2: -0.5, 5: -0.2, 20: -0.15}, -1, true, true, false, -0.5, 24, 48},
	} {
		res := fig5_1Synthetic(tc.slopes, tc.drawAbove)
		for _, c := range []struct {
			check func(*run.Results) (run.Verdict, error)
			want  bool
		}{{checkFig5_1BelowTheorem5, tc.below}, {checkFig5_1Exponential, tc.exponential}, {checkFig5_1Slower, tc.slower}} {
			v, err := c.check(res)
			if err != nil || (v.Outcome == run.Supported) != c.want {
				t.Errorf("%s: %+v, %v; want pass %v", tc.name, v, err, c.want)
			}
		}
		slope, from, to, err := fig5_1TailSlope(res, 2)
		if err != nil || math.Abs(slope-tc.wantSlope2) > 1e-12 || from != tc.wantFrom || to != tc.wantTo2 {
			t.Errorf("%s: 2m* slope %v on [%v, %v], %v; want %v on [%v, %v]", tc.name, slope, from, to, err, tc.wantSlope2, tc.wantFrom, tc.wantTo2)
		}
	}
	v, err := checkFig5_1BelowTheorem5(fig5_1Synthetic(good, 1))
	if err != nil || !strings.Contains(v.Evidence, "1 of 2 draws below their own line") {
		t.Errorf("evidence %q, %v: want the count of draws below their own line", v.Evidence, err)
	}
	if _, err := checkFig5_1Exponential(rowsOf("fig5_1")); err == nil {
		t.Error("no results: want an error")
	}
}
