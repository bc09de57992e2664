package run

import (
	"fmt"
	"io"
	"strings"

	"github.com/fastkernels/kernellab/lab/safefile"
)

// The statuses of a ClaimResult.
const (
	StatusPass   = "pass"
	StatusFail   = "fail"
	StatusNotRun = "not run"
	StatusError  = "error"
)

// ClaimResult is the outcome of one claim on one scale's results, one row of the claims report.
type ClaimResult struct {
	Experiment, ClaimID, Text string
	// Status is "pass", "fail", "not run" (no results) or "error" (the check failed to run;
	// Evidence says why).
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
		cr := ClaimResult{Experiment: e.ID, ClaimID: c.ID, Text: c.Text}
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
			case v.Pass:
				cr.Status, cr.Evidence = StatusPass, v.Evidence
			default:
				cr.Status, cr.Evidence = StatusFail, v.Evidence
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

// WriteClaimsReport writes a Markdown report atomically: the scale and the counts per status, then
// a table per experiment (in the order of results) with claim, status (PASS, FAIL, NOT RUN, ERROR)
// and evidence.
func WriteClaimsReport(path string, sc Scale, results []ClaimResult) error {
	return safefile.Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, claimsMarkdown(sc, results))
		return err
	})
}

func claimsMarkdown(sc Scale, results []ClaimResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Claims report (scale: %s)\n\n", sc)
	counts := map[string]int{}
	var order []string
	byExp := map[string][]ClaimResult{}
	for _, r := range results {
		counts[r.Status]++
		if _, ok := byExp[r.Experiment]; !ok {
			order = append(order, r.Experiment)
		}
		byExp[r.Experiment] = append(byExp[r.Experiment], r)
	}
	fmt.Fprintf(&b, "%d claims: %d pass, %d fail, %d error, %d not run.\n",
		len(results), counts[StatusPass], counts[StatusFail], counts[StatusError], counts[StatusNotRun])
	for _, id := range order {
		fmt.Fprintf(&b, "\n## %s\n\n| Claim | Status | Evidence |\n|---|---|---|\n", markdownCell(id))
		for _, r := range byExp[id] {
			claim := "**" + markdownCell(r.ClaimID) + "**"
			if r.Text != "" {
				claim += " " + markdownCell(r.Text)
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", claim, statusLabel(r.Status), markdownCell(r.Evidence))
		}
	}
	return b.String()
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
