package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/blasbackend"
)

func TestWorkerCountAndOrderDoNotChangeTheTable(t *testing.T) {
	one, four := t.TempDir(), t.TempDir()
	a := &toy{n: 12}
	mustExecute(t, a.experiment(), Options{Scale: Smoke, Dir: one, Workers: 1})
	b := &toy{n: 12, hook: sleepByIndex}
	mustExecute(t, b.experiment(), Options{Scale: Smoke, Dir: four, Workers: 4})
	if got, want := readFile(t, tablePath(four, Smoke, "toy1")), readFile(t, tablePath(one, Smoke, "toy1")); !bytes.Equal(got, want) {
		t.Fatalf("workers 4:\n%s\nworkers 1:\n%s", got, want)
	}
	if n := bytes.Count(readFile(t, tablePath(one, Smoke, "toy1")), []byte("\n")); n != 1+2*12 {
		t.Fatalf("%d lines, want header + 24 rows", n)
	}
}

func TestEnvRNGFollowsTheDocumentedDerivation(t *testing.T) {
	// Independent of taskRNG: FNV-1a via hash/fnv, SplitMix64 written out again.
	mix := func(x uint64) uint64 {
		x += 0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		return x ^ x>>31
	}
	h := fnv.New64a()
	h.Write([]byte("cfg1/rep=0"))
	hi := mix(42 ^ mix(h.Sum64()))
	want := rand.New(rand.NewPCG(hi, mix(hi))).Float64()

	dir := t.TempDir()
	res := mustExecute(t, (&toy{n: 2}).experiment(), Options{Scale: Smoke, Dir: dir})
	// task 1 has key cfg1/rep=0; its first record holds its first Float64 draw.
	if got := res.Rows[2].Value; got != want {
		t.Fatalf("task cfg1/rep=0 drew %v, want %v", got, want)
	}
	if res.Rows[0].Value == res.Rows[2].Value {
		t.Fatal("two keys drew the same number")
	}
}

func TestInterruptedRunResumesToTheCleanTable(t *testing.T) {
	for _, workers := range []int{1, 3} {
		clean, resumed := t.TempDir(), t.TempDir()
		mustExecute(t, (&toy{n: 9}).experiment(), Options{Scale: Quick, Dir: clean, Workers: workers})

		ctx, cancel := context.WithCancel(context.Background())
		const k = 4
		first := &toy{n: 9, hook: func(_ context.Context, i int) error {
			if i == k-1 {
				cancel()
			}
			return nil
		}}
		_, err := Execute(ctx, first.experiment(), Options{Scale: Quick, Dir: resumed, Workers: workers})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("workers %d: interrupted run returned %v, want context.Canceled", workers, err)
		}
		ran := first.calls.Load()
		if workers == 1 && ran != k {
			t.Fatalf("workers 1: %d tasks ran after cancelling in task %d", ran, k)
		}
		if _, err := os.Stat(tablePath(resumed, Quick, "toy1")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("interrupted run wrote the table (stat: %v)", err)
		}

		second := &toy{n: 9}
		mustExecute(t, second.experiment(), Options{Scale: Quick, Dir: resumed, Workers: workers})
		if got := second.calls.Load(); got != 9-ran {
			t.Fatalf("workers %d: resume ran %d tasks, want %d", workers, got, 9-ran)
		}
		if !bytes.Equal(readFile(t, tablePath(resumed, Quick, "toy1")), readFile(t, tablePath(clean, Quick, "toy1"))) {
			t.Fatalf("workers %d: resumed table differs from the clean one", workers)
		}

		third := &toy{n: 9}
		mustExecute(t, third.experiment(), Options{Scale: Quick, Dir: resumed, Workers: workers})
		if third.calls.Load() != 0 {
			t.Fatalf("a complete run re-ran %d tasks", third.calls.Load())
		}
		fresh := &toy{n: 9}
		mustExecute(t, fresh.experiment(), Options{Scale: Quick, Dir: resumed, Workers: workers, Fresh: true})
		if fresh.calls.Load() != 9 {
			t.Fatalf("fresh run ran %d tasks, want 9", fresh.calls.Load())
		}
	}
}

func TestShardsMergeToTheUnshardedBytes(t *testing.T) {
	whole := t.TempDir()
	mustExecute(t, (&toy{n: 10}).experiment(), Options{Scale: Paper, Dir: whole, Workers: 2})

	var shardDirs []string
	total := int64(0)
	for i := range 3 {
		dir := t.TempDir()
		ty := &toy{n: 10, hook: sleepByIndex}
		res := mustExecute(t, ty.experiment(), Options{Scale: Paper, Dir: dir, Workers: 2, Shard: Shard{i, 3}})
		total += ty.calls.Load()
		if want := (10 - i + 2) / 3; int(ty.calls.Load()) != want || len(res.Rows) != 2*want {
			t.Fatalf("shard %d/3 ran %d tasks (%d rows), want %d", i, ty.calls.Load(), len(res.Rows), want)
		}
		if _, err := os.Stat(tablePath(dir, Paper, "toy1")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("shard %d wrote a table", i)
		}
		shardDirs = append(shardDirs, dir)
	}
	if total != 10 {
		t.Fatalf("shards ran %d tasks in all, want 10", total)
	}
	e := (&toy{n: 10}).experiment()

	if err := Merge(e, Paper, t.TempDir(), shardDirs[:2]...); err == nil || !strings.Contains(err.Error(), "cfg2/rep=0") {
		t.Fatalf("merge without shard 2: %v, want an error naming cfg2/rep=0", err)
	}

	for _, dst := range []string{t.TempDir(), shardDirs[1]} {
		if err := Merge(e, Paper, dst, shardDirs...); err != nil {
			t.Fatal(err)
		}
		compareTrees(t, filepath.Join(whole, "paper"), filepath.Join(dst, "paper"))
	}
}

// compareTrees checks the table and every part file are byte for byte equal.
func compareTrees(t *testing.T, want, got string) {
	t.Helper()
	if !bytes.Equal(readFile(t, filepath.Join(got, "toy1.csv")), readFile(t, filepath.Join(want, "toy1.csv"))) {
		t.Fatalf("%s: table differs", got)
	}
	parts, err := os.ReadDir(filepath.Join(want, "toy1.parts"))
	if err != nil || len(parts) != 10 {
		t.Fatalf("reference parts: %d, %v", len(parts), err)
	}
	for _, p := range parts {
		rel := filepath.Join("toy1.parts", p.Name())
		if !bytes.Equal(readFile(t, filepath.Join(got, rel)), readFile(t, filepath.Join(want, rel))) {
			t.Fatalf("%s differs", rel)
		}
	}
}

func TestMergeRejectsConflictingParts(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	mustExecute(t, (&toy{n: 3}).experiment(), Options{Scale: Smoke, Dir: a})
	other := (&toy{n: 3}).experiment()
	other.Seed = 7
	mustExecute(t, other, Options{Scale: Smoke, Dir: b})
	if err := Merge(other, Smoke, t.TempDir(), a, b); err == nil || !strings.Contains(err.Error(), "different results") {
		t.Fatalf("got %v", err)
	}
}

func TestTaskErrorStopsTheRunAndKeepsFinishedParts(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("boom")
	ty := &toy{n: 9, hook: func(_ context.Context, i int) error {
		if i == 3 {
			return boom
		}
		return nil
	}}
	_, err := Execute(context.Background(), ty.experiment(), Options{Scale: Smoke, Dir: dir, Workers: 1})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), `"cfg0/rep=1"`) {
		t.Fatalf("got %v, want boom wrapped with key cfg0/rep=1", err)
	}
	if ty.calls.Load() != 4 {
		t.Fatalf("%d tasks ran, want 4 (the error stops the rest)", ty.calls.Load())
	}
	parts, _ := os.ReadDir(filepath.Join(dir, "smoke", "toy1.parts"))
	if len(parts) != 3 {
		t.Fatalf("%d parts kept, want 3", len(parts))
	}
}

func TestBadRecordsAndPanicsAreErrors(t *testing.T) {
	for name, rec := range map[string]Record{
		"NaN":          {Method: "m", Metric: "err", Value: math.NaN()},
		"+Inf":         {Method: "m", Metric: "err", Value: math.Inf(1)},
		"metric":       {Method: "m", Value: 1},
		"contains one": {Method: "m", Metric: "err", Params: []Param{P("a", "x;y")}},
		"appears":      {Method: "m", Metric: "err", Params: []Param{P("a", 1), P("a", 2)}},
		"line break":   {Method: "m\n", Metric: "err"},
	} {
		e := &Experiment{ID: "bad", Render: func(*Results, *Output) error { return nil },
			Plan: func(Scale) ([]Task, error) {
				return []Task{{Key: "only", Run: func(context.Context, *Env) ([]Record, error) { return []Record{rec}, nil }}}, nil
			}}
		_, err := Execute(context.Background(), e, Options{Scale: Smoke, Dir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), `"only"`) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	e := &Experiment{ID: "bad", Render: func(*Results, *Output) error { return nil },
		Plan: func(Scale) ([]Task, error) {
			return []Task{{Key: "p", Run: func(context.Context, *Env) ([]Record, error) { panic("oops") }}}, nil
		}}
	if _, err := Execute(context.Background(), e, Options{Scale: Smoke, Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("panicking task: got %v", err)
	}
}

func TestExecuteValidatesOptionsAndPlan(t *testing.T) {
	good := (&toy{n: 2}).experiment()
	dup := (&toy{n: 2}).experiment()
	dup.Plan = func(Scale) ([]Task, error) {
		run := func(context.Context, *Env) ([]Record, error) { return nil, nil }
		return []Task{{Key: "a", Run: run}, {Key: "a", Run: run}}, nil
	}
	noRun := (&toy{n: 2}).experiment()
	noRun.Plan = func(Scale) ([]Task, error) { return []Task{{Key: "a"}}, nil }
	dir := t.TempDir()
	for name, c := range map[string]struct {
		e    *Experiment
		opts Options
	}{
		"scale":      {good, Options{Dir: dir}},
		"directory":  {good, Options{Scale: Smoke}},
		"shard":      {good, Options{Scale: Smoke, Dir: dir, Shard: Shard{3, 3}}},
		"workers":    {good, Options{Scale: Smoke, Dir: dir, Workers: -1}},
		"twice":      {dup, Options{Scale: Smoke, Dir: dir}},
		"no Run":     {noRun, Options{Scale: Smoke, Dir: dir}},
		"experiment": {nil, Options{Scale: Smoke, Dir: dir}},
	} {
		if _, err := Execute(context.Background(), c.e, c.opts); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestStalePartIsAnError(t *testing.T) {
	dir := t.TempDir()
	e := (&toy{n: 3}).experiment()
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	path := filepath.Join(dir, "smoke", "toy1.parts", partFileName("cfg1/rep=0"))
	// A well-formed part (valid checksum) of another plan: its rows carry another repetition.
	table, err := verifyPart(readFile(t, path), path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readTable(bytes.NewReader(table), path)
	if err != nil {
		t.Fatal(err)
	}
	rows[0].Rep = 5
	data, err := encodePart(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Execute(context.Background(), e, Options{Scale: Smoke, Dir: dir}); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("got %v", err)
	}
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir, Fresh: true})
}

// A kept part cut down to its header, cut mid-row, with one digit edited, or without its checksum
// line is refused with the file's name and the fix, never read as fewer or other rows.
func TestDamagedPartIsRefused(t *testing.T) {
	dir := t.TempDir()
	e := (&toy{n: 3}).experiment()
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	path := filepath.Join(dir, "smoke", "toy1.parts", partFileName("cfg1/rep=0"))
	good := readFile(t, path)
	header := good[:bytes.IndexByte(good, '\n')+1]
	lastRow := bytes.LastIndex(good, []byte("\n"+checksumPrefix))
	for name, damaged := range map[string][]byte{
		"header only":  header,
		"cut mid-row":  good[:len(header)+5],
		"digit edited": bytes.Replace(good, []byte(",0,err,"), []byte(",0,err,9"), 1),
		"no checksum":  good[:lastRow+1],
		"empty":        nil,
	} {
		if err := os.WriteFile(path, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Execute(context.Background(), e, Options{Scale: Smoke, Dir: dir})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "--fresh") {
			t.Errorf("%s: got %v", name, err)
		}
	}
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir, Fresh: true})
	if !bytes.Equal(readFile(t, path), good) {
		t.Error("a fresh run did not rewrite the part as before")
	}
}

func TestRoundTripAndMeta(t *testing.T) {
	dir := t.TempDir()
	res := mustExecute(t, (&toy{n: 6}).experiment(), Options{Scale: Smoke, Dir: dir})
	back, err := ReadResults(tablePath(dir, Smoke, "toy1"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, res) {
		t.Fatalf("read back %+v\nwant %+v", back, res)
	}
	e := (&toy{n: 6}).experiment()
	loaded, err := Load(e, Smoke, dir)
	if err != nil || !reflect.DeepEqual(loaded, res) {
		t.Fatalf("Load: %v", err)
	}
	if _, err := Load(e, Quick, dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Load of a scale not run: %v, want ErrNotExist", err)
	}
	var meta map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "smoke", "toy1.meta.json")), &meta); err != nil {
		t.Fatal(err)
	}
	if meta["id"] != "toy1" || meta["scale"] != "smoke" || meta["seed"] != 42.0 || meta["tasks"] != 6.0 || meta["rows"] != 12.0 || meta["go_version"] == "" {
		t.Fatalf("meta %v", meta)
	}
	// The BLAS of the run, as package blasbackend describes it (backend, kernels, threads).
	want := blasbackend.Describe()
	if got, ok := meta["blas"].(map[string]any); !ok || got["backend"] != want.Backend || got["core"] != want.Core {
		t.Fatalf("meta blas %v, want %+v", meta["blas"], want)
	}
}

func TestExactTableBytes(t *testing.T) {
	tenth := 0.1
	sum := tenth + 0.2 // 0.30000000000000004 in float64 arithmetic (a constant would be exact 0.3)
	e := &Experiment{ID: "t1", Render: func(*Results, *Output) error { return nil },
		Plan: func(Scale) ([]Task, error) {
			return []Task{{Key: "k", Rep: 2, Run: func(context.Context, *Env) ([]Record, error) {
				return []Record{
					{Dataset: "a,b", Method: `q"m`, Params: []Param{P("s", 100), P("lam", 0.1), P("on", true)}, Metric: "err", Value: sum},
					{Method: "m", Metric: "t", Value: -1e-310},
				}, nil
			}}}, nil
		}}
	dir := t.TempDir()
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	want := "id,dataset,method,params,rep,metric,value\n" +
		"t1,\"a,b\",\"q\"\"m\",s=100;lam=0.1;on=true,2,err,0.30000000000000004\n" +
		"t1,,m,,2,t,-1e-310\n"
	if got := string(readFile(t, tablePath(dir, Smoke, "t1"))); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	res, err := ReadResults(tablePath(dir, Smoke, "t1"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0].Value != sum || res.Rows[1].Value != -1e-310 || res.Rows[0].Dataset != "a,b" || res.Rows[1].Params != nil {
		t.Fatalf("read back %+v", res.Rows)
	}
}

func TestEnvLogReachesProgress(t *testing.T) {
	var buf bytes.Buffer
	e := &Experiment{ID: "t1", Render: func(*Results, *Output) error { return nil },
		Plan: func(Scale) ([]Task, error) {
			return []Task{{Key: "k", Run: func(_ context.Context, env *Env) ([]Record, error) {
				env.Log.Write([]byte("first line\nsecond "))
				env.Log.Write([]byte("part"))
				return nil, nil
			}}}, nil
		}}
	mustExecute(t, e, Options{Scale: Smoke, Dir: t.TempDir(), Progress: NewTerminalProgress(&buf)})
	out := buf.String()
	if !strings.Contains(out, "t1 k: first line\n") || !strings.Contains(out, "t1 k: second part\n") {
		t.Fatalf("log output:\n%s", out)
	}
}

func TestPartFileNames(t *testing.T) {
	a, b := partFileName("kc1/rep=3"), partFileName("kc1_rep=3")
	if a == b || !strings.HasPrefix(a, "kc1_rep=3-") || !strings.HasSuffix(a, ".csv") {
		t.Fatalf("%q and %q", a, b)
	}
	if long := partFileName(strings.Repeat("x", 500)); len(long) > 100 {
		t.Fatalf("name of %d bytes", len(long))
	}
}

func TestShardsSharingOneFolder(t *testing.T) {
	whole, shared := t.TempDir(), t.TempDir()
	mustExecute(t, (&toy{n: 7}).experiment(), Options{Scale: Smoke, Dir: whole})
	for i := range 2 {
		mustExecute(t, (&toy{n: 7}).experiment(), Options{Scale: Smoke, Dir: shared, Shard: Shard{i, 2}})
	}
	// A fresh shard 0 discards and re-runs its own 4 tasks only; shard 1's 3 parts stay.
	again := &toy{n: 7}
	mustExecute(t, again.experiment(), Options{Scale: Smoke, Dir: shared, Shard: Shard{0, 2}, Fresh: true})
	if again.calls.Load() != 4 {
		t.Fatalf("fresh shard 0/2 ran %d tasks, want 4", again.calls.Load())
	}
	if err := Merge((&toy{n: 7}).experiment(), Smoke, shared, shared); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, tablePath(shared, Smoke, "toy1")), readFile(t, tablePath(whole, Smoke, "toy1"))) {
		t.Fatal("merged table differs from the unsharded one")
	}
}

// Kept parts recorded under another source revision are reused with a note naming both revisions
// and --fresh, and the meta file says where they came from; a fresh run records the new revision.
func TestResumeNotesKeptResultsFromAnotherRevision(t *testing.T) {
	saved := currentRevision
	defer func() { currentRevision = saved }()
	dir := t.TempDir()
	run := func(revision string, fresh bool) (notes string, meta runMeta) {
		t.Helper()
		currentRevision = func() string { return revision }
		var out bytes.Buffer
		mustExecute(t, (&toy{n: 3}).experiment(), Options{Scale: Smoke, Dir: dir, Fresh: fresh, Progress: NewTerminalProgress(&out)})
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, string(Smoke), "toy1.meta.json")), &meta); err != nil {
			t.Fatal(err)
		}
		return out.String(), meta
	}
	revisionFile := filepath.Join(dir, string(Smoke), "toy1.parts", "REVISION")

	if notes, meta := run("", false); strings.Contains(notes, "revision") || meta.Revision != "" {
		t.Fatalf("unstamped build: notes %q, meta revision %q", notes, meta.Revision)
	}
	if _, err := os.Stat(revisionFile); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("unstamped build wrote %s (stat: %v)", revisionFile, err)
	}
	if notes, _ := run("rev-a", false); strings.Contains(notes, "revision") {
		t.Fatalf("kept parts without a recorded revision: unexpected note %q", notes)
	}

	run("rev-a", true)
	if got := strings.TrimSpace(string(readFile(t, revisionFile))); got != "rev-a" {
		t.Fatalf("REVISION = %q after a fresh run at rev-a", got)
	}
	if notes, meta := run("rev-a", false); strings.Contains(notes, "revision") || meta.KeptFromRevision != "" {
		t.Fatalf("same revision: notes %q, kept_from_revision %q", notes, meta.KeptFromRevision)
	}
	for range 2 { // the note stays until a fresh run
		notes, meta := run("rev-b", false)
		for _, want := range []string{"reusing 3 kept task results", "revision rev-a", "revision rev-b", "--fresh"} {
			if !strings.Contains(notes, want) {
				t.Fatalf("note %q does not say %q", notes, want)
			}
		}
		if meta.Revision != "rev-b" || meta.KeptFromRevision != "rev-a" || meta.TasksKept != 3 {
			t.Fatalf("meta revision %q, kept_from_revision %q, tasks_kept %d", meta.Revision, meta.KeptFromRevision, meta.TasksKept)
		}
	}
	if notes, meta := run("rev-b", true); strings.Contains(notes, "revision") || meta.KeptFromRevision != "" {
		t.Fatalf("fresh run: notes %q, kept_from_revision %q", notes, meta.KeptFromRevision)
	}
	if got := strings.TrimSpace(string(readFile(t, revisionFile))); got != "rev-b" {
		t.Fatalf("REVISION = %q after a fresh run at rev-b", got)
	}
}

func TestKeysRunOnlyThoseTasksAndWriteNoTable(t *testing.T) {
	ty := &toy{n: 9}
	dir := t.TempDir()
	res := mustExecute(t, ty.experiment(), Options{Scale: Smoke, Dir: dir, Workers: 2, Keys: []string{"cfg1/rep=0", "cfg2/rep=2"}})
	if got := ty.calls.Load(); got != 2 {
		t.Fatalf("ran %d tasks, want 2", got)
	}
	if len(res.Rows) != 4 {
		t.Fatalf("got %d rows, want 4", len(res.Rows))
	}
	if _, err := os.Stat(filepath.Join(dir, "smoke", "toy1.csv")); err == nil {
		t.Fatal("a keyed run must not write the experiment's table")
	}
	if _, err := Execute(context.Background(), ty.experiment(), Options{Scale: Smoke, Dir: dir, Keys: []string{"nope"}}); err == nil {
		t.Fatal("an unknown key must be an error")
	}
	// Every unknown key is named, in sorted order whatever the map order.
	keys := []string{"zz", "cfg1/rep=0", "b", "a", "yy", "c"}
	for range 5 {
		_, err := Execute(context.Background(), ty.experiment(), Options{Scale: Smoke, Dir: dir, Keys: keys})
		if want := `no task with keys "a", "b", "c", "yy", "zz" at scale smoke`; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("unknown keys: %v, want %s", err, want)
		}
	}
}

// TestSourceChangedIgnoresOutputs: in a checkout, a run's outputs (tracked figures, untracked
// files) do not make the source modified; a changed tracked source file or another commit does.
func TestSourceChangedIgnoresOutputs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("main.go", "package main\n")
	write("figures/fig.csv", "a,1\n")
	write("figures/results/quick/fig.csv", "a,1\n")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	head := git("rev-parse", "HEAD")
	if sourceChanged(dir, head) {
		t.Fatal("clean checkout: source changed")
	}
	// What a run writes: committed outputs rewritten, new result files outside git's view.
	write("figures/fig.csv", "a,2\n")
	write("figures/results/quick/fig.csv", "a,2\n")
	write("results/quick/fig.csv", "a,2\n")
	write("out/fig.png", "png")
	if sourceChanged(dir, head) {
		t.Fatalf("only outputs changed, yet source changed:\n%s", git("status", "--porcelain"))
	}
	if sourceChanged(filepath.Join(dir, "figures"), head) {
		t.Fatal("from a subfolder: only outputs changed, yet source changed")
	}
	if !sourceChanged(dir, "0123456789abcdef0123456789abcdef01234567") {
		t.Fatal("a checkout of another revision: source unchanged")
	}
	write("main.go", "package main // edited\n")
	if !sourceChanged(dir, head) {
		t.Fatal("an edited source file: source unchanged")
	}
	if !sourceChanged(t.TempDir(), head) {
		t.Fatal("outside a checkout: source unchanged")
	}

	// An unstamped binary asks git (issue 34): the checkout's HEAD when its go.mod declares the
	// binary's module, with +modified for edited source; nothing in another module's checkout or
	// outside one.
	if got := checkoutRevision(dir, "example.com/lab"); got != "" {
		t.Fatalf("checkout without go.mod: revision %q", got)
	}
	write("go.mod", "module example.com/lab // the lab\n\ngo 1.26\n")
	write("main.go", "package main\n")
	git("add", ".")
	git("commit", "-q", "-m", "module")
	head = git("rev-parse", "HEAD")
	if got := checkoutRevision(filepath.Join(dir, "figures"), "example.com/lab"); got != head {
		t.Fatalf("clean checkout of the module: revision %q, want %q", got, head)
	}
	if got := checkoutRevision(dir, "example.com/other"); got != "" {
		t.Fatalf("checkout of another module: revision %q", got)
	}
	if got := checkoutRevision(t.TempDir(), "example.com/lab"); got != "" {
		t.Fatalf("outside a checkout: revision %q", got)
	}
	write("main.go", "package main // edited\n")
	if got := checkoutRevision(dir, "example.com/lab"); got != head+"+modified" {
		t.Fatalf("edited source: revision %q, want %q", got, head+"+modified")
	}
}

// An unstamped build that reuses kept parts says loudly that it cannot check their revision
// (issue 34: -buildvcs=false skipped the check silently).
func TestUnstampedResumeWarns(t *testing.T) {
	saved := currentRevision
	defer func() { currentRevision = saved }()
	currentRevision = func() string { return "" }
	dir := t.TempDir()
	e := (&toy{n: 3}).experiment()
	var first, second bytes.Buffer
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir, Progress: NewTerminalProgress(&first)})
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir, Progress: NewTerminalProgress(&second)})
	if strings.Contains(first.String(), "UNCHECKED") {
		t.Errorf("a run that keeps nothing warns: %q", first.String())
	}
	for _, want := range []string{"reusing 3 kept task results UNCHECKED", "-buildvcs", "--fresh"} {
		if !strings.Contains(second.String(), want) {
			t.Errorf("resumed unstamped run: %q does not say %q", second.String(), want)
		}
	}
}

// A results table changed after its run is refused by Load, as a changed part is (issue 34: an
// edited value moved a claim without a word); running again rebuilds it from the kept parts, and a
// merged table is checked the same way.
func TestEditedTableIsRefused(t *testing.T) {
	dir := t.TempDir()
	ty := &toy{n: 3}
	e := ty.experiment()
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	path := tablePath(dir, Smoke, "toy1")
	good := readFile(t, path)
	if _, err := Load(e, Smoke, dir); err != nil {
		t.Fatal(err)
	}
	// The last digit of the first row's value (the table's last column) is changed.
	i := bytes.IndexByte(good, '\n') + 1
	j := i + bytes.IndexByte(good[i:], '\n') - 1
	edited := bytes.Clone(good)
	if edited[j] < '0' || edited[j] > '9' {
		t.Fatalf("the first row does not end in a digit: %q", good[i:j+1])
	}
	edited[j] = '0' + (edited[j]-'0'+1)%10
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(e, Smoke, dir)
	for _, want := range []string{path, "checksum", "lab run --scale smoke toy1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("Load of an edited table: %v, want an error saying %q", err, want)
		}
	}
	calls := ty.calls.Load()
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	if ty.calls.Load() != calls || !bytes.Equal(readFile(t, path), good) {
		t.Fatalf("running again recomputed %d tasks or did not restore the table", ty.calls.Load()-calls)
	}
	if _, err := Load(e, Smoke, dir); err != nil {
		t.Fatalf("rebuilt table: %v", err)
	}
	// A merged table carries its checksum too.
	out := t.TempDir()
	if err := Merge(e, Smoke, out, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tablePath(out, Smoke, "toy1"), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(e, Smoke, out); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("Load of an edited merged table: %v", err)
	}
	// A table without a meta file (the committed reference tables, guarded by git) is read as is.
	if err := os.Remove(filepath.Join(out, "smoke", "toy1.meta.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(e, Smoke, out); err != nil {
		t.Fatalf("table without a meta file: %v", err)
	}
}

// TestFirstRunsAPrefixOfThePlan: a partial run (First) runs the first tasks only and writes their
// table, byte for byte the first rows of the whole run's, with the plan's size in the meta file; a
// larger First and then a whole run resume from its parts; --fresh removes only its own parts;
// experiments without PartialRuns, negative values, shards and keys are refused.
func TestFirstRunsAPrefixOfThePlan(t *testing.T) {
	whole := t.TempDir()
	full := mustExecute(t, (&toy{n: 9}).experiment(), Options{Scale: Smoke, Dir: whole})

	ty := &toy{n: 9}
	e := ty.experiment()
	e.PartialRuns = true
	dir := t.TempDir()
	res := mustExecute(t, e, Options{Scale: Smoke, Dir: dir, Workers: 2, First: 4})
	if got := ty.calls.Load(); got != 4 || !reflect.DeepEqual(res.Rows, full.Rows[:8]) {
		t.Fatalf("first 4: ran %d tasks, rows %v; want 4 tasks and the whole run's first 8 rows", got, res.Rows)
	}
	if back, err := Load(e, Smoke, dir); err != nil || !reflect.DeepEqual(back.Rows, full.Rows[:8]) {
		t.Fatalf("the partial table: %v", err)
	}
	var meta map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "smoke", "toy1.meta.json")), &meta); err != nil {
		t.Fatal(err)
	}
	if meta["tasks"] != 4.0 || meta["plan_tasks"] != 9.0 || meta["tasks_run"] != 4.0 {
		t.Fatalf("meta of a partial run %v: want tasks 4 of plan_tasks 9", meta)
	}

	mustExecute(t, e, Options{Scale: Smoke, Dir: dir, First: 6})
	if got := ty.calls.Load(); got != 6 {
		t.Fatalf("first 6 after first 4: %d tasks run in all, want 6 (4 kept)", got)
	}
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir, First: 9})
	if got := ty.calls.Load(); got != 9 || !bytes.Equal(readFile(t, tablePath(dir, Smoke, "toy1")), readFile(t, tablePath(whole, Smoke, "toy1"))) {
		t.Fatalf("first 9 of 9: %d tasks in all, want 9 and the whole run's table", got)
	}
	meta = nil
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "smoke", "toy1.meta.json")), &meta); err != nil || meta["plan_tasks"] != nil {
		t.Fatalf("meta of a run of every task %v (%v): want no plan_tasks", meta, err)
	}

	// --fresh with First discards the first tasks' parts, not the others'.
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir, First: 2, Fresh: true})
	if got := ty.calls.Load(); got != 11 {
		t.Fatalf("fresh first 2: %d tasks in all, want 11", got)
	}
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	if got := ty.calls.Load(); got != 11 {
		t.Fatalf("whole run after a fresh partial one: %d tasks in all, want 11 (the other 7 kept)", got)
	}

	for _, c := range []struct {
		name string
		e    *Experiment
		opts Options
		want string
	}{
		{"no PartialRuns", (&toy{n: 9}).experiment(), Options{First: 3}, "partial run (the first 3 of 9 tasks) is refused"},
		{"negative", e, Options{First: -1}, "first = -1"},
		{"shard", e, Options{First: 3, Shard: Shard{Index: 0, Count: 2}}, "takes no shard"},
		{"keys", e, Options{First: 3, Keys: []string{"cfg0/rep=0"}}, "takes no shard or task keys"},
	} {
		c.opts.Scale, c.opts.Dir = Smoke, t.TempDir()
		if _, err := Execute(context.Background(), c.e, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// First at or beyond the plan's size is a whole run, allowed without PartialRuns.
	if _, err := Execute(context.Background(), (&toy{n: 3}).experiment(), Options{Scale: Smoke, Dir: t.TempDir(), First: 3}); err != nil {
		t.Errorf("First = the number of tasks: %v", err)
	}
}
