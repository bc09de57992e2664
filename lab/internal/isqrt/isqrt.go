// Package isqrt computes integer square roots, for the ⌈√n⌉ block and landmark counts the thesis
// uses by default (DAC-RLS blocks, uniform and recursive RLS landmarks, the linear MMD's sample).
package isqrt

import "math"

// Ceil returns ⌈√n⌉ for n ≥ 1, exact for every int (the float square root is corrected when
// rounding puts it one off).
func Ceil(n int) int {
	r := int(math.Ceil(math.Sqrt(float64(n))))
	for r*r < n {
		r++
	}
	for r > 1 && (r-1)*(r-1) >= n {
		r--
	}
	return r
}
