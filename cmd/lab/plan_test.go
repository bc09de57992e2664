package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

func TestSampleIndicesSpreadOverThePlan(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want []int
	}{
		{10, 3, []int{0, 5, 9}},
		{10, 1, []int{0}},
		{4, 9, []int{0, 1, 2, 3}},
		{2, 3, []int{0, 1}},
		{101, 5, []int{0, 25, 50, 75, 100}},
	} {
		if got := sampleIndices(c.n, c.k); !reflect.DeepEqual(got, c.want) {
			t.Errorf("sampleIndices(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
		}
	}
}

func TestParseSlurmTime(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"10":         10 * time.Minute,
		"4h":         4 * time.Hour,
		"90m":        90 * time.Minute,
		"1:30":       time.Minute + 30*time.Second,
		"4:00:00":    4 * time.Hour,
		"1-00:00:00": 24 * time.Hour,
		"2-3":        51 * time.Hour,
		"1-2:30":     26*time.Hour + 30*time.Minute,
	} {
		got, err := parseSlurmTime(in)
		if err != nil || got != want {
			t.Errorf("parseSlurmTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "0", "1:2:3:4", "-5"} {
		if _, err := parseSlurmTime(bad); err == nil {
			t.Errorf("parseSlurmTime(%q): want an error", bad)
		}
	}
	if got := slurmTime(4*time.Hour + 30*time.Second); got != "0-04:01:00" {
		t.Errorf("slurmTime rounds up to the minute: got %s", got)
	}
}

func TestShardsForFitTheTimeLimit(t *testing.T) {
	e := &run.Experiment{ID: "x"}
	c := expCost{e: e, tasks: 100, samples: []taskCost{{cpu: time.Hour, wall: time.Hour}}}
	// 100 CPU hours on 4-CPU shards of 4 h at 75%: 12 CPU hours each, so 9 shards.
	if got := shardsFor([]expCost{c}, 4, 4*time.Hour); got != 9 {
		t.Errorf("shards = %d, want 9", got)
	}
	// Never more shards than tasks.
	if got := shardsFor([]expCost{c}, 1, time.Minute); got != 100 {
		t.Errorf("shards = %d, want 100 (one task each)", got)
	}
	serial := expCost{e: &run.Experiment{ID: "s", Serial: true}, tasks: 10, samples: []taskCost{{cpu: time.Minute, wall: time.Hour}}}
	if got := serial.wallOn(8); got != 10*time.Hour {
		t.Errorf("a Serial experiment runs its tasks one after another: wall %s, want 10h", got)
	}
}

func TestSlurmScripts(t *testing.T) {
	j := slurmJob{scale: run.Paper, shards: 20, cpus: 8, time: "0-04:00:00", mem: "6G", partition: "cpu", account: "lab",
		results: "/scratch/res", figures: "/home/u/kernellab/figures/paper", workdir: "/home/u/kernellab", lab: "/home/u/kernellab/.tools/bin/lab",
		ids: []string{"fig3_2", "fig3_5"}, array: []int{0, 3, 19}, env: []string{"LAB_DATA_CACHE=/scratch/my cache"}}
	a := j.arrayScript()
	for _, want := range []string{"#SBATCH --array=0,3,19\n", "#SBATCH --cpus-per-task=8\n", "#SBATCH --time=0-04:00:00\n", "#SBATCH --mem=6G\n",
		"#SBATCH --partition=cpu\n", "#SBATCH --account=lab\n", "export LAB_DATA_CACHE='/scratch/my cache'\n",
		`--results /scratch/res/shards/"$SLURM_ARRAY_TASK_ID" --shard "$SLURM_ARRAY_TASK_ID/20"`, " fig3_2 fig3_5\n"} {
		if !strings.Contains(a, want) {
			t.Errorf("array script lacks %q:\n%s", want, a)
		}
	}
	m := j.mergeScript()
	for _, want := range []string{"merge --scale paper --into /scratch/res --only fig3_2,fig3_5 /scratch/res/shards/0 ", "/scratch/res/shards/19\n",
		"render --scale paper --results /scratch/res --figures /home/u/kernellab/figures/paper fig3_2 fig3_5\n", "claims --scale paper"} {
		if !strings.Contains(m, want) {
			t.Errorf("merge script lacks %q:\n%s", want, m)
		}
	}
}

func TestSlurmPrintsScriptsAndSkipsFinishedShards(t *testing.T) {
	mirrorOrSkip(t)
	dir := t.TempDir()
	res := filepath.Join(dir, "res")
	args := []string{"slurm", "--scale", "smoke", "--shards", "2", "--time", "10", "--mem", "1G", "--results", res, "--lab", "/opt/lab/bin/lab", "fig2_1"}
	out, err := lab(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	// fig2_1 has one task: shard 0 owns it, shard 1 owns none (nothing to run).
	if !strings.Contains(out, "#SBATCH --array=0\n") {
		t.Fatalf("want shard 0 alone in the array:\n%s", out)
	}
	// --time reaches sbatch in Slurm's syntax, whichever syntax it was given in.
	for limit, want := range map[string]string{"10": "0-00:10:00", "4h": "0-04:00:00", "1-2": "1-02:00:00"} {
		timed := slices.Clone(args)
		timed[slices.Index(timed, "--time")+1] = limit
		out, err := lab(t, timed...)
		if err != nil || !strings.Contains(out, "#SBATCH --time="+want+"\n") {
			t.Errorf("--time %s: want #SBATCH --time=%s (%v):\n%s", limit, want, err, out)
		}
	}
	if _, err := lab(t, "run", "--scale", "smoke", "--results", filepath.Join(res, "shards", "0"), "--shard", "0/2", "fig2_1"); err != nil {
		t.Fatal(err)
	}
	out, err = lab(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "every shard is finished") {
		t.Fatalf("a finished run must need only the merge job:\n%s", out)
	}
}

// The jobs get the data source through their environment: --mirror and --cache over the
// environment's, as absolute folders; the cache only when one was chosen.
func TestSlurmForwardsTheDataSource(t *testing.T) {
	for _, k := range []string{dataset.MirrorEnv, dataset.CacheEnv, dataset.UpstreamEnv, pureGoEnv} {
		t.Setenv(k, "")
	}
	t.Chdir(t.TempDir())
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	slurm := func(flags ...string) string {
		t.Helper()
		args := append([]string{"slurm", "--scale", "smoke", "--shards", "1", "--time", "10", "--mem", "1G", "--results", "res", "--lab", "/opt/lab/bin/lab"}, flags...)
		out, err := lab(t, append(args, "fig2_1")...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := slurm(); strings.Contains(out, "export LAB_") {
		t.Errorf("nothing chosen, yet the jobs get a setting:\n%s", out)
	}
	out := slurm("--mirror", "m", "--cache", "c")
	for _, want := range []string{"export LAB_DATA_MIRROR=" + filepath.Join(wd, "m") + "\n", "export LAB_DATA_CACHE=" + filepath.Join(wd, "c") + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("--mirror m --cache c: the jobs lack %q:\n%s", want, out)
		}
	}
	t.Setenv(dataset.MirrorEnv, "/env/mirror")
	t.Setenv(dataset.UpstreamEnv, "http://127.0.0.1:1")
	out = slurm()
	for _, want := range []string{"export LAB_DATA_MIRROR=/env/mirror\n", "export LAB_DATA_UPSTREAM=http://127.0.0.1:1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("from the environment: the jobs lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, dataset.CacheEnv) {
		t.Errorf("no cache chosen, yet the jobs get one:\n%s", out)
	}
}

func TestDiffToleratesLastBitsOnly(t *testing.T) {
	mirrorOrSkip(t)
	dir := t.TempDir()
	res := filepath.Join(dir, "res")
	if _, err := lab(t, "run", "--scale", "smoke", "--no-render", "--results", res, "notes_fig_rff"); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref")
	table := filepath.Join(res, "smoke", "notes_fig_rff.csv")
	data, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(ref, 0o755)
	os.WriteFile(filepath.Join(ref, "notes_fig_rff.csv"), data, 0o644)
	out, err := lab(t, "diff", "--scale", "smoke", "--results", res, "--reference", ref, "notes_fig_rff")
	if err != nil || !strings.Contains(out, "0 drifted") {
		t.Fatalf("identical results: %v\n%s", err, out)
	}
	// Change one value in its last digits: drift.
	lines := strings.Split(string(data), "\n")
	f := strings.Split(lines[1], ",")
	v := f[len(f)-1]
	f[len(f)-1] = v[:len(v)-1] + map[bool]string{true: "1", false: "2"}[v[len(v)-1] != '1']
	lines[1] = strings.Join(f, ",")
	os.WriteFile(filepath.Join(ref, "notes_fig_rff.csv"), []byte(strings.Join(lines, "\n")), 0o644)
	// A last-digit change is within the default tolerance, and said so.
	out, err = lab(t, "diff", "--scale", "smoke", "--results", res, "--reference", ref, "notes_fig_rff")
	if err != nil || !strings.Contains(out, "within tolerance") || !strings.Contains(out, "0 drifted") {
		t.Fatalf("a last-digit change must be within the tolerance: %v\n%s", err, out)
	}
	// --exact demands the bits.
	out, err = lab(t, "diff", "--scale", "smoke", "--results", res, "--reference", ref, "--exact", "notes_fig_rff")
	if err == nil || !strings.Contains(out, "DRIFT") {
		t.Fatalf("--exact: a changed value must be drift: %v\n%s", err, out)
	}
	// Judged statistically (--statistical), one changed last digit stays within the spread.
	if out, err := lab(t, "diff", "--scale", "smoke", "--results", res, "--reference", ref, "--exact", "--statistical", "notes_fig_rff"); err != nil {
		t.Fatalf("--statistical: a last-digit change is within the spread: %v\n%s", err, out)
	}
}

func TestNewCommandsUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"plan", "--sample", "0"},
		{"plan", "--time-limit", "soon"},
		{"plan", "no_such_experiment"},
		{"slurm", "--shards", "-1"},
		{"slurm", "--shards", "2", "--time", "soon", "--mem", "1G"},
		{"diff", "--scale", "huge"},
		{"diff", "--scale", "paper", "--reference", "/nonexistent", "fig2_1"},
		{"task", "--scale", "smoke", "fig2_1"},
	} {
		_, err := lab(t, args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("lab %v: want a usage error, got %v", args, err)
		}
	}
}

// A run writes its results and figures where it is told and leaves the committed reference results
// alone; --update-reference refreshes them with the run's (here in an export of the committed
// figures/, so that the checkout is not touched). The committed quick reference of fig2_1 is what
// this commit computes with OpenBLAS's Haswell kernels (reproduce.sh's build); the pure-Go build and
// other kernels (SkylakeX, Prescott) differ in the last bits, which lab diff's tolerance covers.
func TestOnlyUpdateReferenceRefreshesTheReferenceResults(t *testing.T) {
	mirrorOrSkip(t)
	t.Chdir(exportCommitted(t, "figures"))
	reference := filepath.Join("figures", "results", "quick", "fig2_1.csv")
	committed := mustRead(t, reference)
	dir := t.TempDir()
	res, figs := filepath.Join(dir, "res"), filepath.Join(dir, "figs")
	if _, err := lab(t, "run", "--scale", "quick", "--results", res, "--figures", figs, "fig2_1"); err != nil {
		t.Fatal(err)
	}
	fresh := mustRead(t, filepath.Join(res, "quick", "fig2_1.csv"))
	if _, err := os.Stat(filepath.Join(figs, "fig2_1.png")); err != nil {
		t.Errorf("the run's figure is not in --figures: %v", err)
	}
	if !bytes.Equal(mustRead(t, reference), committed) {
		t.Error("a run without --update-reference rewrote the committed reference results")
	}
	if info := blasbackend.Describe(); info.Backend == blasbackend.OpenBLAS && strings.EqualFold(info.Core, "Haswell") && !bytes.Equal(committed, fresh) {
		t.Error("figures/results/quick/fig2_1.csv differs from a fresh quick run: refresh it with lab run --scale quick --update-reference")
	}
	if _, err := lab(t, "run", "--scale", "quick", "--results", res, "--update-reference", "fig2_1"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustRead(t, reference), mustRead(t, filepath.Join(res, "quick", "fig2_1.csv"))) {
		t.Error("--update-reference did not refresh the reference results with the run's")
	}
}
