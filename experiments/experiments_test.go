package experiments

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
)

func TestRegistryPlansEveryScale(t *testing.T) {
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range reg.All() {
		for _, sc := range []run.Scale{run.Smoke, run.Quick, run.Paper} {
			tasks, err := e.Plan(sc)
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

// TestRingsNeedTheFeatureMap checks the property fig2_1 illustrates on fresh seeds.
func TestRingsNeedTheFeatureMap(t *testing.T) {
	for seed := range uint64(5) {
		recs, err := ringsRecords(rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		acc := map[string]float64{}
		for _, r := range recs {
			if r.Metric == "accuracy" {
				acc[r.Method] = r.Value
			}
		}
		if acc["linear-feature"] < 0.99 || acc["linear-input"] > 0.75 {
			t.Errorf("seed %d: accuracies %v", seed, acc)
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
	})
	check := e.Claims[0].Check
	v, err := check(shapeRows("t", map[string][2]float64{"a": {10, 3}, "g": {5, 0}}))
	if err != nil || !(v.Outcome == run.Supported) {
		t.Fatalf("matching shapes: %+v, %v", v, err)
	}
	v, err = check(shapeRows("t", map[string][2]float64{"a": {9, 4}, "g": {5, 7}}))
	if err != nil || (v.Outcome == run.Supported) || !strings.Contains(v.Evidence, "A: NO (n 9 vs 10, d 4 vs 3)") || strings.Contains(v.Evidence, "G") {
		t.Fatalf("mismatch: %+v, %v", v, err)
	}
	if _, err := check(shapeRows("t", map[string][2]float64{"a": {10, 3}})); err == nil {
		t.Fatal("a data set without results must make the check fail to run")
	}
}
