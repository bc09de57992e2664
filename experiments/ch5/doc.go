// Package ch5 reproduces the thesis's chapter 5 (Frank-Wolfe for sparse signals): figure 5.1.
//
// Each experiment is defined in the file named after its catalogue ID (docs/catalogue.md), with its
// plan, its renderer and the source's claims checked against its results; [Experiments] lists them.
package ch5

import "github.com/fastkernels/kernellab/lab/run"

// Experiments returns this source's experiments in catalogue order.
func Experiments() []*run.Experiment {
	return []*run.Experiment{
		fig5_1(),
	}
}
