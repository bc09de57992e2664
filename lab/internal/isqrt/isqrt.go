// Package isqrt computes integer square roots, for the ⌈√n⌉ block and landmark counts the thesis
// uses by default (DAC-RLS blocks, uniform and recursive RLS landmarks, the linear MMD's sample).
package isqrt

import (
	"math"
	"math/bits"
)

// Ceil returns ⌈√n⌉ for n ≥ 1, exact for every int (the float square root is corrected when
// rounding puts it one off; squares are compared in 128 bits, so n near MaxInt cannot overflow
// them into an endless loop).
func Ceil(n int) int {
	r := int(math.Ceil(math.Sqrt(float64(n))))
	for below(r, n) {
		r++
	}
	for r > 1 && !below(r-1, n) {
		r--
	}
	return r
}

// below reports whether r² < n, without overflow (r ≥ 0).
func below(r, n int) bool {
	hi, lo := bits.Mul64(uint64(r), uint64(r))
	return hi == 0 && lo < uint64(n)
}
