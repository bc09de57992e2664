// Package slides reproduces the slides on randomized, sparse and Bayesian PCA with their KNN and
// topic-model experiments: slides_table1–3 and slides_fig1–2.
//
// Each experiment is defined in the file named after its catalogue ID (docs/catalogue.md), with its
// plan, its renderer and the source's claims checked against its results; [Experiments] lists them.
package slides

import "github.com/fastkernels/kernellab/lab/run"

// Experiments returns this source's experiments in catalogue order.
func Experiments() []*run.Experiment {
	return []*run.Experiment{
		table1(),
		fig1(),
		fig2(),
		table2(),
		table3(),
	}
}
