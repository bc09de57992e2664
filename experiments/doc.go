// Package experiments holds the catalogue (../shared/FIGURES.md in the project's notes): one file per
// figure or table ID, each defining a run.Experiment with its plan, its renderer and the thesis's claims
// checked against its own results. Registry returns them all; cmd/lab, reproduce.sh and the notebooks use it.
//
// Constructor names keep the catalogue IDs (fig3_1, table3_1, ...) so that every figure in figures/ can be
// traced to exactly one function here.
package experiments
