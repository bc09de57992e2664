package verdict

import (
	"fmt"
	"math"
	"strings"
)

// AnyOf combines tests into one for a claim that holds for at least one of them ("at some pruned
// size OMP beats the full forest"). It supports when some member's support null is rejected with
// the family-wise error held at Alpha (Holm's smallest adjusted p-value, m·min p), and contradicts
// when every member's contradiction null is rejected (an intersection–union test: the largest
// contradiction p-value, with no adjustment needed). The estimate and interval are those of the
// member with the smallest support p-value; the members' own results follow in the evidence. A
// member with a Reason counts as p = 1 on both sides.
func AnyOf(label string, tests []Test) Test {
	if len(tests) == 0 {
		return Premise(label, "no member to test")
	}
	support := make([]float64, len(tests))
	best, worstContra := 0, 0.0
	for i, t := range tests {
		ps, pc := t.PSupport, t.PContradict
		if t.Reason != "" || math.IsNaN(ps) {
			ps = 1
		}
		if t.Reason != "" || math.IsNaN(pc) {
			pc = 1
		}
		support[i] = ps
		if ps < support[best] {
			best = i
		}
		worstContra = math.Max(worstContra, pc)
	}
	b := tests[best]
	members := make([]string, len(tests))
	for i, t := range tests {
		members[i] = fmt.Sprintf("%s %s", t.Label, t.Outcome())
	}
	return Test{
		Label: label + " (best: " + b.Label + ")", Estimate: b.Estimate, Lo: b.Lo, Hi: b.Hi, N: b.N, Format: b.Format,
		PSupport:    Holm(support)[best],
		PContradict: worstContra,
		Rule: fmt.Sprintf("at least one of %d: supported if Holm rejects some member's support null, contradicted if every member is contradicted; members: %s",
			len(tests), strings.Join(members, ", ")),
	}
}
