package kittest

import (
	"hash/fnv"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// WantOutcome runs a claim check on hand-made results and requires the given outcome: every claim
// check is driven this way to each verdict it can give (SUPPORTED, CONTRADICTED, and INCONCLUSIVE
// where noise or a failed premise can decide), so that no check is one that cannot fail.
func WantOutcome(t *testing.T, name string, check func(*run.Results) (verdict.Verdict, error), res *run.Results, want verdict.Outcome) {
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

// Jitter is a fixed pseudo-random value in [−1, 1] per cell, so that paired differences vary
// across repetitions as real ones do.
func Jitter(parts ...any) float64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(run.P("", p).Value + "|"))
	}
	return float64(h.Sum64()%2001)/1000 - 1
}
