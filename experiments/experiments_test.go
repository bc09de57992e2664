package experiments

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

func TestRegistryPlansEveryScale(t *testing.T) {
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range reg.All() {
		for _, sc := range []run.Scale{run.Smoke, run.Quick, run.Paper} {
			tasks, err := run.TaskKeys(e, sc)
			if err != nil || len(tasks) == 0 {
				t.Errorf("%s at %s: %d tasks, %v", e.ID, sc, len(tasks), err)
			}
		}
	}
}

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
	return rowsOf("fig2_1", rows...)
}

// TestRingsNeedTheFeatureMap checks the property fig2_1 illustrates on fresh seeds, and drives its
// exact check to each verdict it can give.
func TestRingsNeedTheFeatureMap(t *testing.T) {
	for seed := range uint64(5) {
		wantOutcome(t, fmt.Sprintf("seed %d", seed), checkFig2_1, ringsResults(t, seed), verdict.Supported)
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
	wantOutcome(t, "not separable after the map", checkFig2_1, res, verdict.Contradicted)
	// The inner ring moved far to the right: no inner point inside the outer ring's hull.
	res = ringsResults(t, 0)
	for i, r := range res.Rows {
		if c, _ := r.Param("class"); c == "-1" && r.Metric == "x1" {
			res.Rows[i].Value += 10
		}
	}
	wantOutcome(t, "separable input", checkFig2_1, res, verdict.Contradicted)
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

func shapeRows(id string, shapes map[string][2]float64) *run.Results {
	res := &run.Results{ID: id, Scale: run.Smoke}
	for name, nd := range shapes {
		params := []run.Param{run.P("variant", "v")}
		res.Rows = append(res.Rows,
			run.Row{ID: id, Dataset: name, Method: "loaded", Params: params, Metric: metricN, Value: nd[0]},
			run.Row{ID: id, Dataset: name, Method: "loaded", Params: params, Metric: metricD, Value: nd[1]})
	}
	return res
}

func TestDatasetTableClaim(t *testing.T) {
	e := datasetTable("t", "T", "caption", []printedDataset{
		{Name: "A", Dataset: "a", N: 10, D: 3},
		{Name: "G", Dataset: "g", N: 5}, // no printed dimension: d is not compared
		{Name: "L", Dataset: "l", Variant: "leaky", LeakFree: "honest", N: 7, D: 4},
	})
	check := e.Claims[0].Check
	match := shapeRows("t", map[string][2]float64{"a": {10, 3}, "g": {5, 0}, "l": {7, 4}})
	match.Rows = append(match.Rows,
		run.Row{ID: "t", Dataset: "l", Method: methodLeakFree, Params: []run.Param{run.P("variant", "honest")}, Metric: metricN, Value: 7},
		run.Row{ID: "t", Dataset: "l", Method: methodLeakFree, Params: []run.Param{run.P("variant", "honest")}, Metric: metricD, Value: 3})
	wantOutcome(t, "matching shapes", check, match, verdict.Supported)
	if v, _ := check(match); !strings.Contains(v.Evidence, `L: LEAKS THE LABEL (the "leaky" columns the thesis's d comes from); leak-free "honest" variant: 7 × 3 (honest)`) {
		t.Errorf("the leak and the leak-free sizes must be in the evidence: %s", v.Evidence)
	}
	mismatch := shapeRows("t", map[string][2]float64{"a": {9, 4}, "g": {5, 0}, "l": {7, 4}})
	wantOutcome(t, "mismatch", check, mismatch, verdict.Contradicted)
	if v, _ := check(mismatch); !strings.Contains(v.Evidence, "A (9 × 4 here, thesis 10 × 3): sizes that differ: 2") || !strings.Contains(v.Evidence, "G (5 × — here, thesis 5 × —): sizes that differ: 0") {
		t.Errorf("evidence: %s", v.Evidence)
	}
	if _, err := check(shapeRows("t", map[string][2]float64{"a": {10, 3}})); err == nil {
		t.Fatal("a data set without results must make the check fail to run")
	}
	// A data set whose printed n counts something else cannot be compared.
	e = datasetTable("t", "T", "caption", []printedDataset{
		{Name: "A", Dataset: "a", N: 10, D: 3},
		{Name: "P", Dataset: "p", N: 100, D: 2, NotComparable: "the thesis counts images, not pairs"},
	})
	wantOutcome(t, "not comparable", e.Claims[0].Check, shapeRows("t", map[string][2]float64{"a": {10, 3}, "p": {20, 2}}), verdict.Inconclusive)
	if got := matchText(true, 20, 2, "", printedDataset{N: 100, D: 2, NotComparable: "x"}); got != "n not comparable (see note)" {
		t.Errorf("matchText, not comparable: %q", got)
	}
	// The mirror's partial Covertype cannot decide the thesis's n; a printed d that counts the
	// label is compared with the features plus one.
	e = datasetTable("t", "T", "caption", []printedDataset{
		{Name: "Covertype", Dataset: "covtype", N: 581012, D: 54},
		{Name: "Adult", Dataset: "adult", N: 48842, D: 15, DCountsLabel: true},
	})
	partial := shapeRows("t", map[string][2]float64{"adult": {48842, 14}})
	cov := []run.Param{run.P("variant", "subset-31220")}
	partial.Rows = append(partial.Rows,
		run.Row{ID: "t", Dataset: "covtype", Method: "loaded", Params: cov, Metric: metricN, Value: 31220},
		run.Row{ID: "t", Dataset: "covtype", Method: "loaded", Params: cov, Metric: metricD, Value: 54})
	wantOutcome(t, "partial Covertype, Adult's label counted", e.Claims[0].Check, partial, verdict.Inconclusive)
	full := shapeRows("t", map[string][2]float64{"adult": {48842, 14}, "covtype": {581012, 54}})
	wantOutcome(t, "full Covertype, Adult's label counted", e.Claims[0].Check, full, verdict.Supported)
	wrongD := shapeRows("t", map[string][2]float64{"adult": {48842, 15}, "covtype": {581012, 54}})
	wantOutcome(t, "Adult with one column too many", e.Claims[0].Check, wrongD, verdict.Contradicted)
	if got := matchText(true, 31220, 54, "subset-31220", printedDataset{Dataset: "covtype", N: 581012, D: 54}); got != "n not comparable (partial copy)" {
		t.Errorf("matchText, partial copy: %q", got)
	}
}

// fig2_1 runs end to end at smoke scale and its figure is fit for print: page width, no text below
// 7 pt, a caption beside it (its series are classes and separators, not methods).
func TestFig2_1Smoke(t *testing.T) {
	dir := t.TempDir()
	runAndCheck(t, fig2_1(), run.Smoke, dir, true)
	checkPrintFigure(t, filepath.Join(dir, "figures"), "fig2_1", map[string]string{})
}
