package ch2

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// TestLeastSquaresSeparator checks the fit on points where the least-squares solution is known:
// labels = sign(a - b) on a symmetric design give w ∝ (1, -1, 0) and perfect accuracy.
func TestLeastSquaresSeparator(t *testing.T) {
	a := []float64{1, 0, 2, 0}
	b := []float64{0, 1, 0, 2}
	label := []float64{1, -1, 1, -1}
	w, acc, err := leastSquaresSeparator(a, b, label)
	if err != nil {
		t.Fatal(err)
	}
	if acc != 1 {
		t.Errorf("accuracy %g, want 1", acc)
	}
	if w[0] <= 0 || w[1] >= 0 || w[0]+w[1] > 1e-12 || w[0]+w[1] < -1e-12 || w[2] > 1e-12 || w[2] < -1e-12 {
		t.Errorf("w = %v, want (c, -c, 0) with c > 0", w)
	}
}

// ringsResults runs the fig2_1 task on a seed and returns its rows as results.
func ringsResults(t *testing.T, seed uint64) *run.Results {
	t.Helper()
	recs, err := ringsRecords(rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]run.Row, len(recs))
	for i, r := range recs {
		rows[i] = run.Row{Dataset: r.Dataset, Method: r.Method, Params: r.Params, Metric: r.Metric, Value: r.Value}
	}
	return kittest.RowsOf("fig2_1", rows...)
}

// TestRingsNeedTheFeatureMap checks the property fig2_1 illustrates on fresh seeds, and drives its
// exact check to each verdict it can give.
func TestRingsNeedTheFeatureMap(t *testing.T) {
	for seed := range uint64(5) {
		kittest.WantOutcome(t, fmt.Sprintf("seed %d", seed), checkFig2_1, ringsResults(t, seed), verdict.Supported)
	}
	// An outer point moved into the inner ring: no line separates the rings after the map either.
	res := ringsResults(t, 0)
	moved := false
	for i, r := range res.Rows {
		if c, _ := r.Param("class"); c == "1" && (r.Metric == "u" || r.Metric == "v") {
			if p, _ := r.Param("point"); p == "150" {
				res.Rows[i].Value, moved = 0, true
			}
		}
	}
	if !moved {
		t.Fatal("point 150 of the outer ring not found")
	}
	kittest.WantOutcome(t, "not separable after the map", checkFig2_1, res, verdict.Contradicted)
	// The inner ring moved far to the right: no inner point inside the outer ring's hull.
	res = ringsResults(t, 0)
	for i, r := range res.Rows {
		if c, _ := r.Param("class"); c == "-1" && r.Metric == "x1" {
			res.Rows[i].Value += 10
		}
	}
	kittest.WantOutcome(t, "separable input", checkFig2_1, res, verdict.Contradicted)
}

func TestLinearlySeparable(t *testing.T) {
	sqX, sqY := []float64{-1, 1, 1, -1, 0}, []float64{-1, -1, 1, 1, 0}
	for _, tc := range []struct {
		name   string
		bx, by []float64
		want   bool
	}{
		{"far right", []float64{3, 4, 3.5}, []float64{0, 0, 1}, true},
		{"diagonal corner", []float64{1.6, 3, 3}, []float64{1.6, 1.6, 3}, true},
		{"inside", []float64{0.2}, []float64{0.1}, false},
		{"straddling", []float64{0, 5}, []float64{1.5, 1.5}, true},
		{"crossing", []float64{0, 0}, []float64{-2, 2}, false},
		{"touching a corner", []float64{1, 2}, []float64{1, 2}, false},
	} {
		if got := linearlySeparable(sqX, sqY, tc.bx, tc.by); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// fig2_1 runs end to end at smoke scale and its figure is fit for print: page width, no text below
// 7 pt, a caption beside it (its series are classes and separators, not methods).
func TestFig2_1Smoke(t *testing.T) {
	dir := t.TempDir()
	kittest.RunAndCheck(t, fig2_1(), run.Smoke, dir, true)
	kittest.CheckPrintFigure(t, filepath.Join(dir, "figures"), "fig2_1", map[string]string{})
}
