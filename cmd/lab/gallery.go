package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
// other scale to its gallery, relative to figDir, for the cross-links at the top. Each figure's
// caption file gets the verdicts of its claims at every scale as its second paragraph
// (withVerdicts); the gallery lists them under the caption instead.
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
			path := filepath.Join(figDir, e.ID+".md")
			if caption, err := os.ReadFile(path); err == nil {
				fmt.Fprintf(&b, "\n%s\n", withVerdicts(string(caption), ""))
				if err := writeIfChanged(path, string(caption), withVerdicts(string(caption), verdictParagraph(e.ID, scales))+"\n"); err != nil {
					return err
				}
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

// verdictPrefix opens the paragraph of a caption that withVerdicts manages.
const verdictPrefix = "Verdicts: "

// verdictParagraph says the verdict of every claim of experiment id at every scale of scales, the
// largest first, joining the scales that agree: "Verdicts: exact-fewest SUPPORTED at paper and
// quick; time-order CONTRADICTED at paper, INCONCLUSIVE at quick." Scales that did not run a claim
// are left out; "" when no claim of id ran.
func verdictParagraph(id string, scales []scaleClaims) string {
	byRank := slices.Clone(scales)
	slices.SortStableFunc(byRank, func(a, b scaleClaims) int { return scaleRank(b.Scale) - scaleRank(a.Scale) })
	var parts []string
	for _, own := range scales[0].Claims {
		if own.Experiment != id {
			continue
		}
		var statuses []string
		var at [][]string
		for _, s := range byRank {
			for _, r := range s.Claims {
				if claimKey(r) != claimKey(own) || r.Status == run.StatusNotRun {
					continue
				}
				if i := slices.Index(statuses, r.Status); i >= 0 && i == len(statuses)-1 {
					at[i] = append(at[i], string(s.Scale))
				} else {
					statuses, at = append(statuses, r.Status), append(at, []string{string(s.Scale)})
				}
			}
		}
		if len(statuses) == 0 {
			continue
		}
		said := make([]string, len(statuses))
		for i, st := range statuses {
			said[i] = statusLabel(st) + " at " + strings.Join(at[i], " and ")
		}
		parts = append(parts, own.ClaimID+" "+strings.Join(said, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return verdictPrefix + strings.Join(parts, "; ") + "."
}

// withVerdicts returns caption (trimmed) with verdicts as its second paragraph, in place of the
// one a previous gallery put there; verdicts "" leaves the caption without one.
func withVerdicts(caption, verdicts string) string {
	paras := strings.Split(strings.TrimSpace(caption), "\n\n")
	paras = slices.DeleteFunc(paras, func(p string) bool { return strings.HasPrefix(p, verdictPrefix) })
	if verdicts != "" {
		paras = slices.Insert(paras, min(1, len(paras)), verdicts)
	}
	return strings.Join(paras, "\n\n")
}

// writeIfChanged rewrites path with text unless it holds text already (old), so that a gallery
// made twice leaves the captions' modification times alone.
func writeIfChanged(path, old, text string) error {
	if old == text {
		return nil
	}
	return safefile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
