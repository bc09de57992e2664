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

func TestCheckClaims(t *testing.T) {
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
