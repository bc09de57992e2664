// Package ch3 reproduces the thesis's chapter 3 (Nyström approximation with ridge-leverage-score
// sampling, incl. DAC-RLS): figures 3.1–3.5 and table 3.1.
//
// Each experiment is defined in the file named after its catalogue ID (docs/catalogue.md), with its
// plan, its renderer and the source's claims checked against its results; [Experiments] lists them.
package ch3

import "github.com/fastkernels/kernellab/lab/run"

// Experiments returns this source's experiments in catalogue order.
func Experiments() []*run.Experiment {
	return []*run.Experiment{
		fig3_1(),
		table3_1(),
		fig3_2(),
		fig3_3(),
		fig3_4(),
		fig3_5(),
	}
}
