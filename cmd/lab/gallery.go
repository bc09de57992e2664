package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/safefile"
)

// writeGallery writes the gallery of a figures folder, <figDir>/README.md, atomically: for every
// experiment in catalogue order, its title and source, a thumbnail linking to the full figure (or
// a link to the table), its caption, and its claims with their verdicts at this scale. A figure's
// caption is the <ID>.md its renderer writes beside the PNG; a table's .md is the table itself, so
// it is linked, not inlined. Experiments with nothing rendered in figDir are listed as not run.
func writeGallery(figDir string, sc run.Scale, exps []*run.Experiment, claims []run.ClaimResult) error {
	byExp := map[string][]run.ClaimResult{}
	for _, c := range claims {
		byExp[c.Experiment] = append(byExp[c.Experiment], c)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Gallery (scale: %s)\n\nEvery figure and table of the catalogue with its caption and the verdicts of its claims "+
		"(details and statistics in [CLAIMS.md](CLAIMS.md)). Each figure is also here as SVG (and PDF where rendered) under the same name.\n", sc)
	for _, e := range exps {
		fmt.Fprintf(&b, "\n## %s — %s\n\n", e.ID, e.Title)
		if e.Source != "" {
			fmt.Fprintf(&b, "Reproduces: %s.\n\n", e.Source)
		}
		switch {
		case e.Kind == run.Table && exists(filepath.Join(figDir, e.ID+".md")):
			fmt.Fprintf(&b, "Table: [%s.md](%s.md) (CSV: [%s.csv](%s.csv)).\n", e.ID, e.ID, e.ID, e.ID)
		case e.Kind == run.Figure && exists(filepath.Join(figDir, e.ID+".png")):
			fmt.Fprintf(&b, "[<img src=\"%s.png\" width=\"480\" alt=\"%s\">](%s.png)\n", e.ID, e.ID, e.ID)
			if caption, err := os.ReadFile(filepath.Join(figDir, e.ID+".md")); err == nil {
				fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(string(caption)))
			}
		default:
			b.WriteString("_Not rendered at this scale._\n")
		}
		if cs := byExp[e.ID]; len(cs) > 0 {
			b.WriteString("\nClaims:\n\n")
			for _, c := range cs {
				fmt.Fprintf(&b, "- **%s** %s — %s\n", statusLabel(c.Status), c.ClaimID, strings.TrimSpace(c.Text))
			}
		}
	}
	return safefile.Write(filepath.Join(figDir, "README.md"), func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
