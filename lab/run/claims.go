package run

import (
	"fmt"

	"github.com/fastkernels/kernellab/lab/verdict"
)

// The statuses of a [ClaimResult]: the three outcomes of a check, and the two ways a check can fail
// to give one.
const (
	StatusSupported    = "supported"
	StatusContradicted = "contradicted"
	StatusInconclusive = "inconclusive"
	StatusNotRun       = "not run"
	StatusError        = "error"
)

// ClaimResult is the outcome of one claim on one scale's results, one row of the claims report.
type ClaimResult struct {
	Experiment, ClaimID, Text, Rule string
	// Status is one of the Status constants: "supported", "contradicted", "inconclusive", "not run"
	// (no results) or "error" (the check failed to run; Evidence says why).
	Status   string
	Evidence string
	Scale    Scale
	// Kind is the claim's kind (Claim.Kind).
	Kind ClaimKind
	// Verdict is what the check returned (zero when it did not run or failed): the report reads
	// the deciding p-value and the members against the claim from its tests.
	Verdict verdict.Verdict
}

// CheckClaims checks every claim of e on res; res nil (the experiment was not run) gives "not run".
// A check that returns an error or panics gives "error", so one broken check never hides the others.
func CheckClaims(e *Experiment, res *Results) []ClaimResult {
	if e == nil {
		return nil
	}
	out := make([]ClaimResult, len(e.Claims))
	for i, c := range e.Claims {
		cr := ClaimResult{Experiment: e.ID, ClaimID: c.ID, Text: c.Text, Rule: c.Rule, Kind: c.Kind}
		switch {
		case res == nil:
			cr.Status = StatusNotRun
		case c.Check == nil:
			cr.Status, cr.Evidence, cr.Scale = StatusError, "claim has no check function", res.Scale
		default:
			cr.Scale = res.Scale
			v, err := callCheck(c, res)
			switch {
			case err != nil:
				cr.Status, cr.Evidence = StatusError, err.Error()
			default:
				cr.Evidence, cr.Verdict = v.Evidence, v
				switch v.Outcome {
				case verdict.Supported:
					cr.Status = StatusSupported
				case verdict.Contradicted:
					cr.Status = StatusContradicted
				case verdict.Inconclusive:
					cr.Status = StatusInconclusive
				default:
					cr.Status, cr.Evidence = StatusError, fmt.Sprintf("check returned outcome %v", v.Outcome)
				}
			}
		}
		out[i] = cr
	}
	return out
}

func callCheck(c Claim, res *Results) (v verdict.Verdict, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("check panicked: %v", p)
		}
	}()
	return c.Check(res)
}
