package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
)

func TestWriteGallery(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"fig1.png": "png", "fig1.md": "Error vs n, 5 draws.\n", "tab1.md": "| a |\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fig, tab, missing := &run.Experiment{ID: "fig1"}, &run.Experiment{ID: "tab1"}, &run.Experiment{ID: "fig9"}
	fig.Title, fig.Source = "Error", "thesis Figure 3.2"
	tab.Kind = run.Table
	claims := []run.ClaimResult{
		{Experiment: "fig1", ClaimID: "c1", Text: "DAC wins", Status: run.StatusInconclusive, Scale: run.Quick},
		{Experiment: "fig1", ClaimID: "c2", Text: "RFF wins", Status: run.StatusSupported, Scale: run.Quick},
		{Experiment: "fig1", ClaimID: "c3", Text: "same", Status: run.StatusSupported, Scale: run.Quick},
	}
	paper := []run.ClaimResult{
		{Experiment: "fig1", ClaimID: "c1", Text: "DAC wins", Status: run.StatusNotRun},
		{Experiment: "fig1", ClaimID: "c2", Text: "RFF wins", Status: run.StatusContradicted, Scale: run.Paper},
		{Experiment: "fig1", ClaimID: "c3", Text: "same", Status: run.StatusSupported, Scale: run.Paper},
	}
	scales := []scaleClaims{{Scale: run.Quick, Claims: claims}, {Scale: run.Paper, Claims: paper}}
	if err := writeGallery(dir, []*run.Experiment{fig, tab, missing}, scales, map[run.Scale]string{run.Paper: "paper/README.md"}); err != nil {
		t.Fatal(err)
	}
	got := string(mustRead(t, filepath.Join(dir, "README.md")))
	for _, want := range []string{
		"# Gallery (scale: quick)",
		"## fig1 — Error\n\nReproduces: thesis Figure 3.2.\n\n[<img src=\"fig1.png\"",
		"\nError vs n, 5 draws.\n",
		"The paper gallery: [paper/README.md](paper/README.md).",
		"- **INCONCLUSIVE** (quick) c1 — DAC wins\n",
		"- **CONTRADICTED** (paper) c2 — RFF wins (at quick: SUPPORTED, **reversed**)\n",
		"- **SUPPORTED** (paper) c3 — same\n",
		"Table: [tab1.md](tab1.md)",
		"## fig9", "_Not rendered at this scale._",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("gallery lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, verdictPrefix) {
		t.Errorf("the gallery inlines the captions' verdict paragraphs beside its own claims list:\n%s", got)
	}
	// The caption file gets the verdicts at every scale as its second paragraph, once however
	// often the gallery is made.
	want := "Error vs n, 5 draws.\n\nVerdicts: c1 INCONCLUSIVE at quick; c2 CONTRADICTED at paper, SUPPORTED at quick; c3 SUPPORTED at paper and quick.\n"
	for range 2 {
		if got := string(mustRead(t, filepath.Join(dir, "fig1.md"))); got != want {
			t.Errorf("fig1.md = %q, want %q", got, want)
		}
		if err := writeGallery(dir, []*run.Experiment{fig, tab, missing}, scales, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWithVerdicts(t *testing.T) {
	for _, c := range []struct{ caption, verdicts, want string }{
		{"**f** (quick scale). Result.\n\nSet-up.\n", "Verdicts: a SUPPORTED at quick.", "**f** (quick scale). Result.\n\nVerdicts: a SUPPORTED at quick.\n\nSet-up."},
		{"**f**. R.\n\nVerdicts: old.\n\nSet-up.", "Verdicts: new.", "**f**. R.\n\nVerdicts: new.\n\nSet-up."},
		{"**f**. R.\n\nVerdicts: old.\n\nSet-up.", "", "**f**. R.\n\nSet-up."},
	} {
		if got := withVerdicts(c.caption, c.verdicts); got != c.want {
			t.Errorf("withVerdicts(%q, %q) = %q, want %q", c.caption, c.verdicts, got, c.want)
		}
	}
}
