//go:build !purego

package kernel

import (
	"math"

	"golang.org/x/sys/cpu"
)

// expSIMDConstants is what expAVX512 broadcasts into registers; the assembly reads it by byte
// offset, so the field order is fixed (TestExpSIMDConstantsLayout checks the offsets).
type expSIMDConstants struct {
	minArg, maxArg float64 // clamp: exp(-746) rounds to 0, exp(710) overflows
	invLn2N        float64 // N/ln2
	shift          float64 // 1.5·2⁵²
	negLn2HiN      float64 // -(top 33 bits of ln2/N)
	negLn2LoN      float64 // -(ln2/N - those bits)
	invN           float64 // 1/N
	poly           [8]float64
	scale          [8]float64
	tail           [8]float64
}

const (
	expVecTableBits = 3
	expVecN         = 1 << expVecTableBits
	expVecLn2HiN    = 0x1.62e42fefp-4 // top 33 bits of ln2/8
)

var expVecConstants = func() *expSIMDConstants {
	c := &expSIMDConstants{
		minArg:    -746,
		maxArg:    710,
		invLn2N:   expVecN / math.Ln2,
		shift:     expShift,
		negLn2HiN: -expVecLn2HiN,
		negLn2LoN: -(math.Ln2/expVecN - expVecLn2HiN),
		invN:      1.0 / expVecN,
		// Taylor coefficients 1/8!, ..., 1/2!, 1/1! for Horner's scheme.
		poly: [8]float64{1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1},
	}
	scale, tail := powersOfTwoRoot(expVecTableBits)
	copy(c.scale[:], scale)
	copy(c.tail[:], tail)
	return c
}()

// expHasAVX512 reports whether the processor and the operating system support AVX-512F (the
// operating system must save the ZMM and opmask registers, which golang.org/x/sys/cpu checks).
var expHasAVX512 = cpu.X86.HasAVX512F

// expVector computes ExpNonPositive with AVX-512 and reports true, or reports false (writing
// nothing) where the processor lacks it. len(dst) must be ≥ len(src).
func expVector(dst, src []float64) bool {
	if !expHasAVX512 {
		return false
	}
	if len(src) > 0 {
		_ = dst[len(src)-1]
		expAVX512(&dst[0], &src[0], len(src), expVecConstants)
	}
	return true
}

// gaussianVector sets dst[j] = exp(-γ·max(0, (xNorm + zNorms[j]) - 2·dst[j])) for the Gaussian
// kernel, fusing the exponent's computation with the vector exp, and reports true; or reports
// false (writing nothing) where the processor lacks AVX-512. len(zNorms) must be ≥ len(dst).
func gaussianVector(dst, zNorms []float64, xNorm, gamma float64) bool {
	if !expHasAVX512 {
		return false
	}
	if len(dst) > 0 {
		_ = zNorms[len(dst)-1]
		gaussianAVX512(&dst[0], &zNorms[0], len(dst), xNorm, -gamma, expVecConstants)
	}
	return true
}

//go:noescape
func expAVX512(dst, src *float64, n int, c *expSIMDConstants)

//go:noescape
func gaussianAVX512(dst, zNorms *float64, n int, xNorm, negGamma float64, c *expSIMDConstants)
