package experiments

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
			return ch6Figure(res, out, fig6_1Sets, 4, ch6Test, "Pruned random forests on Kin8nm, California, KR-VS-KP and Steel Plates (thesis Figure 6.1): test MSE (regression) or accuracy (classification) against the pruned forest's size, for every method but the NN-OMP pair. Steel Plates uses the thesis's columns, which leak the label (fig6_6 shows the leak-free variant).")
		},
		Claims: []run.Claim{
			{
				ID:   "omp-beats-others",
				Text: "OMP beats the other pruning methods on Kin8nm, California, KR-VS-KP and Steel Plates",
				Rule: "per data set and other method (Random, Ensemble, Zhang Predictions, Zhang Similarities, Kmeans), one value per repetition: OMP's test score minus the other's, averaged over the pruned sizes and oriented so that positive is better; one-sided paired t, above 0; family of 20, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					tests, err := ch6Family(res, fig6_1Sets, ch6Test, ch6OMP, []string{ch6Random, ch6Ensemble, ch6ZhangPred, ch6ZhangSim, ch6KMeans}, ch6EveryFraction, ch6Beats)
					if err != nil {
						return verdict.Verdict{}, err
					}
					return verdict.Decide(tests, ch6DrawNote), nil
				},
			},
			{
				ID:    "omp-beats-full-forest-at-some-size",
				Text:  "on these data sets OMP beats the full forest at some pruned sizes",
				Rule:  "per data set, one test per pruned size (one-sided paired t of OMP's test score better than the full forest's, one value per repetition); a data set supports if Holm over its sizes rejects at some size, and contradicts if OMP is shown worse at every size (run.AnyOf); family of the 4 data sets, Holm at 0.05",
				Check: checkFig6_1FullForest,
			},
			{
				ID:   "weights-help",
				Text: "on these data sets the weights help: OMP beats OMP without weights",
				Rule: "per data set, one value per repetition: OMP's test score minus OMP w/o weights', averaged over the pruned sizes, oriented so that positive is better; one-sided paired t, above 0; family of 4, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					tests, err := ch6Family(res, fig6_1Sets, ch6Test, ch6OMP, []string{ch6OMPNoWeights}, ch6EveryFraction, ch6Beats)
					if err != nil {
						return verdict.Verdict{}, err
					}
					return verdict.Decide(tests, ch6DrawNote), nil
				},
			},
		},
	}
}

func checkFig6_1FullForest(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, k := range fig6_1Sets {
		var sizes []verdict.Test
		for _, f := range ch6Fractions {
			d, err := ch6Diffs(res, k, ch6Test, ch6OMP, ch6Full, func(x float64) bool { return x == f })
			if err != nil {
				return verdict.Verdict{}, err
			}
			sizes = append(sizes, ch6Beats(fmt.Sprintf("%g%%", 100*f), d))
		}
		tests = append(tests, verdict.AnyOf(fmt.Sprintf("%s: OMP vs full forest at some size (test, better > 0)", ch6Name(k)), sizes))
	}
	return verdict.Decide(tests, "one value per repetition and size: the paired difference on the same split and forest"), nil
}

// ch6Figure renders a chapter-6 figure of test (or fit) scores on the data sets keys, cols panels to
// a row, every method but the NN-OMP pair, with its caption: lead, then the set-up and the runs.
func ch6Figure(res *run.Results, out *run.Output, keys []string, cols int, part, lead string) error {
	if err := ch6Grid(out, res, keys, cols, part, ch6Baselines, false); err != nil {
		return err
	}
	return writeCaption(out, res, lead+" "+ch6SetUpText(res.Scale)+" Runs (those of fig6_6): "+ch6SetUp(res, keys)+".")
}
