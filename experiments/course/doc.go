// Package course reproduces the figures of three course documents: the course report on SVD, Nyström,
// BKA and MEKA (perrin_fig1–3), the notes on random features and Nyström (notes_fig_*) and the
// lecture on random features and kernel PCA (lecture_fig_*).
//
// Each experiment is defined in the file named after its catalogue ID (docs/catalogue.md), with its
// plan, its renderer and the source's claims checked against its results; [Experiments] lists them.
package course

import "github.com/fastkernels/kernellab/lab/run"

// Experiments returns this source's experiments in catalogue order: [Report], then [NotesAndLecture].
func Experiments() []*run.Experiment {
	return append(Report(), NotesAndLecture()...)
}

// Report returns the course report's experiments (perrin_fig1–3).
func Report() []*run.Experiment {
	return []*run.Experiment{perrinFig1(), perrinFig2(), perrinFig3()}
}

// NotesAndLecture returns the experiments of the notes (notes_fig_*) and of the lecture
// (lecture_fig_*), two short documents on the same material that the claims report counts together.
func NotesAndLecture() []*run.Experiment {
	return []*run.Experiment{notesFigRFF(), notesFigNystrom(), lectureFigRFF(), lectureFigKPCA()}
}
