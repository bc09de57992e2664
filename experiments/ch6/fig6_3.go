package ch6

import (
	"fmt"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// fig6_3Sets are the small data sets of thesis Figures 6.3 and 6.4, where OMP's weights overfit.
var fig6_3Sets = []string{"diabetes", "boston", "breast_cancer"}

// fig6_3 — test performance vs pruned size on Diabetes, Boston and Breast Cancer (thesis Figure
// 6.3); drawn from fig6_6's runs.
func fig6_3() *run.Experiment {
	return &run.Experiment{
		ID: "fig6_3", Title: "Pruned forests: test score vs pruned size on Diabetes, Boston, Breast Cancer (thesis Figure 6.3)",
		Source: "thesis Figure 6.3 (§6.3.2)",
		Kind:   run.Figure, Uses: fig6_6(),
		Render: func(res *run.Results, out *run.Output) error {
			return figure(res, out, fig6_3Sets, 3, partTest, "Test MSE or accuracy against the pruned forest's size, every method but the NN-OMP pair (thesis Figure 6.3).")
		},
		Claims: []run.Claim{
			{
				ID:   "no-method-beats-random",
				Kind: run.Finding,
				Text: "on Diabetes, Boston and Breast Cancer no method beats Random (by more than one accuracy point, or 10% of Random's MSE)",
				Rule: fmt.Sprintf("per data set and method (OMP, OMP w/o weights, Ensemble, Zhang Predictions, Zhang Similarities, Kmeans), one value per repetition of each method's test score averaged over the pruned sizes: "+
					"on Breast Cancer the method's accuracy minus Random's below +%g, on Diabetes and Boston its MSE over Random's above 1/%g = %.3g, contradicted if shown beyond (%s); family of 18, Holm at 0.05", accuracyMargin, mseFactor, 1/mseFactor, marginRule),
				Check: func(res *run.Results) (verdict.Verdict, error) {
					var tests []verdict.Test
					for _, m := range kit.Without(baselines, random) {
						t, err := family(res, fig6_3Sets, partTest, m, []string{random}, everyFraction, hardlyBetter)
						if err != nil {
							return verdict.Verdict{}, err
						}
						tests = append(tests, t...)
					}
					return verdict.Decide(tests, drawNote), nil
				},
			},
			{
				ID:   "omp-weights-overfit",
				Kind: run.Finding,
				Text: "on these data sets OMP's weights overfit: OMP does worse on test than OMP w/o weights",
				Rule: "per data set, one value per repetition: OMP's test score minus OMP w/o weights', averaged over the pruned sizes, oriented so that positive is better; one-sided paired t, below 0; family of 3, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					tests, err := family(res, fig6_3Sets, partTest, omp, []string{ompNoWeights}, everyFraction, worse)
					if err != nil {
						return verdict.Verdict{}, err
					}
					return verdict.Decide(tests, drawNote), nil
				},
			},
		},
	}
}
