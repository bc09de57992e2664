package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fastkernels/kernellab/experiments"
	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

// mirrorOrSkip points the loaders at the offline data mirror, or skips tests that need real data.
func mirrorOrSkip(t *testing.T) {
	t.Helper()
	mirror := os.Getenv("LAB_DATA_MIRROR")
	if mirror == "" {
		mirror = filepath.Join("..", "..", "..", "shared", "datasets")
	}
	if _, err := os.Stat(filepath.Join(mirror, "kc1")); err != nil {
		t.Skip("no data mirror (set LAB_DATA_MIRROR)")
	}
	abs, _ := filepath.Abs(mirror)
	t.Setenv("LAB_DATA_MIRROR", abs)
	t.Setenv("LAB_DATA_CACHE", t.TempDir())
}

func lab(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := dispatch(context.Background(), args, &out)
	return out.String(), err
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"run", "--scale", "huge"},
		{"run", "--shard", "3/3"},
		{"run", "--scale", "smoke", "no_such_experiment"},
		{"list", "--no-such-flag"},
		{"merge", "--scale", "smoke"},
		{"datasets"},
		{"datasets", "explode"},
		{"run", "--scale", "smoke", "--first", "-1", "fig5_1"},
		{"run", "--scale", "smoke", "--first", "1", "--shard", "0/2", "fig5_1"},
		{"run", "--scale", "smoke", "--first", "1", "fig2_1"}, // its figure does not label a partial run
	} {
		_, err := lab(t, args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("lab %v: want a usage error, got %v", args, err)
		}
	}
	if _, err := lab(t, "run", "--help"); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help must be reported as help, got %v", err)
	}
}

func TestListShowsTheCatalogue(t *testing.T) {
	out, err := lab(t, "list", "--scale", "smoke")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"fig2_1", "fig3_1", "table3_1", "table4_1", "table6_1"} {
		if !strings.Contains(out, id) {
			t.Errorf("list lacks %s:\n%s", id, out)
		}
	}
}

// TestShardsMergeToTheUnshardedBytes runs table6_1 whole and in three shards, merges the shards, and
// compares the results files byte for byte; then renders from the merged results. table6_1 uses
// fig6_6's results (run.Experiment.Uses), so this also checks that run, shard, merge and render act on
// the producer's tasks and files (fig6_6.csv) and render the user's figure.
func TestShardsMergeToTheUnshardedBytes(t *testing.T) {
	mirrorOrSkip(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	if _, err := lab(t, "run", "--scale", "smoke", "--results", whole, "--figures", filepath.Join(dir, "fig"), "table6_1"); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		d := filepath.Join(dir, "shard"+s[:1])
		shards = append(shards, d)
		if _, err := lab(t, "run", "--scale", "smoke", "--results", d, "--shard", s, "table6_1"); err != nil {
			t.Fatal(err)
		}
	}
	merged := filepath.Join(dir, "merged")
	if _, err := lab(t, append([]string{"merge", "--scale", "smoke", "--into", merged}, shards...)...); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(whole, "smoke", "fig6_6.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(merged, "smoke", "fig6_6.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("merged results differ from the unsharded run:\n%s\nvs\n%s", got, want)
	}
	figs := filepath.Join(dir, "figs-merged")
	if _, err := lab(t, "render", "--scale", "smoke", "--results", merged, "--figures", figs, "table6_1"); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(figs, "table6_1.md"))
	if err != nil || !strings.Contains(string(md), "Kin8nm") {
		t.Fatalf("rendered table missing or incomplete: %v\n%s", err, md)
	}
}

// TestRunResumesFromKeptTasks deletes one task's kept result and the final table, reruns, and checks the
// rerun rebuilds exactly the same file.
func TestRunResumesFromKeptTasks(t *testing.T) {
	mirrorOrSkip(t)
	dir := t.TempDir()
	args := []string{"run", "--scale", "smoke", "--results", dir, "--figures", filepath.Join(dir, "fig"), "table3_1"}
	if _, err := lab(t, args...); err != nil {
		t.Fatal(err)
	}
	final := filepath.Join(dir, "smoke", "table3_1.csv")
	want, err := os.ReadFile(final)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := filepath.Glob(filepath.Join(dir, "smoke", "table3_1.parts", "*"))
	if err != nil || len(parts) != 4 {
		t.Fatalf("want 4 kept task files, have %v (%v)", parts, err)
	}
	if err := os.Remove(parts[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(final); err != nil {
		t.Fatal(err)
	}
	if _, err := lab(t, args...); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(final)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("resumed run differs (%v):\n%s\nvs\n%s", err, got, want)
	}
}

// TestFirstMakesALabelledPartialRun: lab run --first 1 runs the first of fig5_1's two smoke tasks,
// renders from them and checks the claims: the caption, the claims report and the meta file say
// which part of the plan they show; rerun without --first, the whole run resumes from that task.
func TestFirstMakesALabelledPartialRun(t *testing.T) {
	dir := t.TempDir()
	figs := filepath.Join(dir, "fig")
	args := []string{"run", "--scale", "smoke", "--results", dir, "--figures", figs, "fig5_1"}
	if _, err := lab(t, append(args, "--first", "1")...); err != nil {
		t.Fatal(err)
	}
	note := "2 of 4 draws (a partial run: the first 2)"
	meta := string(mustRead(t, filepath.Join(dir, "smoke", "fig5_1.meta.json")))
	if !strings.Contains(string(mustRead(t, filepath.Join(figs, "fig5_1.md"))), note) ||
		!strings.Contains(string(mustRead(t, filepath.Join(figs, "CLAIMS.md"))), "smoke sizes, "+note+": ") ||
		!strings.Contains(meta, `"tasks": 1,`) || !strings.Contains(meta, `"plan_tasks": 2,`) {
		t.Fatalf("the partial run is not labelled as such; meta:\n%s", meta)
	}
	if _, err := lab(t, args...); err != nil {
		t.Fatal(err)
	}
	if caption := string(mustRead(t, filepath.Join(figs, "fig5_1.md"))); strings.Contains(caption, "partial run") {
		t.Fatalf("the whole run's caption says partial:\n%s", caption)
	}
	if meta := string(mustRead(t, filepath.Join(dir, "smoke", "fig5_1.meta.json"))); !strings.Contains(meta, `"tasks_kept": 1,`) || strings.Contains(meta, "plan_tasks") {
		t.Fatalf("the whole run did not resume from the partial one's task:\n%s", meta)
	}
}

func TestClaimsReportWithoutResultsSaysNotRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "CLAIMS.md")
	msg, err := lab(t, "claims", "--scale", "smoke", "--results", filepath.Join(dir, "none"), "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "0 supported") || !strings.Contains(msg, "not run") {
		t.Errorf("summary line: %s", msg)
	}
	report, err := os.ReadFile(out)
	if err != nil || !strings.Contains(strings.ToLower(string(report)), "not run") {
		t.Fatalf("report must say the claims were not run: %v\n%s", err, report)
	}
}

func TestFlagsAfterArguments(t *testing.T) {
	var s settings
	fs := newFlags("x", "", "", &s, withScale|withFigures)
	if _, err := s.parse(fs, []string{"verify", "--scale", "smoke", "kc1", "--figures", "f"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(fs.Args(), " "); got != "verify kc1" || s.scale != "smoke" || s.figures != "f" {
		t.Fatalf("args %q, scale %q, figures %q", got, s.scale, s.figures)
	}
}

// A run writes into the committed figures/ only with --update-reference: by default each scale's
// figures, report and gallery go under its results root, a folder in figures/ is refused, and the
// report of a run of a part of the catalogue says which experiments ran.
func TestRunsLeaveTheCommittedOutputsAlone(t *testing.T) {
	mirrorOrSkip(t)
	t.Chdir(t.TempDir())
	for _, sc := range []string{"smoke", "quick"} {
		if _, err := lab(t, "run", "--scale", sc, "--results", "res", "fig2_1", "table3_1"); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"fig2_1.png", "table3_1.md", "CLAIMS.md", "README.md"} {
			if _, err := os.Stat(filepath.Join("res", sc, "figures", f)); err != nil {
				t.Error(err)
			}
		}
		report := string(mustRead(t, filepath.Join("res", sc, "figures", "CLAIMS.md")))
		if !strings.Contains(report, "A partial run: only fig2_1, table3_1 ran.") {
			t.Errorf("the %s report of a partial run does not say so:\n%s", sc, report)
		}
	}
	if _, err := lab(t, "claims", "--scale", "paper", "--results", "res"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("res/paper/figures/CLAIMS.md"); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat("figures"); !os.IsNotExist(err) {
		t.Fatalf("a run without --update-reference created figures/ (%v)", err)
	}
	for _, args := range [][]string{
		{"render", "--scale", "quick", "--results", "res", "--figures", "figures"},
		{"render", "--scale", "quick", "--results", "figures/results"}, // default figures/results/quick/figures
		{"claims", "--scale", "quick", "--results", "res", "--out", "figures/paper/CLAIMS.md"},
		{"claims", "--scale", "smoke", "--update-reference"},
		{"render", "--scale", "quick", "--update-reference", "--figures", "elsewhere"},
	} {
		var ue usageError
		if _, err := lab(t, args...); !errors.As(err, &ue) {
			t.Errorf("lab %v: want a usage error, got %v", args, err)
		}
	}
}

// datasets verify goes through every named data set and reports each failure before exiting
// non-zero.
func TestDatasetsVerifyReportsEverySet(t *testing.T) {
	mirror := t.TempDir()
	for _, set := range []string{"kc1", "adult"} {
		if err := os.MkdirAll(filepath.Join(mirror, set), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, err := lab(t, "datasets", "verify", "--mirror", mirror, "--cache", t.TempDir(), "kc1", "adult")
	if err == nil || !strings.Contains(err.Error(), "2 of 2") {
		t.Fatalf("got %v", err)
	}
	for _, want := range []string{"kc1: FAILED", "adult: FAILED"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Each command's --help lists exactly its own flags.
func TestHelpListsOnlyOwnFlags(t *testing.T) {
	for cmd, want := range map[string][]string{
		"list":     {"-scale"},
		"run":      {"-scale", "-results", "-figures", "-update-reference", "-mirror", "-cache", "-shard", "-first", "-workers", "-fresh", "-no-render", "-v"},
		"render":   {"-scale", "-results", "-figures", "-update-reference"},
		"claims":   {"-scale", "-results", "-figures", "-update-reference", "-out"},
		"merge":    {"-scale", "-into", "-only"},
		"datasets": {"-mirror", "-cache"},
	} {
		out, err := lab(t, cmd, "--help")
		if !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s --help: %v", cmd, err)
		}
		var got []string
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(line, "  -") {
				got = append(got, f[0])
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s --help lists %v, want %v", cmd, got, want)
		}
	}
}

// Mistakes on the command line are one-line usage errors that name the command.
func TestCommandLineMistakesAreOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--bogus"}, "run: flag provided but not defined: -bogus (see lab run --help)"},
		{[]string{"render", "nope"}, `unknown experiment "nope"`},
		{[]string{"run", "--workers", "-1", "fig2_1"}, "run: --workers -1: want 0 (all cores) or more"},
		{[]string{"list", "foo"}, `list takes no arguments, got "foo"`},
		{[]string{"claims", "extra"}, "claims takes no arguments"},
		// One strict scale parser, one exit status for every bad scale (issue 34).
		{[]string{"list", "--scale", "Quick"}, `unknown scale "Quick"`},
		{[]string{"list", "--scale", "smoke "}, `unknown scale "smoke "`},
		{[]string{"list", "--scale", ""}, "scale not set"},
		{[]string{"list", "--scale", "huge"}, `unknown scale "huge"`},
	} {
		out, err := lab(t, tc.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || out != "" {
			t.Errorf("%v: error %v, output %q; want one usage line containing %q", tc.args, err, out, tc.want)
		}
		if strings.Count(err.Error(), "fig2_1") > 1 {
			t.Errorf("%v repeats the ID: %v", tc.args, err)
		}
	}
}

func TestVersion(t *testing.T) {
	out, err := lab(t, "--version")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"github.com/fastkernels/kernellab", "revision: ", "go: go1.", "BLAS: "} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}

// Offline, a download names its URL once and says how to use a local mirror; datasets list fits
// a terminal of 100 columns.
func TestDatasetsOfflineHintAndListWidth(t *testing.T) {
	empty := t.TempDir()
	out, err := lab(t, "datasets", "fetch", "--mirror", empty, "--cache", t.TempDir(), "kc1")
	if err == nil {
		t.Skip("kc1 downloaded: this machine is online")
	}
	if !strings.Contains(out, "LAB_DATA_MIRROR") {
		t.Errorf("no mirror hint:\n%s", out)
	}
	spec, _ := dataset.Lookup("kc1")
	if url := spec.Files[0].URL; strings.Count(out, url) != 1 {
		t.Errorf("the URL %s appears %d times:\n%s", url, strings.Count(out, url), out)
	}
	t.Setenv("COLUMNS", "")
	list, err := lab(t, "datasets", "list", "--mirror", empty)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(list, "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("%d columns: %q", n, line)
		}
	}
}

// Paper results rendered with --update-reference into figures/paper become the paper reference
// results in figures/results/paper, beside the quick ones; rendering "all" skips the experiments
// without paper results; rendering from the committed references leaves them as they are; and each
// scale's claims report, made from the committed references, shows the other's committed verdicts.
func TestPaperReferencesSideBySide(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, err := lab(t, "run", "--scale", "smoke", "--results", "res", "fig2_1"); err != nil {
		t.Fatal(err)
	}
	table := mustRead(t, "res/smoke/fig2_1.csv")
	// A stand-in for paper results: fig2_1 renders any scale's points.
	if err := os.MkdirAll("res/paper", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("res/paper/fig2_1.csv", table, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := lab(t, "render", "--scale", "paper", "--results", "res", "--update-reference")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "no results of fig3_2 at paper scale in res: skipped") || !strings.Contains(out, "rendered fig2_1 into figures/paper") {
		t.Errorf("render all at paper:\n%s", out)
	}
	if _, err := lab(t, "render", "--scale", "paper", "--results", "res", "--update-reference", "fig3_2"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("rendering a named experiment without results: %v", err)
	}
	if got := mustRead(t, "figures/results/paper/fig2_1.csv"); !bytes.Equal(got, table) {
		t.Error("figures/results/paper/fig2_1.csv is not the rendered results")
	}
	if _, err := os.Stat("figures/paper/fig2_1.md"); err != nil {
		t.Error(err)
	}
	// From a clean clone, as reproduce.sh calls it (absolute folders): the committed references
	// render and report themselves.
	abs := func(p string) string { return filepath.Join(dir, p) }
	if _, err := lab(t, "render", "--scale", "paper", "--results", abs("figures/results"), "--figures", abs("figures/paper"), "--update-reference", "fig2_1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("figures/paper/results"); !os.IsNotExist(err) {
		t.Errorf("rendering into the absolute default folder wrote references under it (%v)", err)
	}
	if _, err := lab(t, "run", "--scale", "quick", "--results", "res", "--no-render", "fig2_1"); err != nil {
		t.Fatal(err)
	}
	if _, err := lab(t, "render", "--scale", "quick", "--results", "res", "--update-reference", "fig2_1"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll("res/paper"); err != nil {
		t.Fatal(err)
	}
	if _, err := lab(t, "claims", "--scale", "quick", "--results", "res", "--update-reference"); err != nil {
		t.Fatal(err)
	}
	report := string(mustRead(t, "figures/CLAIMS.md"))
	if !strings.Contains(report, "- paper: ") || !strings.Contains(report, "(results: the committed references in figures/results/paper)") {
		t.Errorf("the quick report lacks the committed paper verdicts:\n%s", report)
	}
}

// mustRead returns a file's contents, failing the test when it cannot be read.
func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The committed figures, tables, claims reports and galleries of each scale are what lab render and
// lab claims make of the committed reference results: nothing committed is stale, and a clean
// clone regenerates them byte for byte. Both sides are the files as committed at HEAD (a clean
// export of figures/), never the working tree, which a run or an edit may have changed.
func TestCommittedOutputsRegenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every committed figure (about 30 s); run without -short")
	}
	t.Chdir(exportCommitted(t, "figures"))
	reg, err := experiments.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []run.Scale{run.Quick, run.Paper} {
		var ids []string
		for _, e := range reg.All() {
			if _, err := os.Stat(filepath.Join(checkout.reference(sc), e.Producer().ID+".csv")); err == nil {
				ids = append(ids, e.ID)
			}
		}
		if len(ids) == 0 {
			if sc == run.Quick {
				t.Fatal("no committed quick-scale reference results")
			}
			continue
		}
		out := t.TempDir()
		if _, err := lab(t, append([]string{"render", "--scale", string(sc), "--results", checkout.referenceRoot(), "--figures", out}, ids...)...); err != nil {
			t.Fatal(err)
		}
		// The rendered files, the claims report and the gallery are compared in place, over the
		// exported copy: the gallery links to the other scale's gallery relative to its own folder,
		// and writes the verdicts into the captions there. The committed files wait in out.
		dir, _ := checkout.committedFigures(sc)
		files, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"CLAIMS.md", "README.md"}
		for _, f := range files {
			names = append(names, f.Name())
			if err := os.Rename(filepath.Join(out, f.Name()), filepath.Join(dir, f.Name()+".rendered")); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range names {
			if err := os.Rename(filepath.Join(dir, name), filepath.Join(out, name)); err != nil {
				t.Errorf("%s: %v (rendered, not committed)", filepath.Join(dir, name), err)
			}
			if _, err := os.Stat(filepath.Join(dir, name+".rendered")); err == nil {
				if err := os.Rename(filepath.Join(dir, name+".rendered"), filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := lab(t, "claims", "--scale", string(sc), "--results", checkout.referenceRoot(), "--update-reference"); err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if want, err := os.ReadFile(filepath.Join(out, name)); err != nil || !bytes.Equal(mustRead(t, filepath.Join(dir, name)), want) {
				t.Errorf("%s differs from what lab render and lab claims make of %s as committed (%v): render it again with --update-reference", filepath.Join(dir, name), checkout.reference(sc), err)
			}
		}
	}
}

// exportCommitted writes the files under path as committed at HEAD in the repository around this
// package into a temporary folder (git archive), and returns that folder.
func exportCommitted(t *testing.T, path string) string {
	t.Helper()
	dir := t.TempDir()
	tarball := filepath.Join(dir, "committed.tar")
	archive := exec.Command("git", "archive", "--format=tar", "-o", tarball, "HEAD", path)
	archive.Dir = filepath.Join("..", "..")
	if out, err := archive.CombinedOutput(); err != nil {
		t.Skipf("not a git checkout, no committed files to compare with: %v: %s", err, out)
	}
	if out, err := exec.Command("tar", "-xf", tarball, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("extracting the committed %s: %v: %s", path, err, out)
	}
	return dir
}

// A first SIGTERM cancels the commands' context and says so; a second one ends the process at
// once, even while a task ignores its context (issue 34: a stopped fig3_2 run needed SIGKILL).
// The test runs itself as the child (LAB_SIGNAL_CHILD): the child cancels nothing itself and
// sleeps on after its context is done, as a task between two checks would.
func TestSecondSignalQuits(t *testing.T) {
	if os.Getenv("LAB_SIGNAL_CHILD") == "1" {
		ctx, cancel := context.WithCancel(context.Background())
		stopOnSignal(cancel)
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("cancelled")
		time.Sleep(time.Minute) // a task that does not look at ctx
		os.Exit(0)
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestSecondSignalQuits$")
	cmd.Env = append(os.Environ(), "LAB_SIGNAL_CHILD=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	next := func(want string) {
		t.Helper()
		if !lines.Scan() || lines.Text() != want {
			t.Fatalf("child printed %q, want %q (stderr %q)", lines.Text(), want, stderr.String())
		}
	}
	next("ready")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	next("cancelled")
	time.Sleep(100 * time.Millisecond) // the handler resets the signal right after it cancels
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != -1 || time.Since(start) > 10*time.Second {
		t.Fatalf("after a second SIGTERM the child ended with %v after %v; want death by the signal at once", err, time.Since(start))
	}
	if !strings.Contains(stderr.String(), "interrupt again to quit now") {
		t.Errorf("the first signal was not announced: stderr %q", stderr.String())
	}
}
