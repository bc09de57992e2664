package main

import (
	"path/filepath"
	"testing"

	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/run"
)

func TestLayout(t *testing.T) {
	l := layout{root: "repo"}
	for _, c := range []struct{ got, want string }{
		{l.results(), "repo/results"},
		{l.figures("res", run.Smoke), "res/smoke/figures"},
		{l.committed(), "repo/figures"},
		{l.referenceRoot(), "repo/figures/results"},
		{l.reference(run.Paper), "repo/figures/results/paper"},
	} {
		if c.got != filepath.FromSlash(c.want) {
			t.Errorf("%s, want %s", c.got, c.want)
		}
	}
	for sc, want := range map[run.Scale]string{run.Quick: "repo/figures", run.Paper: "repo/figures/paper", run.Smoke: ""} {
		if got, ok := l.committedFigures(sc); got != filepath.FromSlash(want) || ok != (want != "") {
			t.Errorf("committedFigures(%s) = %q, %v", sc, got, ok)
		}
	}
	// The checkout's paths stay relative: they appear as they are in the committed claims reports.
	if got := checkout.reference(run.Quick); got != filepath.FromSlash("figures/results/quick") {
		t.Errorf("checkout reference %s", got)
	}
}

// A notebook renders where lab run does by default, so that both show the same files.
func TestNotebookRendersWhereLabRunDoes(t *testing.T) {
	t.Setenv(notebook.ResultsVariable, "")
	s := &notebook.Session{Root: "repo", Scale: run.Quick}
	if got, want := s.FiguresDir(), (layout{root: "repo"}).figures(s.ResultsDir(), run.Quick); got != want {
		t.Errorf("notebook figures %s, lab run's %s", got, want)
	}
}
