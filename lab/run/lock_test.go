package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A second run on the same experiment and results folder refuses at once, naming the holder; once
// the first releases the lock (here: a lock taken by the test), it runs.
func TestSecondRunOnOneFolderIsRefused(t *testing.T) {
	dir := t.TempDir()
	e := (&toy{n: 2}).experiment()
	unlock, err := layoutOf(dir, Smoke, e.ID).lock(e.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Execute(context.Background(), e, Options{Scale: Smoke, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "another run") || !strings.Contains(err.Error(), "pid ") {
		t.Fatalf("got %v", err)
	}
	if err := Merge(e, Smoke, dir, t.TempDir()); err == nil {
		t.Error("merge into a locked folder: no error")
	}
	unlock()
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
}

// Temporary files a killed run left beside the table and among the parts are removed by the next
// run; other experiments' files are not touched.
func TestStaleTempFilesAreRemoved(t *testing.T) {
	dir := t.TempDir()
	e := (&toy{n: 2}).experiment()
	scale := filepath.Join(dir, "smoke")
	stale := []string{
		filepath.Join(scale, "."+e.ID+".csv.tmp-123"),
		filepath.Join(scale, e.ID+".parts", ".cfg0_rep=0-00.csv.tmp-9"),
	}
	keep := filepath.Join(scale, ".other.csv.tmp-1")
	for _, p := range append(stale, keep) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	for _, p := range stale {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s still there (%v)", p, err)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("another experiment's file was removed: %v", err)
	}
}

// A merge that fails (a task missing from every shard, a damaged part) writes nothing into its
// destination; a successful one records the shards' common revision.
func TestFailedMergeLeavesDestinationUntouched(t *testing.T) {
	e := (&toy{n: 3}).experiment()
	shard := t.TempDir()
	mustExecute(t, e, Options{Scale: Smoke, Dir: shard, Shard: Shard{0, 2}})
	dst := t.TempDir()
	if err := Merge(e, Smoke, dst, shard); err == nil || !strings.Contains(err.Error(), "no part") {
		t.Fatalf("got %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dst, "smoke")); len(entries) != 0 {
		t.Fatalf("failed merge wrote %d entries into the destination", len(entries))
	}

	saved := currentRevision
	defer func() { currentRevision = saved }()
	currentRevision = func() string { return "abc123" }
	other := t.TempDir()
	mustExecute(t, e, Options{Scale: Smoke, Dir: other, Shard: Shard{1, 2}})
	mustExecute(t, e, Options{Scale: Smoke, Dir: shard, Shard: Shard{0, 2}, Fresh: true})
	if err := Merge(e, Smoke, dst, shard, other); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(readFile(t, layoutOf(dst, Smoke, e.ID).revision()))); got != "abc123" {
		t.Errorf("merged REVISION %q", got)
	}
}

// Finished results in a read-only folder can be run again (nothing to do, nothing written) and
// rendered; only a run with work to do fails there, at its first write.
func TestFinishedResultsInReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders")
	}
	dir := t.TempDir()
	e := (&toy{n: 2}).experiment()
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
	scale := filepath.Join(dir, "smoke")
	for _, d := range []string{filepath.Join(scale, e.ID+".parts"), scale} {
		if err := os.Chmod(d, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(d, 0o755)
	}
	mustExecute(t, e, Options{Scale: Smoke, Dir: dir})
}
