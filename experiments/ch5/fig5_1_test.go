package ch5

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"
	"github.com/fastkernels/kernellab/lab/plotting/plottest"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/pursuit"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

func TestFig5_1Smoke(t *testing.T) {
	dir := t.TempDir()
	kittest.RunAndCheck(t, fig5_1(), run.Smoke, dir, false)
	kittest.CheckPrintFigure(t, filepath.Join(dir, "figures"), "fig5_1", map[string]string{
		"Frank-Wolfe, m = m*": "fw", "Theorem 5 bound": "bound", "MP bound (G. & V. 2006)": "slope",
	})
}

func TestFig5_1Plans(t *testing.T) {
	e := fig5_1()
	if _, err := run.NewRegistry(e); err != nil {
		t.Fatal(err)
	}
	for _, sc := range []run.Scale{run.Smoke, run.Quick, run.Paper} {
		sz := scales.At(sc)
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
	dict, err := pursuit.NewDenseDictionary(eye)
	if err != nil {
		t.Fatal(err)
	}
	sz := sizes{d: n, n: n, iterations: 10, every: 1}
	rng := rand.New(rand.NewPCG(3, 4))

	one, err := signal(rng, dict, sz, 1)
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

	two, err := signal(rng, dict, sz, 2)
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
	if _, err := signal(rng, dict, sz, n+1); err == nil {
		t.Error("a support larger than the dictionary must be an error")
	}
}

// synth describes synthetic fig5_1 results: draws draws with m* = 3, whose ln‖r_k‖ at
// sparsity c·m* is ln‖y‖ + slope·k down to ln‖y‖ − 30 (then flat, as at the stopping tolerance),
// slope = slopes[c]·(1 + 0.02·z) with z cycling over −1, 0, 1 (shifted by c, so that the sparsities
// do not vary together), θ = 0.01·(draw%2 + 1) (Theorem 5 slopes −0.00503 and −0.0101), θ_MP = 0.3,
// μ₁(D, c·m* − 1) = babel[c]; the first `above` draws reach ln‖y‖ at k = 200 at m* (above their
// Theorem 5 line there).
type synth struct {
	draws, above int
	slopes       map[int]float64
	babel        map[int]float64
}

var goodSlopes = map[int]float64{1: -1, 2: -0.5, 5: -0.2, 20: -0.03}
var goodBabel = map[int]float64{1: 0.3, 2: 0.6, 5: 1.5, 20: 3}

func (sy synth) results() *run.Results {
	var rows []run.Row
	add := func(method, metric string, value float64, params ...run.Param) {
		rows = append(rows, run.Row{Dataset: dataset, Method: method, Params: params, Metric: metric, Value: value})
	}
	for draw := range sy.draws {
		logY := 1 + 0.01*float64(draw)
		dp := run.P("draw", draw)
		add(dictionary, coherence, 0.15, dp, run.P("d", 100), run.P("n", 200))
		add(dictionary, metricMStar, 3, dp)
		for _, c := range multiples {
			add(dictionary, metricBabel, sy.babel[c], dp, run.P("m", 3*c-1), run.P("exact", c < 20))
		}
		for _, c := range multiples {
			method := method(c)
			params := []run.Param{dp, run.P("m", 3*c)}
			add(method, logSignal, logY, params...)
			add(method, offSupport, 0, params...)
			if c == 1 {
				add(method, metricTheta, 0.01*float64(draw%2+1), params...)
				add(method, metricThetaMP, 0.3, params...)
			}
			slope := sy.slopes[c] * (1 + 0.02*float64((draw+c)%3-1))
			for k := 0; k <= 400; k += 4 {
				v := logY + max(slope*float64(k), -30)
				if c == 1 && draw < sy.above && k == 200 {
					v = logY
				}
				add(method, logResidual, v, dp, run.P("m", 3*c), run.P("k", k))
			}
		}
	}
	// 60 draws are quick scale's plan; fewer are a partial run of it (partialNote).
	res := kittest.RowsOf("fig5_1", rows...)
	res.Scale = run.Quick
	return res
}

// synthetic is the former two-draw builder, kept for the line and window tests.
func synthetic(slopes map[int]float64, drawAbove int) *run.Results {
	above := 0
	if drawAbove >= 0 {
		above = drawAbove + 1
	}
	res := synth{draws: 2, above: above, slopes: slopes, babel: goodBabel}.results()
	// The old builder had exact slopes (no jitter) and ln‖y‖ = 1, 2: rebuild those rows.
	for i, r := range res.Rows {
		d, _ := r.ParamFloat("draw")
		switch r.Metric {
		case logSignal:
			res.Rows[i].Value = 1 + d
		case logResidual:
			k, _ := r.ParamFloat("k")
			c := map[string]int{"m*": 1, "2m*": 2, "5m*": 5, "20m*": 20}[r.Method]
			v := 1 + d + max(slopes[c]*k, -30)
			if c == 1 && int(d) == drawAbove && k == 200 {
				v = 1 + d
			}
			res.Rows[i].Value = v
		}
	}
	return res
}

func TestFig5_1Lines(t *testing.T) {
	res := synthetic(map[int]float64{1: -1, 2: -1, 5: -1, 20: -1}, -1)
	mean, envelope, err := lines(res, metricTheta)
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
	good := synth{draws: 60, slopes: goodSlopes, babel: goodBabel}
	with := func(change func(*synth)) *run.Results {
		sy := good
		sy.slopes, sy.babel = maps.Clone(good.slopes), maps.Clone(good.babel)
		change(&sy)
		return sy.results()
	}
	// below-theorem5: 60 draws and none crossing; 30 crossing; 10 draws (too few for the binomial).
	kittest.WantOutcome(t, "below: as in the thesis", checkFig5_1BelowTheorem5, good.results(), verdict.Supported)
	kittest.WantOutcome(t, "below: half the draws cross", checkFig5_1BelowTheorem5, with(func(s *synth) { s.above = 30 }), verdict.Contradicted)
	kittest.WantOutcome(t, "below: 10 draws", checkFig5_1BelowTheorem5, with(func(s *synth) { s.draws = 10 }), verdict.Inconclusive)

	// exponential-2m-5m: Theorem 5's scaling predicts (1 − 0.6)/(2·(1 − 0.3)) = 0.286 of the m*
	// slope at 2m*; at 5m* μ₁ = 1.5 ≥ 1, so 5m* is compared with the sublinear rate.
	kittest.WantOutcome(t, "exponential: as in the thesis", checkFig5_1Exponential, good.results(), verdict.Supported)
	kittest.WantOutcome(t, "exponential: 2m* flatter than predicted", checkFig5_1Exponential, with(func(s *synth) { s.slopes[2] = -0.1 }), verdict.Contradicted)
	kittest.WantOutcome(t, "exponential: 2m* as predicted", checkFig5_1Exponential, with(func(s *synth) { s.slopes[2] = -0.4 / 1.4 }), verdict.Inconclusive)
	kittest.WantOutcome(t, "exponential: 5m* sublinear", checkFig5_1Exponential, with(func(s *synth) { s.slopes[5] = -0.001 }), verdict.Contradicted)
	kittest.WantOutcome(t, "exponential: 5m* within the theorem, slower than predicted", checkFig5_1Exponential,
		with(func(s *synth) { s.babel[5], s.slopes[5] = 0.3, -0.1 }), verdict.Contradicted) // predicted −1/5
	// slower-20m: 20·slope(20m*) − 5·slope(5m*) = 0.4 > 0; −2 < 0; 0 ± noise.
	kittest.WantOutcome(t, "slower: as in the thesis", checkFig5_1Slower, good.results(), verdict.Supported)
	kittest.WantOutcome(t, "slower: 20m* as fast per atom", checkFig5_1Slower, with(func(s *synth) { s.slopes[20] = -0.15 }), verdict.Contradicted)
	kittest.WantOutcome(t, "slower: equal per atom", checkFig5_1Slower, with(func(s *synth) { s.slopes[20] = -0.05 }), verdict.Inconclusive)

	slope, from, to, err := tailSlope(synthetic(goodSlopes, -1), 2)
	if err != nil || math.Abs(slope+0.5) > 1e-12 || from != 24 || to != 48 {
		t.Errorf("2m* slope %v on [%v, %v], %v; want −0.5 on [24, 48]", slope, from, to, err)
	}
	v, err := checkFig5_1BelowTheorem5(good.results())
	if err != nil || !strings.Contains(v.Evidence, "Theorem 4: no atom outside the support in 60 of 60 draws") {
		t.Errorf("evidence %q, %v: want the Theorem 4 count", v.Evidence, err)
	}
	if _, err := checkFig5_1Exponential(kittest.RowsOf("fig5_1")); err == nil {
		t.Error("no results: want an error")
	}
}

// TestFig5_1PartialRun runs the first of smoke scale's two tasks (lab run --first 1: 2 of its 4
// draws), and checks that the figure (under both panel titles), the caption and every claim's
// evidence say so, then that the whole run resumed from it says nothing of the kind.
func TestFig5_1PartialRun(t *testing.T) {
	const note = "smoke sizes, 2 of 4 draws (a partial run: the first 2)"
	dir := t.TempDir()
	figDir := filepath.Join(dir, "figures")
	e := fig5_1()
	for _, first := range []int{1, 0} {
		res, err := run.Execute(context.Background(), e, run.Options{Scale: run.Smoke, Dir: dir, First: first})
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Render(e, res, figDir); err != nil {
			t.Fatal(err)
		}
		svg, err := os.ReadFile(filepath.Join(figDir, "fig5_1.svg"))
		if err != nil {
			t.Fatal(err)
		}
		_, texts, err := plottest.ParseSVG(svg)
		if err != nil {
			t.Fatal(err)
		}
		titled := 0
		for _, tx := range texts {
			if strings.TrimSpace(tx.Text) == note {
				titled++
			}
		}
		caption, err := os.ReadFile(filepath.Join(figDir, "fig5_1.md"))
		if err != nil {
			t.Fatal(err)
		}
		claims := run.CheckClaims(e, res)
		if first == 0 {
			if titled != 0 || strings.Contains(string(caption), "draws (a partial run") {
				t.Errorf("whole run: the figure (%d titles) or the caption says it is partial:\n%s", titled, caption)
			}
			for _, c := range claims {
				if strings.Contains(c.Evidence, "partial run") {
					t.Errorf("whole run: %s's evidence says it is partial: %s", c.ClaimID, c.Evidence)
				}
			}
			continue
		}
		if titled != 2 {
			t.Errorf("partial run: %d panel titles say %q, want 2", titled, note)
		}
		if want := "**Smoke sizes, 2 of 4 draws (a partial run: the first 2)**: every number below is over these draws."; !strings.Contains(string(caption), want) {
			t.Errorf("partial run: the caption lacks %q:\n%s", want, caption)
		}
		kittest.CheckPrintFigure(t, figDir, "fig5_1", map[string]string{
			"Frank-Wolfe, m = m*": "fw", "Theorem 5 bound": "bound", "MP bound (G. & V. 2006)": "slope",
		})
		for _, c := range claims {
			if c.Status == run.StatusError || !strings.HasPrefix(c.Evidence, note+": ") {
				t.Errorf("partial run: %s: %s, evidence %q; want it to start with %q", c.ClaimID, c.Status, c.Evidence, note)
			}
		}
	}
}

func TestFig5_1PartialNote(t *testing.T) {
	sy := synth{draws: 60, slopes: goodSlopes, babel: goodBabel}
	if note, err := partialNote(sy.results()); note != "" || err != nil {
		t.Errorf("every quick draw: %q, %v; want no note", note, err)
	}
	sy.draws = 10
	if note, err := partialNote(sy.results()); note != "quick sizes, 10 of 60 draws (a partial run: the first 10)" || err != nil {
		t.Errorf("the first 10 quick draws: %q, %v", note, err)
	}
	// Draws 0–9 without draw 3: not the first 9.
	res := sy.results()
	var kept []run.Row
	for _, r := range res.Rows {
		if d, _ := r.ParamFloat("draw"); d != 3 {
			kept = append(kept, r)
		}
	}
	res.Rows = kept
	if note, err := partialNote(res); note != "quick sizes, 9 of 60 draws (a partial run)" || err != nil {
		t.Errorf("9 draws, not the first: %q, %v", note, err)
	}
	// 61 draws are not quick scale's plan; neither is a made-up scale.
	sy.draws = 61
	if _, err := partialNote(sy.results()); err == nil || !strings.Contains(err.Error(), "draw 60") {
		t.Errorf("a draw beyond the plan: %v, want an error naming it", err)
	}
	res.Scale = "huge"
	if _, err := partialNote(res); err == nil {
		t.Error("an unknown scale: want an error")
	}
	for v, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 2000: "2,000", 1234567: "1,234,567"} {
		if got := grouped(v); got != want {
			t.Errorf("grouped(%d) = %q, want %q", v, got, want)
		}
	}
}

// The caption's lead on synthetic results: the closest draw to its Theorem 5 line is one with the
// slowest m* slope (−0.98) and the larger θ = 0.02 (line slope ½ ln 0.98), at k = 4:
// 4·(−0.98 − ½ ln 0.98) ≈ −3.88; at 20m* the curves never reach the floor, so the mean slope is the
// synthetic −0.03 (its ±2% cycle averages out over 60 draws), −0.6 per atom of the support.
func TestFig5_1Result(t *testing.T) {
	got, err := fig5_1Result(synth{draws: 60, slopes: goodSlopes, babel: goodBabel}.results())
	if err != nil {
		t.Fatal(err)
	}
	closest := 4 * (-0.98 - 0.5*math.Log(0.98))
	for _, want := range []string{fmt.Sprintf("at least %.2f below its own Theorem 5 line (the closest of 60 draws)", -closest), "-0.03 at 20m*", "-0.6 at 20m*"} {
		if !strings.Contains(got, want) {
			t.Errorf("result %q lacks %q", got, want)
		}
	}
	got, err = fig5_1Result(synth{draws: 60, above: 1, slopes: goodSlopes, babel: goodBabel}.results())
	if err != nil || !strings.Contains(got, "reaches") {
		t.Errorf("a draw above its line: %q, %v", got, err)
	}
}
