package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// fragileP is the deciding p-value under which a decided verdict counts as firm: a supported or
// contradicted claim decided at a (Holm-adjusted) p between fragileP and verdict.Alpha is listed as
// fragile, since a few more draws could move it (6 of the 13 verdicts that changed between quick
// and paper scale had been decided so, issue 31). The same level marks a near-contradiction: a
// member of an inconclusive family against the claim at an unadjusted p below it.
const fragileP = 0.01

// claimKey identifies a claim across scales.
func claimKey(r run.ClaimResult) string { return r.Experiment + "\x00" + r.ClaimID }

// bestAvailable is every claim of the report's own scale (scales[0]) once, at the largest scale that
// ran it: a larger scale uses the source's sizes and repetitions, so its verdict supersedes a
// smaller one's. A claim no scale ran keeps its "not run" row.
func bestAvailable(scales []scaleClaims) []run.ClaimResult {
	byRank := slices.Clone(scales)
	slices.SortStableFunc(byRank, func(a, b scaleClaims) int { return scaleRank(b.Scale) - scaleRank(a.Scale) })
	index := make([]map[string]run.ClaimResult, len(byRank))
	for i, s := range byRank {
		index[i] = map[string]run.ClaimResult{}
		for _, r := range s.Claims {
			index[i][claimKey(r)] = r
		}
	}
	out := make([]run.ClaimResult, len(scales[0].Claims))
	for i, r := range scales[0].Claims {
		out[i] = r
		for _, idx := range index {
			if b, ok := idx[claimKey(r)]; ok && b.Status != run.StatusNotRun {
				out[i] = b
				break
			}
		}
	}
	return out
}

// headlineMarkdown is the top of the claims report: how many claims hold, per source document and
// kind, each claim counted once at the best available scale; then the contradicted claims with the
// test that decided each, the fragile verdicts and the near-contradictions hidden in inconclusive
// families.
func headlineMarkdown(scales []scaleClaims, docs []experiments.Document) string {
	best := bestAvailable(scales)
	docOf := map[string]string{}
	for _, d := range docs {
		for _, id := range d.IDs {
			docOf[id] = d.Name
		}
	}
	var b strings.Builder
	b.WriteString("## How much of the sources holds\n\n")
	fmt.Fprintf(&b, "Each claim is counted once, at the largest scale that ran it (%s): a larger scale's verdict supersedes a smaller "+
		"one's, since it uses the source's sizes and repetitions. Kinds: *finding*, an empirical statement about the source's "+
		"methods; *timing*, a speed statement, decided on this Go implementation on the machine that ran it (the sources timed "+
		"their own code); *check*, a mathematical certainty or identity, which tests this implementation; *bookkeeping*, the "+
		"sizes of the data sets.\n\n", scaleMix(best))
	b.WriteString(headlineTable(best, docs, docOf))
	b.WriteString(contradictedList(best))
	b.WriteString(fragileList(best))
	b.WriteString(nearContradictionList(best))
	return b.String()
}

// tally counts claims by status and by the scale that decided them.
type tally struct {
	n        int
	byStatus map[string]int
	byScale  map[run.Scale]int
}

func (t *tally) add(r run.ClaimResult) {
	if t.byStatus == nil {
		t.byStatus, t.byScale = map[string]int{}, map[run.Scale]int{}
	}
	t.n++
	t.byStatus[r.Status]++
	if r.Status != run.StatusNotRun {
		t.byScale[r.Scale]++
	}
}

// row is the tally as table cells: claims, one count per status, the scales.
func (t tally) row(statuses []string) string {
	cells := []string{fmt.Sprint(t.n)}
	for _, s := range statuses {
		cells = append(cells, fmt.Sprint(t.byStatus[s]))
	}
	return strings.Join(cells, " | ") + " | " + t.scales()
}

// scales says which scales decided the tallied claims, largest first ("paper 4, quick 2").
func (t tally) scales() string {
	parts := t.perScale("%s %d")
	if len(parts) == 0 {
		return "—"
	}
	if len(parts) == 1 && t.byStatus[run.StatusNotRun] == 0 {
		return strings.Fields(parts[0])[0] // one scale decided every claim: its name alone
	}
	return strings.Join(parts, ", ")
}

// perScale formats, for each scale that decided claims, largest first, its name and count.
func (t tally) perScale(format string) []string {
	var parts []string
	for i := len(run.Scales()) - 1; i >= 0; i-- {
		if sc := run.Scales()[i]; t.byScale[sc] > 0 {
			parts = append(parts, fmt.Sprintf(format, sc, t.byScale[sc]))
		}
	}
	return parts
}

// scaleMix says how many of the claims each scale decided, for the headline's first sentence.
func scaleMix(best []run.ClaimResult) string {
	var t tally
	for _, r := range best {
		t.add(r)
	}
	parts := t.perScale("%s for %d")
	if n := t.byStatus[run.StatusNotRun]; n > 0 {
		parts = append(parts, fmt.Sprintf("no scale for %d", n))
	}
	return strings.Join(parts, ", ")
}

// headlineTable is one row per source document and kind of claim, then one per kind over all
// documents and the total.
func headlineTable(best []run.ClaimResult, docs []experiments.Document, docOf map[string]string) string {
	statuses := []string{run.StatusSupported, run.StatusContradicted, run.StatusInconclusive, run.StatusNotRun}
	perDoc := map[string]map[run.ClaimKind]*tally{}
	perKind := map[run.ClaimKind]*tally{}
	var all tally
	for _, r := range best {
		if r.Status == run.StatusError && !slices.Contains(statuses, run.StatusError) {
			statuses = append(statuses, run.StatusError)
		}
		d := docOf[r.Experiment]
		if perDoc[d] == nil {
			perDoc[d] = map[run.ClaimKind]*tally{}
		}
		if perDoc[d][r.Kind] == nil {
			perDoc[d][r.Kind] = &tally{}
		}
		if perKind[r.Kind] == nil {
			perKind[r.Kind] = &tally{}
		}
		perDoc[d][r.Kind].add(r)
		perKind[r.Kind].add(r)
		all.add(r)
	}
	var b strings.Builder
	b.WriteString("| Source | Kind | Claims")
	for _, s := range statuses {
		b.WriteString(" | " + statusLabel(s))
	}
	b.WriteString(" | Decided at |\n|---|---|---:" + strings.Repeat("|---:", len(statuses)) + "|---|\n")
	kinds := append(run.ClaimKinds(), "")
	names := make([]string, 0, len(docs)+1)
	for _, d := range docs {
		names = append(names, d.Name)
	}
	if _, ok := perDoc[""]; ok {
		names = append(names, "") // an experiment no document lists (a test catalogue)
	}
	for _, name := range names {
		first := true
		for _, k := range kinds {
			t := perDoc[name][k]
			if t == nil {
				continue
			}
			label := ""
			if first {
				label, first = name, false
				if label == "" {
					label = "(other)"
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", label, kindLabel(k), t.row(statuses))
		}
	}
	for _, k := range kinds {
		if t := perKind[k]; t != nil {
			fmt.Fprintf(&b, "| **All sources** | %s | %s |\n", kindLabel(k), t.row(statuses))
		}
	}
	fmt.Fprintf(&b, "| **All sources** | **all** | %s |\n", all.row(statuses))
	return b.String()
}

func kindLabel(k run.ClaimKind) string {
	if k == "" {
		return "(no kind)"
	}
	return string(k)
}

// claimRef names a claim with its kind and the scale of its verdict, as the lists print it.
func claimRef(r run.ClaimResult) string {
	return fmt.Sprintf("**%s %s** (%s, %s)", markdownCell(r.Experiment), markdownCell(r.ClaimID), kindLabel(r.Kind), r.Scale)
}

// deciding is the test that decided r and its p-value in words ("p = 0.017, Holm over 4"), or
// false when r was not decided by tests.
func deciding(r run.ClaimResult) (verdict.Test, string, bool) {
	t, p, ok := r.Verdict.Deciding()
	if !ok {
		return t, "", false
	}
	if t.Exact {
		return t, "exact", true
	}
	s := pText(p)
	if n := len(r.Verdict.Tests); n > 1 {
		s += fmt.Sprintf(", Holm over %d", n)
	}
	return t, s, true
}

// pText is a p-value in words: "p = 0.017", or "p < 1e-4".
func pText(p float64) string {
	if p < 1e-4 {
		return "p < 1e-4"
	}
	return fmt.Sprintf("p = %.2g", p)
}

// contradictedList lists every contradicted claim at the best available scale, by kind, with the
// member test that decided it: the reason, in numbers.
func contradictedList(best []run.ClaimResult) string {
	var b strings.Builder
	n := 0
	for _, k := range append(run.ClaimKinds(), "") {
		for _, r := range best {
			if r.Status != run.StatusContradicted || r.Kind != k {
				continue
			}
			if n == 0 {
				b.WriteString("\n### Contradicted, and by what\n\nThe member test that decided each (the smallest Holm-adjusted p against the claim).\n\n")
			}
			n++
			line := "- " + claimRef(r)
			if t, p, ok := deciding(r); ok {
				line += ": " + markdownCell(t.Brief()) + " (" + p + ")"
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// fragileList lists the decided claims whose deciding p-value lies between fragileP and Alpha.
func fragileList(best []run.ClaimResult) string {
	var lines []string
	for _, r := range best {
		if !isFragile(r) {
			continue
		}
		t, ps, _ := deciding(r)
		lines = append(lines, fmt.Sprintf("- %s %s: %s (%s)\n", claimRef(r), statusLabel(r.Status), markdownCell(t.Brief()), ps))
	}
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("\n### Fragile verdicts\n\nDecided at a deciding p-value between %g and %g: a few more draws could move them.\n\n%s",
		fragileP, verdict.Alpha, strings.Join(lines, ""))
}

// nearContradictionList lists the inconclusive claims with a member against the claim at an
// unadjusted p below fragileP, which the family's Holm decision does not reach.
func nearContradictionList(best []run.ClaimResult) string {
	var lines []string
	for _, r := range best {
		near := r.Verdict.NearContradictions(fragileP)
		if len(near) == 0 {
			continue
		}
		parts := make([]string, len(near))
		for i, t := range near {
			parts[i] = fmt.Sprintf("%s (%s against, unadjusted)", markdownCell(t.Brief()), pText(t.PContradict))
		}
		lines = append(lines, fmt.Sprintf("- %s: %s\n", claimRef(r), strings.Join(parts, "; ")))
	}
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("\n### Near-contradictions inside inconclusive verdicts\n\nINCONCLUSIVE as a family, with a member against the claim "+
		"at an unadjusted p below %g that Holm's adjustment over the family does not reach.\n\n%s", fragileP, strings.Join(lines, ""))
}

// isFragile says whether a decided verdict's deciding p lies between fragileP and Alpha.
func isFragile(r run.ClaimResult) bool {
	t, p, ok := r.Verdict.Deciding()
	return ok && !t.Exact && p >= fragileP && p < verdict.Alpha
}
