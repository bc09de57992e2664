// Package ch6 reproduces the thesis's chapter 6 (random-forest pruning with OMP): table 6.1 and
// figures 6.1–6.6.
//
// Each experiment is defined in the file named after its catalogue ID (docs/catalogue.md), with its
// plan, its renderer and the source's claims checked against its results; [Experiments] lists them.
package ch6

import "github.com/fastkernels/kernellab/lab/run"

// Experiments returns this source's experiments in catalogue order.
func Experiments() []*run.Experiment {
	return []*run.Experiment{
		table6_1(),
		fig6_1(),
		fig6_2(),
		fig6_3(),
		fig6_4(),
		fig6_5(),
		fig6_6(),
	}
}
