package notebook

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gota/gota/dataframe"

	"github.com/fastkernels/kernellab/lab/run"
)

func TestScaleFromEnvironment(t *testing.T) {
	t.Setenv(ScaleVariable, "")
	if sc, err := Scale(); err != nil || sc != run.Quick {
		t.Fatalf("unset: got %q, %v; want quick", sc, err)
	}
	t.Setenv(ScaleVariable, "smoke")
	if sc, err := Scale(); err != nil || sc != run.Smoke {
		t.Fatalf("smoke: got %q, %v", sc, err)
	}
	t.Setenv(ScaleVariable, "huge")
	if _, err := Scale(); err == nil {
		t.Fatal("an unknown scale must be an error")
	}
}

func TestRootFindsTheRepository(t *testing.T) {
	root := t.TempDir()
	nb := filepath.Join(root, "notebooks", "deep")
	for _, d := range []string{nb, filepath.Join(root, "lab")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Root(nb)
	if err != nil || got != root {
		t.Fatalf("Root(%s) = %q, %v; want %q", nb, got, err, root)
	}
	if _, err := Root(t.TempDir()); err == nil {
		t.Fatal("a folder outside any repository must be an error")
	}
}

func TestProgressHTML(t *testing.T) {
	got := progressHTML("fig<3>", 3, 4, 1500*time.Millisecond, nil, "loading kc1")
	for _, want := range []string{"fig&lt;3&gt;", `value="3" max="4"`, "3/4 tasks (75%)", "1.5s", "loading kc1"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress HTML lacks %q:\n%s", want, got)
		}
	}
	failed := progressHTML("x", 0, 0, 0, errors.New("bad <input>"), "note")
	if !strings.Contains(failed, "error: bad &lt;input&gt;") || strings.Contains(failed, "note") {
		t.Errorf("an error must replace the note, escaped:\n%s", failed)
	}
}

func TestClaimsMarkdown(t *testing.T) {
	md := ClaimsMarkdown([]run.ClaimResult{{Text: "DAC beats uniform", Status: "supported", Evidence: "0.1 < 0.2", Scale: run.Smoke, Kind: run.Finding}})
	for _, want := range []string{"scale smoke", "**SUPPORTED** *(finding)* — DAC beats uniform", "0.1 < 0.2"} {
		if !strings.Contains(md, want) {
			t.Errorf("claims Markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(ClaimsMarkdown(nil), "No claims") {
		t.Error("an experiment without claims must say so")
	}
}

func TestFrameMarkdown(t *testing.T) {
	df := dataframe.LoadRecords([][]string{{"a", "b"}, {"1", "x"}, {"2", "y"}, {"3", "z"}})
	got := FrameMarkdown(df, 2)
	want := "| a | b |\n| --- | --- |\n| 1 | x |\n| 2 | y |\n\n_3 rows × 2 columns (first 2 shown)_\n"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(FrameMarkdown(df, 10), "first 3 shown") {
		t.Fatal("asking for more rows than there are must show them all")
	}
}
