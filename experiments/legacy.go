package experiments

import "github.com/fastkernels/kernellab/lab/run"

// legacyOutcome maps a point-estimate pass/fail to an outcome while the claim checks move to the
// statistical tests of lab/run; it goes once every check decides by a statistic.
func legacyOutcome(pass bool) run.Outcome {
	if pass {
		return run.Supported
	}
	return run.Contradicted
}
