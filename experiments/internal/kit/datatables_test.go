package kit

import (
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

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
	e := DatasetTable("t", "T", "caption", []PrintedDataset{
		{Name: "A", Dataset: "a", N: 10, D: 3},
		{Name: "G", Dataset: "g", N: 5}, // no printed dimension: d is not compared
		{Name: "L", Dataset: "l", Variant: "leaky", LeakFree: "honest", N: 7, D: 4},
	})
	check := e.Claims[0].Check
	match := shapeRows("t", map[string][2]float64{"a": {10, 3}, "g": {5, 0}, "l": {7, 4}})
	match.Rows = append(match.Rows,
		run.Row{ID: "t", Dataset: "l", Method: methodLeakFree, Params: []run.Param{run.P("variant", "honest")}, Metric: metricN, Value: 7},
		run.Row{ID: "t", Dataset: "l", Method: methodLeakFree, Params: []run.Param{run.P("variant", "honest")}, Metric: metricD, Value: 3})
	kittest.WantOutcome(t, "matching shapes", check, match, verdict.Supported)
	if v, _ := check(match); !strings.Contains(v.Evidence, `L: LEAKS THE LABEL (the "leaky" columns the thesis's d comes from); leak-free "honest" variant: 7 × 3 (honest)`) {
		t.Errorf("the leak and the leak-free sizes must be in the evidence: %s", v.Evidence)
	}
	mismatch := shapeRows("t", map[string][2]float64{"a": {9, 4}, "g": {5, 0}, "l": {7, 4}})
	kittest.WantOutcome(t, "mismatch", check, mismatch, verdict.Contradicted)
	if v, _ := check(mismatch); !strings.Contains(v.Evidence, "A (9 × 4 here, thesis 10 × 3): sizes that differ: 2") || !strings.Contains(v.Evidence, "G (5 × — here, thesis 5 × —): sizes that differ: 0") {
		t.Errorf("evidence: %s", v.Evidence)
	}
	if _, err := check(shapeRows("t", map[string][2]float64{"a": {10, 3}})); err == nil {
		t.Fatal("a data set without results must make the check fail to run")
	}
	// A data set whose printed n counts something else cannot be compared.
	e = DatasetTable("t", "T", "caption", []PrintedDataset{
		{Name: "A", Dataset: "a", N: 10, D: 3},
		{Name: "P", Dataset: "p", N: 100, D: 2, NotComparable: "the thesis counts images, not pairs"},
	})
	kittest.WantOutcome(t, "not comparable", e.Claims[0].Check, shapeRows("t", map[string][2]float64{"a": {10, 3}, "p": {20, 2}}), verdict.Inconclusive)
	if got := matchText(true, 20, 2, "", PrintedDataset{N: 100, D: 2, NotComparable: "x"}); got != "n not comparable (see note)" {
		t.Errorf("matchText, not comparable: %q", got)
	}
	// The mirror's partial Covertype cannot decide the thesis's n; a printed d that counts the
	// label is compared with the features plus one.
	e = DatasetTable("t", "T", "caption", []PrintedDataset{
		{Name: "Covertype", Dataset: "covtype", N: 581012, D: 54},
		{Name: "Adult", Dataset: "adult", N: 48842, D: 15, DCountsLabel: true},
	})
	partial := shapeRows("t", map[string][2]float64{"adult": {48842, 14}})
	cov := []run.Param{run.P("variant", "subset-31220")}
	partial.Rows = append(partial.Rows,
		run.Row{ID: "t", Dataset: "covtype", Method: "loaded", Params: cov, Metric: metricN, Value: 31220},
		run.Row{ID: "t", Dataset: "covtype", Method: "loaded", Params: cov, Metric: metricD, Value: 54})
	kittest.WantOutcome(t, "partial Covertype, Adult's label counted", e.Claims[0].Check, partial, verdict.Inconclusive)
	full := shapeRows("t", map[string][2]float64{"adult": {48842, 14}, "covtype": {581012, 54}})
	kittest.WantOutcome(t, "full Covertype, Adult's label counted", e.Claims[0].Check, full, verdict.Supported)
	wrongD := shapeRows("t", map[string][2]float64{"adult": {48842, 15}, "covtype": {581012, 54}})
	kittest.WantOutcome(t, "Adult with one column too many", e.Claims[0].Check, wrongD, verdict.Contradicted)
	if got := matchText(true, 31220, 54, "subset-31220", PrintedDataset{Dataset: "covtype", N: 581012, D: 54}); got != "n not comparable (partial copy)" {
		t.Errorf("matchText, partial copy: %q", got)
	}
}
