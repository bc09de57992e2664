// Package experiments holds the catalogue (docs/catalogue.md): one package per source document,
// each experiment in the file named after its catalogue ID, defining a run.Experiment with its
// plan, its renderer and the source's claims checked against its own results.
//
//   - ch2 … ch6: the thesis's chapters 2 to 6;
//   - course: the course report (perrin_fig1–3), the notes (notes_fig_*) and the lecture
//     (lecture_fig_*);
//   - slides: the slides on randomized, sparse and Bayesian PCA;
//   - internal/kit: what they share (curves, data set tables, splits, metric names).
//
// Registry returns them all in catalogue order; cmd/lab, reproduce.sh and the notebooks use it.
// Constructor names keep the catalogue IDs (fig3_1, table3_1, ...) so that every figure in figures/
// can be traced to exactly one function.
package experiments
