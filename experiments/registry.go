package experiments

import (
	"slices"

	"github.com/fastkernels/kernellab/experiments/ch2"
	"github.com/fastkernels/kernellab/experiments/ch3"
	"github.com/fastkernels/kernellab/experiments/ch4"
	"github.com/fastkernels/kernellab/experiments/ch5"
	"github.com/fastkernels/kernellab/experiments/ch6"
	"github.com/fastkernels/kernellab/experiments/course"
	"github.com/fastkernels/kernellab/experiments/slides"
	"github.com/fastkernels/kernellab/lab/run"
)

// Registry returns every registered experiment, validated, in catalogue order: the thesis's
// chapters, then the course documents, then the slides.
func Registry() (*run.Registry, error) {
	return run.NewRegistry(slices.Concat(
		ch2.Experiments(),
		ch3.Experiments(),
		ch4.Experiments(),
		ch5.Experiments(),
		ch6.Experiments(),
		course.Experiments(),
		slides.Experiments(),
	)...)
}
