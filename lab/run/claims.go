package run

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastkernels/kernellab/lab/safefile"
)

// The statuses of a [ClaimResult]: the three outcomes of a check, and the two ways a check can fail
// to give one.
const (
	StatusSupported    = "supported"
	StatusContradicted = "contradicted"
	StatusInconclusive = "inconclusive"
	StatusNotRun       = "not run"
	StatusError        = "error"
)

// statusOrder is the order statuses are counted in.
var statusOrder = []string{StatusSupported, StatusContradicted, StatusInconclusive, StatusNotRun, StatusError}

// ClaimResult is the outcome of one claim on one scale's results, one row of the claims report.
type ClaimResult struct {
	Experiment, ClaimID, Text, Rule string
	// Status is one of the Status constants: "supported", "contradicted", "inconclusive", "not run"
	// (no results) or "error" (the check failed to run; Evidence says why).
	Status   string
	Evidence string
	Scale    Scale
}

// CheckClaims checks every claim of e on res; res nil (the experiment was not run) gives "not run".
// A check that returns an error or panics gives "error", so one broken check never hides the others.
func CheckClaims(e *Experiment, res *Results) []ClaimResult {
	if e == nil {
		return nil
	}
	out := make([]ClaimResult, len(e.Claims))
	for i, c := range e.Claims {
		cr := ClaimResult{Experiment: e.ID, ClaimID: c.ID, Text: c.Text, Rule: c.Rule}
		switch {
		case res == nil:
			cr.Status = StatusNotRun
		case c.Check == nil:
			cr.Status, cr.Evidence, cr.Scale = StatusError, "claim has no check function", res.Scale
		default:
			cr.Scale = res.Scale
			v, err := callCheck(c, res)
			switch {
			case err != nil:
				cr.Status, cr.Evidence = StatusError, err.Error()
			default:
				cr.Evidence = v.Evidence
				switch v.Outcome {
				case Supported:
					cr.Status = StatusSupported
				case Contradicted:
					cr.Status = StatusContradicted
				case Inconclusive:
					cr.Status = StatusInconclusive
				default:
					cr.Status, cr.Evidence = StatusError, fmt.Sprintf("check returned outcome %v", v.Outcome)
				}
			}
		}
		out[i] = cr
	}
	return out
}

func callCheck(c Claim, res *Results) (v Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("check panicked: %v", p)
		}
	}()
	return c.Check(res)
}

// ScaleClaims is the claims of the whole catalogue checked at one scale.
type ScaleClaims struct {
	Scale  Scale
	Claims []ClaimResult
	// From names where results came from when not from the run's own results root (the committed
	// reference results, say); shown beside the scale's counts.
	From string
	// Partial lists the experiments of a run of only part of the catalogue (lab run ID ...), so
	// that its report says so instead of passing for a whole run; nil for a whole run or a
	// report made from the results on disk.
	Partial []string
}

// WriteClaimsReport writes a Markdown report atomically. The first entry is the report's own
// scale, whose evidence is shown; every further entry (another scale whose results exist) adds a
// column with its verdicts side by side. The report starts with the counts per verdict of each
// scale, then a table per experiment (in the order of the first entry): the claim in the source's
// words, the verdict at each scale, and the evidence with its rule.
func WriteClaimsReport(path string, scales ...ScaleClaims) error {
	if len(scales) == 0 {
		return fmt.Errorf("run: claims report %s: no scale", path)
	}
	return safefile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, claimsMarkdown(scales))
		return err
	})
}

// CountStatuses gives the number of claims per status, in the report's words
// ("12 supported, 3 contradicted, ...").
func CountStatuses(results []ClaimResult) string {
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

func claimsMarkdown(scales []ScaleClaims) string {
	var b strings.Builder
	main := scales[0]
	fmt.Fprintf(&b, "# Claims report (scale: %s)\n\n", main.Scale)
	for _, s := range scales {
		from := ""
		if s.From != "" {
			from = " (results: " + s.From + ")"
		}
		fmt.Fprintf(&b, "- %s: %s%s.\n", s.Scale, CountStatuses(s.Claims), from)
	}
	if len(main.Partial) > 0 {
		fmt.Fprintf(&b, "\nA partial run: only %s ran. The other experiments' claims are judged from the results that "+
			"earlier runs left in the same results folder, or not run.\n", strings.Join(main.Partial, ", "))
	}
	b.WriteString("\nSUPPORTED / CONTRADICTED: the test for / against the claim rejects at level 0.05 (one-sided; a claim over " +
		"several data sets or sizes controls the family-wise level by Holm's method). INCONCLUSIVE: neither rejects, or the " +
		"claim's premise does not hold at this scale (the evidence says which). Intervals are 90% two-sided, the matching " +
		"interval of a one-sided test at 0.05. See the README's \"How to read a verdict\".\n")
	other := map[Scale]map[string]string{}
	for _, s := range scales[1:] {
		m := map[string]string{}
		for _, r := range s.Claims {
			m[r.Experiment+"\x00"+r.ClaimID] = r.Status
		}
		other[s.Scale] = m
	}
	for _, s := range scales[1:] {
		b.WriteString(verdictChanges(main, s.Scale, other[s.Scale]))
	}
	var order []string
	byExp := map[string][]ClaimResult{}
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
			claim := "**" + markdownCell(r.ClaimID) + "**"
			if r.Text != "" {
				claim += " " + markdownCell(r.Text)
			}
			row := "| " + claim + " | " + statusLabel(r.Status)
			for _, s := range scales[1:] {
				st, ok := other[s.Scale][r.Experiment+"\x00"+r.ClaimID]
				if !ok {
					st = StatusNotRun
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
// that became decided, one that reversed, or one that became inconclusive. "" when none differs.
func verdictChanges(main ScaleClaims, otherScale Scale, other map[string]string) string {
	from, to := otherScale, main.Scale
	if scaleRank(main.Scale) < scaleRank(otherScale) {
		from, to = main.Scale, otherScale
	}
	var rows []string
	for _, r := range main.Claims {
		st, ok := other[r.Experiment+"\x00"+r.ClaimID]
		if !ok || st == StatusNotRun || r.Status == StatusNotRun || st == r.Status {
			continue
		}
		before, after := st, r.Status
		if from == main.Scale {
			before, after = r.Status, st
		}
		change := "decided"
		switch {
		case before == StatusError || after == StatusError:
			change = "error"
		case after == StatusInconclusive:
			change = "no longer decided"
		case before != StatusInconclusive:
			change = "**reversed**"
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s |\n", markdownCell(r.Experiment), markdownCell(r.ClaimID),
			statusLabel(before), statusLabel(after), change))
	}
	if len(rows) == 0 {
		return ""
	}
	return fmt.Sprintf("\n## Verdicts that differ between %s and %s scale\n\n%d claim(s), read from %s to %s.\n\n"+
		"| Experiment | Claim | %s | %s | Change |\n|---|---|---|---|---|\n%s",
		from, to, len(rows), from, to, from, to, strings.Join(rows, ""))
}

// scaleRank orders the scales from the smallest to the largest (Scales' order).
func scaleRank(sc Scale) int {
	for i, s := range Scales() {
		if s == sc {
			return i
		}
	}
	return len(Scales())
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
