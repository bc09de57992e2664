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

// Document is one source document of the catalogue (a chapter of the thesis counts as one) and the
// IDs of its entries.
type Document struct {
	Name string
	IDs  []string
}

// Documents lists the source documents in the order the claims report's headline counts them:
// the thesis's chapters 2 to 6, the course report, the notes and lecture, the student slides.
// Every registered experiment belongs to exactly one.
func Documents() []Document {
	docs := []struct {
		name string
		exps []*run.Experiment
	}{
		{"Thesis, chapter 2", ch2.Experiments()},
		{"Thesis, chapter 3", ch3.Experiments()},
		{"Thesis, chapter 4", ch4.Experiments()},
		{"Thesis, chapter 5", ch5.Experiments()},
		{"Thesis, chapter 6", ch6.Experiments()},
		{"Course report", course.Report()},
		{"Notes and lecture", course.NotesAndLecture()},
		{"Student slides", slides.Experiments()},
	}
	out := make([]Document, len(docs))
	for i, d := range docs {
		out[i].Name = d.name
		for _, e := range d.exps {
			out[i].IDs = append(out[i].IDs, e.ID)
		}
	}
	return out
}
