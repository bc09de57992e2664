package experiments

import (
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
)

func TestRegistryPlansEveryScale(t *testing.T) {
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range reg.All() {
		for _, sc := range []run.Scale{run.Smoke, run.Quick, run.Paper} {
			tasks, err := run.TaskKeys(e, sc)
			if err != nil || len(tasks) == 0 {
				t.Errorf("%s at %s: %d tasks, %v", e.ID, sc, len(tasks), err)
			}
		}
	}
}

func TestDocumentsCoverTheRegistryOnce(t *testing.T) {
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, d := range Documents() {
		if len(d.IDs) == 0 {
			t.Errorf("document %q has no entry", d.Name)
		}
		for _, id := range d.IDs {
			if prev, dup := seen[id]; dup {
				t.Errorf("%s is in %q and %q", id, prev, d.Name)
			}
			seen[id] = d.Name
		}
	}
	for _, e := range reg.All() {
		if _, ok := seen[e.ID]; !ok {
			t.Errorf("%s belongs to no document", e.ID)
		}
	}
	if len(seen) != len(reg.All()) {
		t.Errorf("documents list %d entries, the registry %d", len(seen), len(reg.All()))
	}
}
