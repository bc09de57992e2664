package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/experiments"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// TestHeadline drives the headline through each thing it reports: a claim counted at paper scale
// where it ran and at quick scale otherwise, the counts per document and kind, a contradiction with
// the member that decided it, a fragile verdict and a near-contradiction in an inconclusive family.
func TestHeadline(t *testing.T) {
	firm := verdict.Test{Label: "KC1: ratio", Estimate: 2.04, Lo: 1.71, Hi: 2.44, PSupport: 0.999, PContradict: 0.001}
	fragile := verdict.Test{Label: "Adult: spread", Estimate: 1.9, Lo: 1.1, Hi: 3.3, PSupport: 0.024, PContradict: 0.976}
	against := verdict.Test{Label: "Diabetes: gain", Estimate: -0.05, Lo: -0.07, Hi: -0.03, PSupport: 0.992, PContradict: 0.008}
	neutral := verdict.Test{Label: "other", Estimate: 0, Lo: -1, Hi: 1, PSupport: 0.5, PContradict: 0.5}
	claim := func(exp, id string, kind run.ClaimKind, sc run.Scale, v verdict.Verdict) run.ClaimResult {
		status := map[verdict.Outcome]string{verdict.Supported: run.StatusSupported, verdict.Contradicted: run.StatusContradicted,
			verdict.Inconclusive: run.StatusInconclusive}[v.Outcome]
		return run.ClaimResult{Experiment: exp, ClaimID: id, Kind: kind, Scale: sc, Status: status, Verdict: v}
	}
	quick := []run.ClaimResult{
		claim("f1", "close", run.Finding, run.Quick, verdict.Decide([]verdict.Test{firm})),
		claim("f1", "spread", run.Finding, run.Quick, verdict.Decide([]verdict.Test{fragile})),
		claim("f2", "fast", run.Timing, run.Quick, verdict.Decide([]verdict.Test{fragile})),
		claim("f2", "gen", run.Finding, run.Quick, verdict.Decide([]verdict.Test{neutral})),
	}
	notRun := run.ClaimResult{Experiment: "f1", ClaimID: "close", Kind: run.Finding, Status: run.StatusNotRun}
	paper := []run.ClaimResult{
		notRun, // paper did not run f1: its quick verdicts count
		{Experiment: "f1", ClaimID: "spread", Kind: run.Finding, Status: run.StatusNotRun},
		claim("f2", "fast", run.Timing, run.Paper, verdict.Decide([]verdict.Test{firm})),
		// Eight members: Holm gives 8·0.008 = 0.064 against, so the family stays inconclusive.
		claim("f2", "gen", run.Finding, run.Paper, verdict.Decide([]verdict.Test{against, neutral, neutral, neutral, neutral, neutral, neutral, neutral})),
	}
	docs := []experiments.Document{{Name: "Chapter A", IDs: []string{"f1"}}, {Name: "Chapter B", IDs: []string{"f2"}}}
	got := headlineMarkdown([]scaleClaims{{Scale: run.Quick, Claims: quick}, {Scale: run.Paper, Claims: paper}}, docs)
	for _, want := range []string{
		"(paper for 2, quick for 2)",
		"| Source | Kind | Claims | SUPPORTED | CONTRADICTED | INCONCLUSIVE | NOT RUN | Decided at |\n",
		"| Chapter A | finding | 2 | 1 | 1 | 0 | 0 | quick |\n",
		"| Chapter B | finding | 1 | 0 | 0 | 1 | 0 | paper |\n",
		"|  | timing | 1 | 0 | 1 | 0 | 0 | paper |\n",
		"| **All sources** | finding | 3 | 1 | 1 | 1 | 0 | paper 1, quick 2 |\n",
		"| **All sources** | **all** | 4 | 1 | 2 | 1 | 0 | paper 2, quick 2 |\n",
		"- **f1 close** (finding, quick): KC1: ratio: 2.04 [1.71, 2.44] (p = 0.001)\n",
		"- **f2 fast** (timing, paper): KC1: ratio",
		"### Fragile verdicts",
		"- **f1 spread** (finding, quick) SUPPORTED: Adult: spread: 1.9 [1.1, 3.3] (p = 0.024)\n",
		"- **f2 gen** (finding, paper): Diabetes: gain: -0.05 [-0.07, -0.03] (p = 0.008 against, unadjusted)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("headline lacks %q:\n%s", want, got)
		}
	}
	// The quick timing verdict was fragile but the paper one supersedes it.
	if strings.Contains(got, "**f2 fast** (timing, quick)") {
		t.Errorf("headline lists a superseded quick verdict:\n%s", got)
	}
	// Findings are listed before timings among the contradictions.
	if strings.Index(got, "**f1 close**") > strings.Index(got, "**f2 fast**") {
		t.Errorf("contradictions not ordered by kind:\n%s", got)
	}
}

// TestREADMECarriesTheHeadline keeps the README's "What holds" table the one the committed claims
// report opens with (itself checked against the committed results by
// TestCommittedOutputsRegenerate): re-make the report, then paste its table into the README.
func TestREADMECarriesTheHeadline(t *testing.T) {
	table := func(path string) string {
		text := string(mustRead(t, path))
		start := strings.Index(text, "| Source | Kind |")
		if start < 0 {
			t.Fatalf("%s has no headline table", path)
		}
		end := strings.Index(text[start:], "\n\n")
		if end < 0 {
			end = len(text) - start
		}
		return text[start : start+end]
	}
	report, readme := filepath.Join("..", "..", "figures", "CLAIMS.md"), filepath.Join("..", "..", "README.md")
	if got, want := table(readme), table(report); got != want {
		t.Errorf("the table of %s differs from the one of %s: paste it again\n%s", readme, report, want)
	}
}
