// Package ch4 reproduces the thesis's chapter 4 (discrete RKHS and Nyström-MMD two-sample tests):
// figure 4.1 (a discrete distribution in the RKHS), table 4.1 and figures 4.2–4.5.
//
// Each experiment is defined in the file named after its catalogue ID (docs/catalogue.md), with its
// plan, its renderer and the source's claims checked against its results; [Experiments] lists them.
package ch4

import "github.com/fastkernels/kernellab/lab/run"

// Experiments returns this source's experiments in catalogue order.
func Experiments() []*run.Experiment {
	return []*run.Experiment{
		fig4_1(),
		table4_1(),
		fig4_2(),
		fig4_3(),
		fig4_4(),
		fig4_5(),
	}
}
