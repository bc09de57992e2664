package main

import (
	"path/filepath"

	"github.com/fastkernels/kernellab/lab/run"
)

// layout is where the checkout keeps what lab reads and writes by default: the one place in the
// program that knows the repository's folders (lab/run knows only the files of a results root).
// Under the root:
//
//	results/                     a user's results root (--results, --into; git-ignored)
//	results/<scale>/figures/     that run's figures, tables, CLAIMS.md and gallery (--figures)
//	figures/                     the committed outputs of quick scale, rewritten only with --update-reference
//	figures/paper/               the committed outputs of paper scale
//	figures/results/<scale>/     the committed reference results behind them (lab diff compares with these)
type layout struct{ root string }

// checkout is the layout lab works in: the working directory is the repository root, and paths
// stay relative to it, as they appear in messages and in the committed claims reports.
var checkout = layout{root: "."}

// results is the default results root.
func (l layout) results() string { return filepath.Join(l.root, "results") }

// figures is where a run at sc writes its figures, tables, claims report and gallery by default,
// <results>/<scale>/figures beside its tidy results: a user's run stays in its own results root
// and never rewrites the committed outputs (committedFigures). lab/notebook renders to the same
// folder (notebook.Session.FiguresDir).
func (l layout) figures(results string, sc run.Scale) string {
	return filepath.Join(results, string(sc), "figures")
}

// committed is the tree of committed outputs, which no run writes into without --update-reference.
func (l layout) committed() string { return filepath.Join(l.root, "figures") }

// committedFigures is where the committed outputs of sc live: figures/ for quick and
// figures/paper/ for paper; ok is false for smoke, whose outputs are never committed.
func (l layout) committedFigures(sc run.Scale) (dir string, ok bool) {
	switch sc {
	case run.Quick:
		return l.committed(), true
	case run.Paper:
		return filepath.Join(l.committed(), "paper"), true
	}
	return "", false
}

// referenceRoot is the results root of the committed reference results: the tidy results behind
// the committed figures, figures/results/<scale>.
func (l layout) referenceRoot() string { return filepath.Join(l.committed(), "results") }

// reference is where the committed reference results of sc live, rewritten only by an unsharded
// `lab run` or a `lab render` at that scale with --update-reference.
func (l layout) reference(sc run.Scale) string { return filepath.Join(l.referenceRoot(), string(sc)) }
