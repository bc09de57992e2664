//go:build !purego

package lowrank

import (
	"math"

	"golang.org/x/sys/cpu"
)

// trigSIMDConstants is what the AVX-512 cosines read; the assembly addresses it by byte offset
// (TestTrigSIMDConstantsLayout checks them).
type trigSIMDConstants struct {
	invPi, roundShift float64
	piHi, piMid, piLo float64
	fastMax           float64
	absMask           uint64
	cos, sin          [11]float64
}

var trigVecConstants = &trigSIMDConstants{
	invPi: 1 / math.Pi, roundShift: roundShift,
	piHi: piHi, piMid: piMid, piLo: piLo,
	fastMax: fastTrigMax, absMask: 1<<63 - 1,
	cos: cosCoefficients, sin: sinCoefficients,
}

// hasTrigVector reports whether the vector cosines (and rotations) run here: whether the
// processor and the operating system support AVX-512F (the operating system must save the ZMM and
// opmask registers, which golang.org/x/sys/cpu checks).
var hasTrigVector = cpu.X86.HasAVX512F

// cosVector computes cosShiftScale with AVX-512 on v[:done] and returns done: len(v), or the
// start of the first group of eight values with an argument outside [−fastTrigMax, fastTrigMax]
// (or NaN), which it leaves untouched; 0 without AVX-512.
func cosVector(v, shift []float64, scale float64) int {
	if !hasTrigVector || len(v) == 0 {
		return 0
	}
	_ = shift[len(v)-1]
	return cosShiftScaleAVX512(&v[0], &shift[0], len(v), scale, trigVecConstants)
}

// sinCosVector is cosVector for sinCosScale.
func sinCosVector(v, sinOut []float64, scale float64) int {
	if !hasTrigVector || len(v) == 0 {
		return 0
	}
	_ = sinOut[len(v)-1]
	return sinCosScaleAVX512(&v[0], &sinOut[0], len(v), scale, trigVecConstants)
}

// rotateRows applies the plane rotation (c, s) to the rows a and b (a ← c·a − s·b,
// b ← s·a + c·b; b has len(a) entries) with AVX-512 where available. The eigendecomposition
// spends most of its time here.
func rotateRows(a, b []float64, c, s float64) {
	if !hasTrigVector || len(a) == 0 {
		rotateRowsScalar(a, b, c, s)
		return
	}
	_ = b[len(a)-1]
	rotateRowsAVX512(&a[0], &b[0], len(a), c, s)
}

//go:noescape
func rotateRowsAVX512(a, b *float64, n int, c, s float64)

//go:noescape
func cosShiftScaleAVX512(v, shift *float64, n int, scale float64, c *trigSIMDConstants) (done int)

//go:noescape
func sinCosScaleAVX512(v, sinOut *float64, n int, scale float64, c *trigSIMDConstants) (done int)
