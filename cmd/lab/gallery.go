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
// a link to the table), its caption, and its claims with their best available verdicts (the
// largest scale that ran each, as the claims report's headline counts them; scales[0] is the
// gallery's own), each flagged where this scale's verdict differs. A figure's caption is the
// <ID>.md its renderer writes beside the PNG; a table's .md is the table itself, so it is linked,
// not inlined. Experiments with nothing rendered in figDir are listed as not run. links maps each
// other scale to its gallery, relative to figDir, for the cross-links at the top.
func writeGallery(figDir string, exps []*run.Experiment, scales []scaleClaims, links map[run.Scale]string) error {
	sc := scales[0].Scale
	best := bestAvailable(scales)
	byExp := map[string][]int{}
	for i, c := range scales[0].Claims {
		byExp[c.Experiment] = append(byExp[c.Experiment], i)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Gallery (scale: %s)\n\nEvery figure and table of the catalogue with its caption and the verdicts of its claims "+
		"(details and statistics in [CLAIMS.md](CLAIMS.md)). Each figure is also here as SVG (and PDF where rendered) under the same name.\n", sc)
	if len(scales) > 1 {
		fmt.Fprintf(&b, "\nA claim's verdict is the best available: at the largest scale that ran it, named beside it; where the %s "+
			"verdict differs, it follows.", sc)
	}
	for _, other := range run.Scales() {
		if link, ok := links[other]; ok {
			fmt.Fprintf(&b, " The %s gallery: [%s](%s).", other, link, link)
		}
	}
	b.WriteString("\n")
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
		if idx := byExp[e.ID]; len(idx) > 0 {
			b.WriteString("\nClaims:\n\n")
			for _, i := range idx {
				own, c := scales[0].Claims[i], best[i]
				mark := "**" + statusLabel(c.Status) + "**"
				if len(scales) > 1 && c.Status != run.StatusNotRun {
					mark += " (" + string(c.Scale) + ")"
				}
				fmt.Fprintf(&b, "- %s %s — %s", mark, c.ClaimID, strings.TrimSpace(c.Text))
				if own.Status != c.Status {
					fmt.Fprintf(&b, " (at %s: %s, %s)", sc, statusLabel(own.Status), change(own.Status, c.Status, scaleRank(sc) < scaleRank(c.Scale)))
				}
				b.WriteString("\n")
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
