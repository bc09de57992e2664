package experiments

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

// Every figure and table whose numbers do not depend on timing comes out byte for byte the same
// from two independent runs (fresh results, fresh render): same seeds, same numbers, same files. The
// Serial experiments are the ones that time calls (fig3_3, fig3_4, fig4_2-fig4_5, perrin_fig1); their
// figures change with every fresh run, as the README says. Slow (the whole smoke catalogue twice),
// so -short skips it; the test command runs it without -race.
func TestTimingFreeOutputsAreReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the smoke catalogue twice; run without -short")
	}
	kittest.UseDataMirror(t)
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	// Each producer runs twice once; the entries that use its results render from the same two runs.
	runs := map[string][2]*run.Results{}
	for _, e := range reg.All() {
		if e.Producer().Serial {
			continue
		}
		t.Run(e.ID, func(t *testing.T) {
			p := e.Producer()
			if _, done := runs[p.ID]; !done {
				var two [2]*run.Results
				for k := range two {
					res, err := run.Execute(context.Background(), p, run.Options{Scale: run.Smoke, Dir: t.TempDir(), Data: dataset.DefaultSource()})
					if err != nil {
						t.Fatal(err)
					}
					two[k] = res
				}
				runs[p.ID] = two
			}
			var figs [2]string
			for k := range figs {
				figs[k] = filepath.Join(t.TempDir(), "figures")
				if err := run.Render(e, runs[p.ID][k], figs[k]); err != nil {
					t.Fatal(err)
				}
			}
			files, err := os.ReadDir(figs[0])
			if err != nil || len(files) == 0 {
				t.Fatalf("nothing rendered (%v)", err)
			}
			for _, f := range files {
				a, errA := os.ReadFile(filepath.Join(figs[0], f.Name()))
				b, errB := os.ReadFile(filepath.Join(figs[1], f.Name()))
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					t.Errorf("%s differs between two runs (%v, %v)", f.Name(), errA, errB)
				}
			}
		})
	}
}

// publishedSeedCollisions are the experiment seeds that two producers share in the published
// results. Each collision is harmless (a task's generator derives from the seed and its key, and
// the keys differ), but renumbering either seed would change every number of that experiment, so
// they stay; a new experiment takes a seed of its own.
var publishedSeedCollisions = map[uint64][]string{
	1:    {"table3_1", "table4_1"}, // one constructor (datasetTable); their tasks draw no random numbers
	1001: {"perrin_fig1", "notes_fig_rff"},
	1002: {"notes_fig_nystrom", "perrin_fig2"},
	1003: {"perrin_fig3", "lecture_fig_rff"},
}

// Every experiment that runs tasks has a seed of its own, but for the published collisions.
func TestSeedsAreUnique(t *testing.T) {
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	bySeed := map[uint64][]string{}
	for _, e := range reg.All() {
		if e.Uses == nil { // an entry that uses another's results runs no tasks: its seed is unused
			bySeed[e.Seed] = append(bySeed[e.Seed], e.ID)
		}
	}
	for seed, ids := range bySeed {
		if len(ids) < 2 {
			continue
		}
		if allowed := publishedSeedCollisions[seed]; !slices.Equal(slices.Sorted(slices.Values(allowed)), slices.Sorted(slices.Values(ids))) {
			t.Errorf("seed %d is shared by %s: give each experiment a seed of its own", seed, strings.Join(ids, ", "))
		}
	}
	for seed, ids := range publishedSeedCollisions {
		if len(bySeed[seed]) < 2 {
			t.Errorf("seed %d is no longer shared by %s: drop it from publishedSeedCollisions", seed, strings.Join(ids, ", "))
		}
	}
}
