package verdict

import (
	"cmp"
	"math"
	"slices"
)

// Holm returns Holm's step-down adjusted p-values (Holm 1979) in the order of ps: the i-th
// smallest p-value times (m − i + 1), made monotone and capped at 1. Rejecting every adjusted
// p-value below α controls the family-wise error rate at α under any dependence between the tests.
// A NaN p-value counts as 1.
func Holm(ps []float64) []float64 {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	p := func(i int) float64 {
		if math.IsNaN(ps[i]) {
			return 1
		}
		return ps[i]
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p(a), p(b)) })
	out := make([]float64, m)
	running := 0.0
	for rank, i := range order {
		running = math.Max(running, math.Min(1, float64(m-rank)*p(i)))
		out[i] = running
	}
	return out
}
