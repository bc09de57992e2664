package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

func TestClaimsReport(t *testing.T) {
	claim := func(id, text, status, evidence string) run.ClaimResult {
		return run.ClaimResult{Experiment: "fig3_2", ClaimID: id, Text: text, Status: status, Evidence: evidence, Scale: run.Quick, Kind: run.Finding}
	}
	// What run.CheckClaims gives for a supported, a contradicted, a failing, a panicking and a
	// missing check, and for an experiment without results.
	got := []run.ClaimResult{
		claim("c1", "RLS beats uniform", run.StatusSupported, "err 0.1 | 0.3"),
		claim("c2", "error shrinks", run.StatusContradicted, "0.2 > 0.1\nat s=100"),
		claim("c3", "", run.StatusError, "no rows for s=50"),
		claim("c4", "", run.StatusError, "check panicked: index out of range"),
		claim("c5", "manual", run.StatusError, "claim has no check function"),
	}
	notRun := []run.ClaimResult{{Experiment: "tab1", ClaimID: "t1", Text: "fast", Status: run.StatusNotRun, Kind: run.Timing}}
	path := filepath.Join(t.TempDir(), "claims.md")
	// A paper-scale run that decided c1 the other way and never ran tab1 shows beside quick.
	paper := []run.ClaimResult{{Experiment: "fig3_2", ClaimID: "c1", Status: run.StatusContradicted, Scale: run.Paper}}
	got[0].Rule = "paired t"
	if err := writeClaimsReport(path, nil, scaleClaims{Scale: run.Quick, Claims: append(got, notRun...)}, scaleClaims{Scale: run.Paper, Claims: paper}); err != nil {
		t.Fatal(err)
	}
	report := string(mustRead(t, path))
	for _, want := range []string{
		"# Claims report (scale: quick)\n",
		"- quick: 6 claims: 1 supported, 1 contradicted, 0 inconclusive, 1 not run, 3 error.\n",
		"- paper: 1 claims: 0 supported, 1 contradicted, 0 inconclusive, 0 not run, 0 error.\n",
		"## fig3_2\n\n| Claim | quick | paper | Evidence (quick) |\n|---|---|---|---|\n",
		"| **c1** *(finding)* RLS beats uniform | SUPPORTED | CONTRADICTED | *Rule: paired t*<br>err 0.1 \\| 0.3 |\n",
		"| **c2** *(finding)* error shrinks | CONTRADICTED | NOT RUN | 0.2 > 0.1<br>at s=100 |\n",
		"| **c5** *(finding)* manual | ERROR | NOT RUN | claim has no check function |\n",
		"## tab1\n",
		"| **t1** *(timing)* fast | NOT RUN | NOT RUN |  |\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Index(report, "## fig3_2") > strings.Index(report, "## tab1") {
		t.Error("experiments out of order")
	}
}

// The report lists the claims whose verdicts differ between its scale and another, read from the
// smaller scale to the larger whichever the report's own scale is, and names each kind of change.
func TestVerdictChanges(t *testing.T) {
	claim := func(id, status string) run.ClaimResult {
		return run.ClaimResult{Experiment: "fig6_6", ClaimID: id, Status: status}
	}
	quick := []run.ClaimResult{claim("a", run.StatusInconclusive), claim("b", run.StatusSupported), claim("c", run.StatusContradicted),
		claim("d", run.StatusSupported), claim("e", run.StatusInconclusive), claim("f", run.StatusNotRun)}
	paper := []run.ClaimResult{claim("a", run.StatusSupported), claim("b", run.StatusContradicted), claim("c", run.StatusInconclusive),
		claim("d", run.StatusSupported), claim("e", run.StatusInconclusive), claim("f", run.StatusSupported)}
	// b was supported at quick scale by a test at p = 0.03: fragile.
	quick[1].Verdict = verdict.Decide([]verdict.Test{{Label: "m", PSupport: 0.03, PContradict: 0.97}})
	want := "\n## Verdicts that differ between quick and paper scale\n\n3 claim(s), read from quick to paper; the paper verdict " +
		"supersedes the quick one. Of these, 1 had been decided at quick scale by a fragile p-value (between 0.01 and 0.05).\n\n" +
		"| Experiment | Claim | quick | deciding p at quick | paper | Change |\n|---|---|---|---|---|---|\n" +
		"| fig6_6 | a | INCONCLUSIVE | — | SUPPORTED | decided |\n" +
		"| fig6_6 | b | SUPPORTED | p = 0.03 (fragile) | CONTRADICTED | **reversed** |\n" +
		"| fig6_6 | c | CONTRADICTED | — | INCONCLUSIVE | no longer decided |\n"
	for _, tc := range []struct{ main, other scaleClaims }{
		{scaleClaims{Scale: run.Quick, Claims: quick}, scaleClaims{Scale: run.Paper, Claims: paper}},
		{scaleClaims{Scale: run.Paper, Claims: paper}, scaleClaims{Scale: run.Quick, Claims: quick}},
	} {
		report := claimsMarkdown([]scaleClaims{tc.main, tc.other}, nil)
		start := strings.Index(report, "\n## Verdicts that differ")
		end := strings.Index(report, "\n## fig6_6")
		if start < 0 || end < start || report[start:end] != want {
			t.Errorf("%s report: changes section\n%q\nwant\n%q", tc.main.Scale, report[max(start, 0):max(end, 0)], want)
		}
	}
	if got := claimsMarkdown([]scaleClaims{{Scale: run.Quick, Claims: quick[3:5]}, {Scale: run.Paper, Claims: paper[3:5]}}, nil); strings.Contains(got, "Verdicts that differ") {
		t.Errorf("a section although no verdict differs:\n%s", got)
	}
}
