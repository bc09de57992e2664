package run

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/verdict"
)

func TestCheckClaimsAndReport(t *testing.T) {
	e := stub("fig3_2")
	e.Claims = []Claim{
		{ID: "c1", Text: "RLS beats uniform", Check: func(res *Results) (verdict.Verdict, error) {
			return verdict.Verdict{Outcome: verdict.Supported, Evidence: "err 0.1 | 0.3"}, nil
		}},
		{ID: "c2", Text: "error shrinks", Check: func(*Results) (verdict.Verdict, error) {
			return verdict.Verdict{Outcome: verdict.Contradicted, Evidence: "0.2 > 0.1\nat s=100"}, nil
		}},
		{ID: "c3", Check: func(*Results) (verdict.Verdict, error) { return verdict.Verdict{}, errors.New("no rows for s=50") }},
		{ID: "c4", Check: func(*Results) (verdict.Verdict, error) { panic("index out of range") }},
		{ID: "c5", Text: "manual"},
	}
	res := &Results{ID: "fig3_2", Scale: Quick, Rows: []Row{{ID: "fig3_2", Metric: "err"}}}
	got := CheckClaims(e, res)
	wantStatus := []string{"supported", "contradicted", "error", "error", "error"}
	for i, r := range got {
		if r.Status != wantStatus[i] || r.Experiment != "fig3_2" || r.Scale != Quick {
			t.Errorf("claim %s: %+v, want status %s", r.ClaimID, r, wantStatus[i])
		}
	}
	if !strings.Contains(got[2].Evidence, "no rows for s=50") || !strings.Contains(got[3].Evidence, "index out of range") {
		t.Errorf("error evidence: %q, %q", got[2].Evidence, got[3].Evidence)
	}
	other := stub("tab1")
	other.Claims = []Claim{{ID: "t1", Text: "fast", Check: func(*Results) (verdict.Verdict, error) { return verdict.Verdict{Outcome: verdict.Supported}, nil }}}
	notRun := CheckClaims(other, nil)
	if len(notRun) != 1 || notRun[0].Status != "not run" {
		t.Fatalf("nil results: %+v", notRun)
	}

	path := filepath.Join(t.TempDir(), "claims.md")
	// A paper-scale run that decided c1 the other way and never ran tab1 shows beside quick.
	paper := []ClaimResult{{Experiment: "fig3_2", ClaimID: "c1", Status: StatusContradicted, Scale: Paper}}
	e.Claims[0].Rule = "paired t"
	got[0].Rule = "paired t"
	if err := WriteClaimsReport(path, ScaleClaims{Scale: Quick, Claims: append(got, notRun...)}, ScaleClaims{Scale: Paper, Claims: paper}); err != nil {
		t.Fatal(err)
	}
	report := string(readFile(t, path))
	for _, want := range []string{
		"# Claims report (scale: quick)\n",
		"- quick: 6 claims: 1 supported, 1 contradicted, 0 inconclusive, 1 not run, 3 error.\n",
		"- paper: 1 claims: 0 supported, 1 contradicted, 0 inconclusive, 0 not run, 0 error.\n",
		"## fig3_2\n\n| Claim | quick | paper | Evidence (quick) |\n|---|---|---|---|\n",
		"| **c1** RLS beats uniform | SUPPORTED | CONTRADICTED | *Rule: paired t*<br>err 0.1 \\| 0.3 |\n",
		"| **c2** error shrinks | CONTRADICTED | NOT RUN | 0.2 > 0.1<br>at s=100 |\n",
		"| **c5** manual | ERROR | NOT RUN | claim has no check function |\n",
		"## tab1\n",
		"| **t1** fast | NOT RUN | NOT RUN |  |\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Index(report, "## fig3_2") > strings.Index(report, "## tab1") {
		t.Error("experiments out of order")
	}
}

func TestOutputAndRender(t *testing.T) {
	dir := t.TempDir()
	e := stub("fig1")
	e.Render = func(res *Results, out *Output) error {
		if err := out.Write("md", func(w io.Writer) error { _, err := io.WriteString(w, "| a |\n"); return err }); err != nil {
			return err
		}
		return errors.New("plot failed")
	}
	out := &Output{Dir: dir, ID: "fig1"}
	if out.Path("png") != filepath.Join(dir, "fig1.png") {
		t.Errorf("Path = %s", out.Path("png"))
	}
	for _, bad := range []string{"", ".png", "a/b"} {
		if err := out.Write(bad, nil); err == nil {
			t.Errorf("Write(%q): no error", bad)
		}
	}
	if err := Render(e, nil, dir); err == nil {
		t.Error("Render without results: no error")
	}
	err := Render(e, &Results{}, dir)
	if err == nil || !strings.Contains(err.Error(), "plot failed") || !strings.Contains(err.Error(), "fig1") {
		t.Errorf("Render error: %v", err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "fig1.md")); err != nil || string(got) != "| a |\n" {
		t.Errorf("fig1.md: %q, %v", got, err)
	}
}

// The report lists the claims whose verdicts differ between its scale and another, read from the
// smaller scale to the larger whichever the report's own scale is, and names each kind of change.
func TestVerdictChanges(t *testing.T) {
	claim := func(id, status string) ClaimResult {
		return ClaimResult{Experiment: "fig6_6", ClaimID: id, Status: status}
	}
	quick := []ClaimResult{claim("a", StatusInconclusive), claim("b", StatusSupported), claim("c", StatusContradicted),
		claim("d", StatusSupported), claim("e", StatusInconclusive), claim("f", StatusNotRun)}
	paper := []ClaimResult{claim("a", StatusSupported), claim("b", StatusContradicted), claim("c", StatusInconclusive),
		claim("d", StatusSupported), claim("e", StatusInconclusive), claim("f", StatusSupported)}
	want := "\n## Verdicts that differ between quick and paper scale\n\n3 claim(s), read from quick to paper.\n\n" +
		"| Experiment | Claim | quick | paper | Change |\n|---|---|---|---|---|\n" +
		"| fig6_6 | a | INCONCLUSIVE | SUPPORTED | decided |\n" +
		"| fig6_6 | b | SUPPORTED | CONTRADICTED | **reversed** |\n" +
		"| fig6_6 | c | CONTRADICTED | INCONCLUSIVE | no longer decided |\n"
	for _, tc := range []struct{ main, other ScaleClaims }{
		{ScaleClaims{Scale: Quick, Claims: quick}, ScaleClaims{Scale: Paper, Claims: paper}},
		{ScaleClaims{Scale: Paper, Claims: paper}, ScaleClaims{Scale: Quick, Claims: quick}},
	} {
		report := claimsMarkdown([]ScaleClaims{tc.main, tc.other})
		start := strings.Index(report, "\n## Verdicts that differ")
		end := strings.Index(report, "\n## fig6_6")
		if start < 0 || end < start || report[start:end] != want {
			t.Errorf("%s report: changes section\n%q\nwant\n%q", tc.main.Scale, report[max(start, 0):max(end, 0)], want)
		}
	}
	if got := claimsMarkdown([]ScaleClaims{{Scale: Quick, Claims: quick[3:5]}, {Scale: Paper, Claims: paper[3:5]}}); strings.Contains(got, "Verdicts that differ") {
		t.Errorf("a section although no verdict differs:\n%s", got)
	}
}
