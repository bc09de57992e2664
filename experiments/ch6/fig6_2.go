package ch6

import (
	"fmt"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// fig6_2Sets are the data sets of thesis Figure 6.2, where OMP w/o weights does well.
var fig6_2Sets = []string{"diamonds", "lfw_pairs", "gamma", "spambase"}

// fig6_2 — test performance vs pruned size on Diamonds, LFW pairs, Gamma and Spambase (thesis
// Figure 6.2); drawn from fig6_6's runs. It also carries the chapter's claims on the baselines over
// all 11 data sets.
func fig6_2() *run.Experiment {
	return &run.Experiment{
		ID: "fig6_2", Title: "Pruned forests: test score vs pruned size on Diamonds, LFW pairs, Gamma, Spambase (thesis Figure 6.2)",
		Source: "thesis Figure 6.2 (§6.3.2)",
		Kind:   run.Figure, Uses: fig6_6(),
		Render: func(res *run.Results, out *run.Output) error {
			return figure(res, out, fig6_2Sets, 4, partTest, "Test MSE or accuracy against the pruned forest's size, every method but the NN-OMP pair (thesis Figure 6.2). Gamma has the thesis's columns, whose ID column leaks the label (fig6_6 adds the leak-free variant).")
		},
		Claims: []run.Claim{
			{
				ID:   "omp-unweighted-at-least-as-good",
				Kind: run.Finding,
				Text: "on Diamonds, LFW pairs, Gamma and Spambase OMP w/o weights is at least as good as the other methods",
				Rule: fmt.Sprintf("per data set and other method (OMP, Random, Ensemble, Zhang Predictions, Zhang Similarities, Kmeans), one value per repetition of each method's test score averaged over the pruned sizes; non-inferiority of OMP w/o weights: "+
					"on LFW pairs, Gamma and Spambase its accuracy minus the other's above −%g, on Diamonds its MSE over the other's below %g (%s); family of 24, Holm at 0.05", accuracyMargin, mseFactor, marginRule),
				Check: func(res *run.Results) (verdict.Verdict, error) {
					tests, err := family(res, fig6_2Sets, partTest, ompNoWeights, kit.Without(baselines, ompNoWeights), everyFraction, atLeastAsGood)
					if err != nil {
						return verdict.Verdict{}, err
					}
					return verdict.Decide(tests, drawNote), nil
				},
			},
			{
				ID:   "ensemble-strong-regression-weak-classification",
				Kind: run.Finding,
				Text: "Ensemble is strong in regression and weak in classification: it beats Random on the regression data sets and does worse than OMP on the classification ones (the thesis: « très mauvaises performances sur des problèmes de classification binaire par rapport à OMP »)",
				Rule: "per data set of the 11, one value per repetition, averaged over the pruned sizes, oriented so that positive is better: on the 5 regression sets Ensemble's test score minus Random's, one-sided paired t above 0; on the 6 classification sets Ensemble's minus OMP's (the method the thesis compares it with there), below 0; family of 11, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					var tests []verdict.Test
					for _, k := range thesisKeys() {
						test, against := beats, random
						if classification(res, k) {
							test, against = worse, omp
						}
						t, err := family(res, []string{k}, partTest, ensemble, []string{against}, everyFraction, test)
						if err != nil {
							return verdict.Verdict{}, err
						}
						tests = append(tests, t...)
					}
					return verdict.Decide(tests, drawNote), nil
				},
			},
			{
				ID:   "zhang-kmeans-hardly-beat-random",
				Kind: run.Finding,
				Text: "Zhang's two methods and Kmeans hardly beat Random: by at most one accuracy point, or 10% of Random's MSE, on every data set (the thesis: « elles ont même du mal à être aussi performantes que la sélection aléatoire »)",
				Rule: fmt.Sprintf("per data set of the 11 and method (Zhang Predictions, Zhang Similarities, Kmeans), one value per repetition of each method's test score averaged over the pruned sizes: "+
					"on the 6 classification sets the method's accuracy minus Random's below +%g, on the 5 regression sets its MSE over Random's above 1/%g = %.3g, contradicted if shown beyond (%s); family of 33, Holm at 0.05", accuracyMargin, mseFactor, 1/mseFactor, marginRule),
				Check: func(res *run.Results) (verdict.Verdict, error) {
					var tests []verdict.Test
					for _, m := range []string{zhangPred, zhangSim, kMeans} {
						t, err := family(res, thesisKeys(), partTest, m, []string{random}, everyFraction, hardlyBetter)
						if err != nil {
							return verdict.Verdict{}, err
						}
						tests = append(tests, t...)
					}
					return verdict.Decide(tests, drawNote), nil
				},
			},
		},
	}
}
