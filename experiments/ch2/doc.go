// Package ch2 reproduces the thesis's chapter 2 (kernel methods): figure 2.1, the feature map that makes
// two rings linearly separable.
//
// Each experiment is defined in the file named after its catalogue ID (docs/catalogue.md), with its
// plan, its renderer and the source's claims checked against its results; [Experiments] lists them.
package ch2

import "github.com/fastkernels/kernellab/lab/run"

// Experiments returns this source's experiments in catalogue order.
func Experiments() []*run.Experiment {
	return []*run.Experiment{
		fig2_1(),
	}
}
