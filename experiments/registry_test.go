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
