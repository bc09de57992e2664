package main

import (
	"math"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
)

// results builds a table of one series per metric with the given draws (rep = index).
func results(metric string, values ...float64) *run.Results {
	res := &run.Results{ID: "toy", Scale: run.Quick}
	for i, v := range values {
		res.Rows = append(res.Rows, run.Row{ID: "toy", Dataset: "d", Method: "m", Params: []run.Param{run.P("n", 10)}, Rep: i, Metric: metric, Value: v})
	}
	return res
}

// diffOne compares two one-metric tables and returns the metric's comparison.
func diffOne(t *testing.T, ref, got *run.Results, o diffOptions) metricDiff {
	t.Helper()
	d := diffResults(&run.Experiment{ID: "toy", Tolerance: map[string]float64{"log-residual": 1e-4}, Timings: []string{"seconds"}}, ref, got, o)
	if len(d) != 1 {
		t.Fatalf("diffResults gave %d metrics, want 1: %+v", len(d), d)
	}
	return d[0]
}

func TestDiffTolerance(t *testing.T) {
	deflt := diffOptions{rtol: defaultRtol, zMax: 3}
	exact := diffOptions{exact: true, rtol: defaultRtol, zMax: 3}
	ref := []float64{0.25, -3.5, 1e6}
	scaled := func(rel float64) []float64 {
		out := make([]float64, len(ref))
		for i, v := range ref {
			out[i] = v * (1 + rel)
		}
		return out
	}
	for _, c := range []struct {
		name    string
		got     []float64
		o       diffOptions
		verdict string
		maxRel  float64 // expected largest relative difference, to 1%
	}{
		{"identical", ref, deflt, verdictIdentical, 0},
		{"identical, exact", ref, exact, verdictIdentical, 0},
		{"last bits (1e-12)", scaled(1e-12), deflt, verdictTolerance, 1e-12},
		{"1e-12 with --exact", scaled(1e-12), exact, verdictDrift, 1e-12},
		{"1e-6 off", scaled(1e-6), deflt, verdictDrift, 1e-6},
		{"1e-6 with --rtol 1e-5", scaled(1e-6), diffOptions{rtol: 1e-5, zMax: 3}, verdictTolerance, 1e-6},
		{"NaN for a number", []float64{0.25, math.NaN(), 1e6}, deflt, verdictDrift, math.NaN()},
		{"infinity for a number", []float64{0.25, -3.5, math.Inf(1)}, diffOptions{rtol: 1, zMax: 3}, verdictDrift, math.Inf(1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := diffOne(t, results("error", ref...), results("error", c.got...), c.o)
			if d.verdict != c.verdict {
				t.Errorf("verdict %q (%s), want %q", d.verdict, d.note, c.verdict)
			}
			switch {
			case math.IsNaN(c.maxRel) || math.IsInf(c.maxRel, 0):
				if !math.IsNaN(d.maxRel) && !math.IsInf(d.maxRel, 0) {
					t.Errorf("max relative difference %g, want %g", d.maxRel, c.maxRel)
				}
			case math.Abs(d.maxRel-c.maxRel) > 0.01*c.maxRel:
				t.Errorf("max relative difference %g, want %g", d.maxRel, c.maxRel)
			}
		})
	}
}

// TestDiffToleranceFloor: a value near zero (a residual next to values of order 1) is judged on the
// metric's scale, so its last bits pass, but not a change at the metric's own scale.
func TestDiffToleranceFloor(t *testing.T) {
	o := diffOptions{rtol: defaultRtol, zMax: 3}
	ref := results("residual", 1, 0.5, 3e-17)
	if d := diffOne(t, ref, results("residual", 1, 0.5, 5e-17), o); d.verdict != verdictTolerance {
		t.Errorf("2e-17 off a metric of scale 1: verdict %q, want %q", d.verdict, verdictTolerance)
	}
	if d := diffOne(t, ref, results("residual", 1, 0.5, 1e-6), o); d.verdict != verdictDrift {
		t.Errorf("1e-6 off a metric of scale 1: verdict %q, want %q", d.verdict, verdictDrift)
	}
	if d := diffOne(t, ref, results("residual", 1, 0, 3e-17), o); d.verdict != verdictDrift {
		t.Errorf("0.5 become 0: verdict %q, want %q", d.verdict, verdictDrift)
	}
}

// TestDiffTimingsStatistically: timing metrics are not compared by default, and with --timing are
// judged by the spread over the draws, never by the tolerance.
func TestDiffTimingsStatistically(t *testing.T) {
	ref := results("seconds", 1.0, 1.2, 0.9, 1.1)
	near := results("seconds", 1.05, 1.15, 0.95, 1.0) // means 1.05 and 1.0375: |Δ|/SE ≈ 0.2
	far := results("seconds", 2.0, 2.2, 1.9, 2.1)     // |Δ|/SE ≈ 11
	if d := diffOne(t, ref, far, diffOptions{rtol: defaultRtol, zMax: 3}); d.verdict != verdictSkipped {
		t.Errorf("without --timing: verdict %q, want %q", d.verdict, verdictSkipped)
	}
	timing := diffOptions{timing: true, rtol: defaultRtol, zMax: 3}
	if d := diffOne(t, ref, near, timing); d.verdict != verdictSpread {
		t.Errorf("timings within the spread: verdict %q (%s), want %q", d.verdict, d.note, verdictSpread)
	}
	if d := diffOne(t, ref, far, timing); d.verdict != verdictDrift || d.z < 10 || d.z > 12 {
		t.Errorf("timings twice as long: verdict %q, z %g, want %q and z ≈ 11", d.verdict, d.z, verdictDrift)
	}
	// A metric is a timing because its experiment says so, not because of its name.
	if d := diffOne(t, results("elapsed", 1.0, 1.2), results("elapsed", 1.0, 1.2), diffOptions{rtol: defaultRtol, zMax: 3}); d.class != "deterministic" {
		t.Errorf("an undeclared metric named elapsed: class %q, want deterministic", d.class)
	}
	// Statistical judgement of a non-timing metric lets values beyond the tolerance pass.
	o := diffOptions{statistical: true, rtol: defaultRtol, zMax: 3}
	if d := diffOne(t, results("error", 1.0, 1.2, 0.9, 1.1), results("error", 1.05, 1.15, 0.95, 1.0), o); d.verdict != verdictSpread {
		t.Errorf("--statistical within the spread: verdict %q, want %q", d.verdict, verdictSpread)
	}
}

// TestDiffMetricTolerance: a metric the experiment declares noisier is judged with its tolerance,
// except with --exact.
func TestDiffMetricTolerance(t *testing.T) {
	ref, got := results("log-residual", -30.5, -2), results("log-residual", -30.5*(1+5e-5), -2)
	if d := diffOne(t, ref, got, diffOptions{rtol: defaultRtol, zMax: 3}); d.verdict != verdictTolerance {
		t.Errorf("5e-5 off a metric of tolerance 1e-4: verdict %q", d.verdict)
	}
	if d := diffOne(t, ref, got, diffOptions{exact: true, rtol: defaultRtol, zMax: 3}); d.verdict != verdictDrift {
		t.Errorf("--exact: verdict %q", d.verdict)
	}
	got = results("log-residual", -30.5*(1+5e-4), -2)
	if d := diffOne(t, ref, got, diffOptions{rtol: defaultRtol, zMax: 3}); d.verdict != verdictDrift {
		t.Errorf("5e-4 off a metric of tolerance 1e-4: verdict %q", d.verdict)
	}
}

func TestDiffMissingRowsDrift(t *testing.T) {
	d := diffOne(t, results("error", 1, 2, 3), results("error", 1, 2), diffOptions{rtol: defaultRtol, zMax: 3})
	if d.verdict != verdictDrift || d.missing != 1 {
		t.Errorf("a row only in the reference: verdict %q, missing %d", d.verdict, d.missing)
	}
}

func TestDiffSummary(t *testing.T) {
	var b strings.Builder
	diffs := []metricDiff{
		{id: "a", metric: "error", verdict: verdictIdentical},
		{id: "a", metric: "residual", verdict: verdictTolerance, maxRel: 3e-15, differ: 2, compared: 5},
		{id: "b", metric: "seconds", class: "timing", verdict: verdictSkipped},
		{id: "b", metric: "sup", verdict: verdictDrift, maxRel: 1e-6, differ: 1, compared: 1},
	}
	c := writeDiffTable(&b, diffs, false)
	table := b.String()
	if !strings.Contains(table, "DRIFT") || !strings.Contains(table, verdictTolerance) || strings.Contains(table, "error") {
		t.Errorf("table must list the drifted and tolerated metrics, not the identical one:\n%s", table)
	}
	if strings.Index(table, "DRIFT") > strings.Index(table, verdictTolerance) {
		t.Errorf("drift must come first:\n%s", table)
	}
	want := "3 metric(s) compared with ref: 1 identical, 1 within tolerance (rtol 1e-09; largest relative difference 3e-15), 1 drifted; 1 timing metric(s) not compared (--timing compares them)"
	if got := diffSummary(c, "ref", diffOptions{rtol: 1e-9}); got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
}

// TestDiffBySpread: a metric an experiment declares in BySpread (read off discrete decisions)
// passes when a few values flip but its means stay within the spread over the draws, and drifts
// when the whole metric moves, under --exact, or when it is not declared.
func TestDiffBySpread(t *testing.T) {
	e := &run.Experiment{ID: "toy", BySpread: map[string]string{"accuracy": "a test point's class flips"}}
	ref := results("accuracy", 0.80, 0.82, 0.78, 0.81, 0.79, 0.83, 0.77, 0.80)
	flipped := results("accuracy", 0.80, 0.82, 0.78, 0.81, 0.7925, 0.83, 0.77, 0.80)
	moved := results("accuracy", 0.90, 0.92, 0.88, 0.91, 0.89, 0.93, 0.87, 0.90)
	deflt := diffOptions{rtol: defaultRtol, zMax: 3}
	for _, c := range []struct {
		name    string
		e       *run.Experiment
		got     *run.Results
		o       diffOptions
		verdict string
	}{
		{"one decision flipped", e, flipped, deflt, verdictSpread},
		{"the metric moved", e, moved, deflt, verdictDrift},
		{"one flip with --exact", e, flipped, diffOptions{exact: true, rtol: defaultRtol, zMax: 3}, verdictDrift},
		{"one flip, not declared", &run.Experiment{ID: "toy"}, flipped, deflt, verdictDrift},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := diffResults(c.e, ref, c.got, c.o)
			if len(d) != 1 || d[0].verdict != c.verdict {
				t.Fatalf("got %+v, want verdict %q", d, c.verdict)
			}
			if c.verdict == verdictSpread && !strings.Contains(d[0].note, "1 of 8 values beyond the tolerance (a test point's class flips)") {
				t.Errorf("note %q does not say what flipped and why", d[0].note)
			}
		})
	}
}
