package experiments

import (
	"math"

	"github.com/fastkernels/kernellab/lab/run"
)

// exactTest is a claim test decided without statistics, for a quantity computed exactly by a
// deterministic procedure (a data set's size, the separability of one fixed point set): there is no
// draw to repeat and so no noise, and the test supports when holds is true and contradicts
// otherwise (its p-values are 0 or 1). rule says what is computed and that the decision is exact;
// use it only where no randomness enters the quantity.
func exactTest(label string, estimate float64, holds bool, rule string) run.Test {
	t := run.Test{Label: label, Estimate: estimate, Lo: math.NaN(), Hi: math.NaN(), N: 1,
		PSupport: 1, PContradict: 0, Rule: rule, Exact: true}
	if holds {
		t.PSupport, t.PContradict = 0, 1
	}
	return t
}
