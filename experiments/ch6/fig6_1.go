package ch6

import (
	"fmt"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// fig6_1Sets are the data sets of thesis Figure 6.1, where OMP does best.
var fig6_1Sets = []string{"kin8nm", "houses", "kr_vs_kp", "steel_plates"}

// fig6_1 — test performance vs pruned size on Kin8nm, California, KR-VS-KP and Steel Plates (thesis
// Figure 6.1), every method but the NN-OMP pair; drawn from fig6_6's runs.
func fig6_1() *run.Experiment {
	return &run.Experiment{
		ID: "fig6_1", Title: "Pruned forests: test score vs pruned size on Kin8nm, California, KR-VS-KP, Steel Plates (thesis Figure 6.1)",
		Source: "thesis Figure 6.1 (§6.3.2)",
		Kind:   run.Figure, Uses: fig6_6(),
		Render: func(res *run.Results, out *run.Output) error {
			return figure(res, out, fig6_1Sets, 4, partTest, "Test MSE or accuracy against the pruned forest's size, every method but the NN-OMP pair (thesis Figure 6.1). Steel Plates has the thesis's columns, which leak the label (fig6_6 adds the leak-free variant).")
		},
		Claims: []run.Claim{
			{
				ID:   "omp-beats-others",
				Kind: run.Finding,
				Text: "OMP beats the other pruning methods on Kin8nm, California, KR-VS-KP and Steel Plates",
				Rule: "per data set and other method (Random, Ensemble, Zhang Predictions, Zhang Similarities, Kmeans), one value per repetition: OMP's test score minus the other's, averaged over the pruned sizes and oriented so that positive is better; one-sided paired t, above 0; family of 20, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					tests, err := family(res, fig6_1Sets, partTest, omp, []string{random, ensemble, zhangPred, zhangSim, kMeans}, everyFraction, beats)
					if err != nil {
						return verdict.Verdict{}, err
					}
					return verdict.Decide(tests, drawNote), nil
				},
			},
			{
				ID:    "omp-beats-full-forest-at-some-size",
				Kind:  run.Finding,
				Text:  "on these data sets OMP beats the full forest at some pruned sizes",
				Rule:  "per data set, one test per pruned size (one-sided paired t of OMP's test score better than the full forest's, one value per repetition); a data set supports if Holm over its sizes rejects at some size, and contradicts if OMP is shown worse at every size (verdict.AnyOf); family of the 4 data sets, Holm at 0.05",
				Check: checkFig6_1FullForest,
			},
			{
				ID:   "weights-help",
				Kind: run.Finding,
				Text: "on these data sets the weights help: OMP beats OMP without weights",
				Rule: "per data set, one value per repetition: OMP's test score minus OMP w/o weights', averaged over the pruned sizes, oriented so that positive is better; one-sided paired t, above 0; family of 4, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					tests, err := family(res, fig6_1Sets, partTest, omp, []string{ompNoWeights}, everyFraction, beats)
					if err != nil {
						return verdict.Verdict{}, err
					}
					return verdict.Decide(tests, drawNote), nil
				},
			},
		},
	}
}

func checkFig6_1FullForest(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, k := range fig6_1Sets {
		cls := classification(res, k)
		var sizes []verdict.Test
		for _, f := range fractions {
			a, b, err := scores(res, k, partTest, omp, methodFull, func(x float64) bool { return x == f })
			if err != nil {
				return verdict.Verdict{}, err
			}
			sizes = append(sizes, beats(fmt.Sprintf("%g%%", 100*f), cls, a, b))
		}
		tests = append(tests, verdict.AnyOf(fmt.Sprintf("%s: OMP vs full forest at some size (test, better > 0)", name(k)), sizes))
	}
	return verdict.Decide(tests, "one value per repetition and size: the paired difference on the same split and forest"), nil
}
