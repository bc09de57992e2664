package experiments

import (
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// wantOutcome runs a claim check on hand-made results and requires the given outcome: every claim
// check is driven this way to each verdict it can give (SUPPORTED, CONTRADICTED, and INCONCLUSIVE
// where noise or a failed premise can decide), so that no check is one that cannot fail.
func wantOutcome(t *testing.T, name string, check func(*run.Results) (verdict.Verdict, error), res *run.Results, want verdict.Outcome) {
	t.Helper()
	v, err := check(res)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if v.Outcome != want {
		t.Errorf("%s: %v, want %v\nevidence: %s", name, v.Outcome, want, v.Evidence)
	}
}
