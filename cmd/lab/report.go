package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastkernels/kernellab/experiments"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/safefile"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// statusOrder is the order statuses are counted in.
var statusOrder = []string{run.StatusSupported, run.StatusContradicted, run.StatusInconclusive, run.StatusNotRun, run.StatusError}

// scaleClaims is the claims of the whole catalogue checked at one scale.
type scaleClaims struct {
	Scale  run.Scale
	Claims []run.ClaimResult
	// From names where results came from when not from the run's own results root (the committed
	// reference results, say); shown beside the scale's counts.
	From string
	// Partial lists the experiments of a run of only part of the catalogue (lab run ID ...), so
	// that its report says so instead of passing for a whole run; nil for a whole run or a
	// report made from the results on disk.
	Partial []string
}

// writeClaimsReport writes a Markdown report atomically. The first entry is the report's own
// scale, whose evidence is shown; every further entry (another scale whose results exist) adds a
// column with its verdicts side by side. The report starts with the counts per verdict of each
// scale, then a table per experiment (in the order of the first entry): the claim in the source's
// words, the verdict at each scale, and the evidence with its rule. docs group the experiments by
// source document for the headline (headlineMarkdown).
func writeClaimsReport(path string, docs []experiments.Document, scales ...scaleClaims) error {
	if len(scales) == 0 {
		return fmt.Errorf("claims report %s: no scale", path)
	}
	return safefile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, claimsMarkdown(scales, docs))
		return err
	})
}

// countStatuses gives the number of claims per status, in the report's words
// ("12 supported, 3 contradicted, ...").
func countStatuses(results []run.ClaimResult) string {
	counts := map[string]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	parts := make([]string, len(statusOrder))
	for i, s := range statusOrder {
		parts[i] = fmt.Sprintf("%d %s", counts[s], s)
	}
	return fmt.Sprintf("%d claims: %s", len(results), strings.Join(parts, ", "))
}

func claimsMarkdown(scales []scaleClaims, docs []experiments.Document) string {
	var b strings.Builder
	main := scales[0]
	fmt.Fprintf(&b, "# Claims report (scale: %s)\n\n", main.Scale)
	b.WriteString(headlineMarkdown(scales, docs))
	b.WriteString("\n## Counts per scale\n\n")
	for _, s := range scales {
		from := ""
		if s.From != "" {
			from = " (results: " + s.From + ")"
		}
		fmt.Fprintf(&b, "- %s: %s%s.\n", s.Scale, countStatuses(s.Claims), from)
	}
	if len(main.Partial) > 0 {
		fmt.Fprintf(&b, "\nA partial run: only %s ran. The other experiments' claims are judged from the results that "+
			"earlier runs left in the same results folder, or not run.\n", strings.Join(main.Partial, ", "))
	}
	b.WriteString("\nSUPPORTED / CONTRADICTED: the test for / against the claim rejects at level 0.05 (one-sided; a claim over " +
		"several data sets or sizes controls the family-wise level by Holm's method). INCONCLUSIVE: neither rejects, or the " +
		"claim's premise does not hold at this scale (the evidence says which). Intervals are 90% two-sided, the matching " +
		"interval of a one-sided test at 0.05. See the README's \"How to read a verdict\".\n")
	other := map[run.Scale]map[string]run.ClaimResult{}
	for _, s := range scales[1:] {
		m := map[string]run.ClaimResult{}
		for _, r := range s.Claims {
			m[claimKey(r)] = r
		}
		other[s.Scale] = m
	}
	for _, s := range scales[1:] {
		b.WriteString(verdictChanges(main, s.Scale, other[s.Scale]))
	}
	var order []string
	byExp := map[string][]run.ClaimResult{}
	for _, r := range main.Claims {
		if _, ok := byExp[r.Experiment]; !ok {
			order = append(order, r.Experiment)
		}
		byExp[r.Experiment] = append(byExp[r.Experiment], r)
	}
	header := "| Claim | " + string(main.Scale)
	sep := "|---|---"
	for _, s := range scales[1:] {
		header += " | " + string(s.Scale)
		sep += "|---"
	}
	header += " | Evidence (" + string(main.Scale) + ") |\n"
	sep += "|---|\n"
	for _, id := range order {
		fmt.Fprintf(&b, "\n## %s\n\n%s%s", markdownCell(id), header, sep)
		for _, r := range byExp[id] {
			claim := "**" + markdownCell(r.ClaimID) + "** *(" + kindLabel(r.Kind) + ")*"
			if r.Text != "" {
				claim += " " + markdownCell(r.Text)
			}
			row := "| " + claim + " | " + statusLabel(r.Status)
			for _, s := range scales[1:] {
				st := run.StatusNotRun
				if o, ok := other[s.Scale][claimKey(r)]; ok {
					st = o.Status
				}
				row += " | " + statusLabel(st)
			}
			ev := markdownCell(r.Evidence)
			if r.Rule != "" {
				ev = "*Rule: " + markdownCell(r.Rule) + "*<br>" + ev
			}
			b.WriteString(row + " | " + ev + " |\n")
		}
	}
	return b.String()
}

// verdictChanges lists, as a Markdown section, the claims whose verdict differs between the report's
// own scale and another (both having run): read from the smaller scale to the larger, a verdict
// that became decided, one that reversed, or one that became inconclusive, with the deciding
// p-value at the smaller scale, which says whether that verdict was fragile. "" when none differs.
func verdictChanges(main scaleClaims, otherScale run.Scale, other map[string]run.ClaimResult) string {
	from, to := otherScale, main.Scale
	if scaleRank(main.Scale) < scaleRank(otherScale) {
		from, to = main.Scale, otherScale
	}
	var rows []string
	fragile := 0
	for _, r := range main.Claims {
		o, ok := other[claimKey(r)]
		if !ok || o.Status == run.StatusNotRun || r.Status == run.StatusNotRun || o.Status == r.Status {
			continue
		}
		before, after := o, r
		if from == main.Scale {
			before, after = r, o
		}
		p := "—"
		if _, ps, ok := deciding(before); ok {
			p = ps
			if isFragile(before) {
				p += " (fragile)"
				fragile++
			}
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s |\n", markdownCell(r.Experiment), markdownCell(r.ClaimID),
			statusLabel(before.Status), p, statusLabel(after.Status), change(before.Status, after.Status, true)))
	}
	if len(rows) == 0 {
		return ""
	}
	return fmt.Sprintf("\n## Verdicts that differ between %s and %s scale\n\n%d claim(s), read from %s to %s; the %s verdict "+
		"supersedes the %s one. Of these, %d had been decided at %s scale by a fragile p-value (between %g and %g).\n\n"+
		"| Experiment | Claim | %s | deciding p at %s | %s | Change |\n|---|---|---|---|---|---|\n%s",
		from, to, len(rows), from, to, to, from, fragile, from, fragileP, verdict.Alpha, from, from, to, strings.Join(rows, ""))
}

// change names how a verdict changed from a smaller scale's status to a larger one's: "decided",
// "**reversed**", "no longer decided" or "error"; smallerFirst false reads them the other way round.
func change(from, to string, smallerFirst bool) string {
	if !smallerFirst {
		from, to = to, from
	}
	switch {
	case from == run.StatusError || to == run.StatusError:
		return "error"
	case to == run.StatusInconclusive:
		return "no longer decided"
	case from != run.StatusInconclusive:
		return "**reversed**"
	}
	return "decided"
}

// scaleRank orders the scales from the smallest to the largest (run.Scales' order).
func scaleRank(sc run.Scale) int {
	for i, s := range run.Scales() {
		if s == sc {
			return i
		}
	}
	return len(run.Scales())
}

func statusLabel(status string) string {
	if status == "" {
		return "?"
	}
	return strings.ToUpper(status)
}

// markdownCell keeps text inside one table cell: pipes escaped, line breaks as <br>.
func markdownCell(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\n", "<br>")
}
