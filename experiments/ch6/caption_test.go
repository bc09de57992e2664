package ch6

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
)

// withForests sets the initial forest of repetition rep on every data set of res to T[rep].
func withForests(res *run.Results, T []int) {
	for i, r := range res.Rows {
		if r.Metric == metricForestSize {
			res.Rows[i].Value = float64(T[r.Rep%len(T)])
		}
	}
}

func TestDistinctFractionsDropRepeatedForests(t *testing.T) {
	zero := func(string, string, string, float64, int) float64 { return 0 }
	for _, c := range []struct {
		T          []int
		drawn, out []float64
	}{
		// T = 25: 1%, 2.5% and 5% are round(0.25), round(0.625), round(1.25) → one tree each.
		{[]int{100, 25}, []float64{0.01, 0.1, 0.15, 0.2, 0.3}, []float64{0.025, 0.05}},
		// T = 50: 1% and 2.5% are one tree, 5% is round(2.5) = 3.
		{[]int{50, 200}, []float64{0.01, 0.05, 0.1, 0.15, 0.2, 0.3}, []float64{0.025}},
		// T = 100: 1, 3, 5, 10, 15, 20, 30 trees.
		{[]int{100}, fractions, nil},
	} {
		res := synthetic(zero, 0, noNegatives, 0, 0)
		withForests(res, c.T)
		drawn, out, err := distinctFractions(res, "kin8nm")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(drawn, c.drawn) || !slices.Equal(out, c.out) {
			t.Errorf("T = %v: drawn %v, left out %v; want %v and %v", c.T, drawn, out, c.drawn, c.out)
		}
		text, err := runsText(res, []string{"kin8nm"})
		if err != nil {
			t.Fatal(err)
		}
		if (len(c.out) > 0) != strings.Contains(text, "Not drawn") {
			t.Errorf("T = %v: runs text %q", c.T, text)
		}
	}
	if _, _, err := distinctFractions(&run.Results{ID: "fig6_6"}, "kin8nm"); err == nil {
		t.Error("no forest size: no error")
	}
}

func TestComparisonNamesTheBestMethod(t *testing.T) {
	// OMP w/o weights 0.05 better than every other method on test, at every size: on the
	// classification sets its mean accuracy is 0.8 + 0.05, on the regression sets its MSE 0.5 − 0.05.
	res := synthetic(favour(ompNoWeights, partTest, 0.05), 0, noNegatives, 0, 0)
	s, err := comparison(res, fig6_2Sets, partTest)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"that of OMP w/o weights on Diamonds (MSE 0.45), LFW pairs (accuracy 0.85), Gamma (accuracy 0.85) and Spambase (accuracy 0.85)",
		"OMP w/o weights' mean beats OMP's on all 4 data sets",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("comparison = %q, want it to contain %q", s, want)
		}
	}
}

func TestFig6_6ResultCountsStops(t *testing.T) {
	// NN-OMP stops at 20 of 100 trees in every repetition, 0.2 worse than the full forest there:
	// outside the margin everywhere.
	res := synthetic(func(string, string, string, float64, int) float64 { return 0 }, 0, noNegatives, 20, -0.2)
	s, err := fig6_6Result(res)
	if err != nil {
		t.Fatal(err)
	}
	runs := 6 * len(thesisKeys())
	for _, want := range []string{
		fmt.Sprintf("stopped by itself in %d of %d runs", runs, runs),
		"on average at 20% of the initial forest.",
		"of the full forest's on 0 of them (not on Kin8nm,",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("fig6_6Result = %q, want it to contain %q", s, want)
		}
	}
}

func TestNearConstantUsesTheClaimsMargins(t *testing.T) {
	for _, c := range []struct {
		cls    bool
		scores []float64
		want   bool
	}{
		{true, []float64{0.995, 0.999, 1}, true},      // 0.5 accuracy point
		{true, []float64{0.97, 0.99, 1}, false},       // 3 points
		{false, []float64{-0.50, -0.52}, true},        // MSE ratio 1.04
		{false, []float64{-0.50, -0.6, -0.55}, false}, // MSE ratio 1.2
	} {
		if got := nearConstant(c.cls, c.scores); got != c.want {
			t.Errorf("nearConstant(%v, %v) = %v, want %v", c.cls, c.scores, got, c.want)
		}
	}
}
