package ch6

import (
	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// fig6_4 — performance on the data the weights were learnt on (train+validation) for Diabetes,
// Boston and Breast Cancer (thesis Figure 6.4); drawn from fig6_6's runs.
func fig6_4() *run.Experiment {
	return &run.Experiment{
		ID: "fig6_4", Title: "Pruned forests: score on the pruning data vs pruned size on Diabetes, Boston, Breast Cancer (thesis Figure 6.4)",
		Source: "thesis Figure 6.4 (§6.3.2)",
		Kind:   run.Figure, Uses: fig6_6(),
		Render: func(res *run.Results, out *run.Output) error {
			return figure(res, out, fig6_3Sets, 3, partFit, "MSE or accuracy on the train+validation rows the forests were pruned and weighted on (thesis Figure 6.4, whose \"validation\" is the data the weights were learnt on) against the pruned forest's size, every method but the NN-OMP pair. The trees were grown on train, so the full forest's score is partly in-sample.")
		},
		Claims: []run.Claim{{
			ID:   "omp-best-on-fit-data",
			Kind: run.Finding,
			Text: "OMP is very good on the data it was fitted on: on Diabetes, Boston and Breast Cancer it beats every other method there (overfitting explains fig6_3)",
			Rule: "per data set and other method (OMP w/o weights, Random, Ensemble, Zhang Predictions, Zhang Similarities, Kmeans), one value per repetition: OMP's train+validation score minus the other's, averaged over the pruned sizes, oriented so that positive is better; one-sided paired t, above 0; family of 18, Holm at 0.05",
			Check: func(res *run.Results) (verdict.Verdict, error) {
				tests, err := family(res, fig6_3Sets, partFit, omp, kit.Without(baselines, omp), everyFraction, beats)
				if err != nil {
					return verdict.Verdict{}, err
				}
				return verdict.Decide(tests, drawNote), nil
			},
		}},
	}
}
