// Package median computes the median of a sample, the one definition shared by the runtime's
// summaries and timings (lab/run) and the claim statistics (lab/verdict).
package median

import "slices"

// Of is the median of a non-empty sample (the mean of the two middle values for an even count);
// v is not modified.
func Of(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return Sorted(s)
}

// Sorted is the median of a non-empty sample sorted in increasing order.
func Sorted(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
