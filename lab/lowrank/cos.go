package lowrank

import "math"

// The random-feature maps spend most of their time in cos (n·D values, 5·10⁷ for the benchmark
// size) and math.Cos costs 10–20 ns a value, so cosines are computed in batches by the code below.
//
// Method: x = kπ + r with k = round(x/π) and |r| ≤ π/2, so cos x = (−1)^k cos r and
// sin x = (−1)^k sin r. The reduction subtracts k·π in three parts (Cody–Waite): piHi and piMid
// hold 32 significant bits each, so k·piHi and k·piMid are exact for |k| < 2²¹, and x − k·piHi is
// exact (Sterbenz); the reduced r is within 2.3e-16 of the true remainder. cos r and sin r are
// their Taylor polynomials of degrees 20 and 21 (truncation below 1.9e-17 and 1.4e-18 for
// |r| ≤ π/2), evaluated by Horner's scheme. The absolute error is below 6e-16 for
// |x| ≤ fastTrigMax (tested against math.Cos and math.Sin, and their own error is below 1.2e-16);
// beyond, and for NaN and ±Inf, math.Cos and math.Sin are used.
const (
	piHi        = 0x1.921fb544p+1
	piMid       = 0x1.0b4611a6p-33
	piLo        = 0x1.3198a2e037073p-68
	fastTrigMax = 1 << 20
	// roundShift = 1.5·2⁵²: adding it rounds to the nearest integer, left in the low mantissa bits.
	roundShift = 0x1.8p52
)

// Taylor coefficients (−1)^j/(2j)! and (−1)^j/(2j+1)!, highest degree first for Horner's scheme.
var (
	cosCoefficients = [...]float64{
		1.0 / 2432902008176640000, -1.0 / 6402373705728000, 1.0 / 20922789888000,
		-1.0 / 87178291200, 1.0 / 479001600, -1.0 / 3628800, 1.0 / 40320, -1.0 / 720,
		1.0 / 24, -1.0 / 2, 1,
	}
	sinCoefficients = [...]float64{
		1.0 / 51090942171709440000, -1.0 / 121645100408832000, 1.0 / 355687428096000,
		-1.0 / 1307674368000, 1.0 / 6227020800, -1.0 / 39916800, 1.0 / 362880, -1.0 / 5040,
		1.0 / 120, -1.0 / 6, 1,
	}
)

// reducePi returns r = x − kπ (|r| ≤ π/2 up to rounding) and the sign bit (−1)^k as a mask to
// XOR into the result's bits. Valid for |x| ≤ fastTrigMax.
func reducePi(x float64) (r float64, sign uint64) {
	shifted := x*(1/math.Pi) + roundShift
	sign = math.Float64bits(shifted) << 63
	k := shifted - roundShift
	r = (x - k*piHi) - k*piMid
	r -= k * piLo
	return r, sign
}

// trigChunk bounds the values one call of the vector code handles, so that the (non-preemptible)
// assembly never runs for long.
const trigChunk = 1 << 13

// cosShiftScale sets v[j] = scale·cos(v[j] + shift[j]) for every j; shift has len(v) entries.
// Groups of eight values go through the AVX-512 code where the processor has it (cosVector); a
// group holding an argument beyond fastTrigMax (or NaN, ±Inf) and the whole slice elsewhere go
// through cosShiftScaleScalar. The two paths may differ in the last bit (the vector code fuses
// its multiply-adds); a given position of a given slice always takes the same path.
func cosShiftScale(v, shift []float64, scale float64) {
	shift = shift[:len(v)]
	for start := 0; start < len(v); {
		end := min(len(v), start+trigChunk)
		done := start + cosVector(v[start:end], shift[start:end], scale)
		if done < end {
			stop := end
			if hasTrigVector {
				stop = min(end, done+8)
			}
			cosShiftScaleScalar(v[done:stop], shift[done:stop], scale)
			done = stop
		}
		start = done
	}
}

// sinCosScale sets sinOut[j] = scale·sin(v[j]) and then v[j] = scale·cos(v[j]) for every j;
// sinOut has len(v) entries and must not overlap v. Paths as for cosShiftScale.
func sinCosScale(v, sinOut []float64, scale float64) {
	sinOut = sinOut[:len(v)]
	for start := 0; start < len(v); {
		end := min(len(v), start+trigChunk)
		done := start + sinCosVector(v[start:end], sinOut[start:end], scale)
		if done < end {
			stop := end
			if hasTrigVector {
				stop = min(end, done+8)
			}
			sinCosScaleScalar(v[done:stop], sinOut[done:stop], scale)
			done = stop
		}
		start = done
	}
}

// The polynomials are written out in the loops below: as functions they are too large for the
// compiler to inline, and the calls cost as much as the arithmetic.

// cosShiftScaleScalar is the portable cosShiftScale.
func cosShiftScaleScalar(v, shift []float64, scale float64) {
	shift = shift[:len(v)]
	c := &cosCoefficients
	for j, x := range v {
		x += shift[j]
		if !(math.Abs(x) <= fastTrigMax) {
			v[j] = scale * math.Cos(x)
			continue
		}
		r, sign := reducePi(x)
		z := r * r
		p := ((((c[0]*z+c[1])*z+c[2])*z+c[3])*z+c[4])*z + c[5]
		p = ((((p*z+c[6])*z+c[7])*z+c[8])*z+c[9])*z + c[10]
		v[j] = scale * math.Float64frombits(math.Float64bits(p)^sign)
	}
}

// sinCosScaleScalar is the portable sinCosScale.
func sinCosScaleScalar(v, sinOut []float64, scale float64) {
	sinOut = sinOut[:len(v)]
	c, s := &cosCoefficients, &sinCoefficients
	for j, x := range v {
		if !(math.Abs(x) <= fastTrigMax) {
			sx, cx := math.Sincos(x)
			sinOut[j], v[j] = scale*sx, scale*cx
			continue
		}
		r, sign := reducePi(x)
		z := r * r
		pc := ((((c[0]*z+c[1])*z+c[2])*z+c[3])*z+c[4])*z + c[5]
		pc = ((((pc*z+c[6])*z+c[7])*z+c[8])*z+c[9])*z + c[10]
		ps := ((((s[0]*z+s[1])*z+s[2])*z+s[3])*z+s[4])*z + s[5]
		ps = ((((ps*z+s[6])*z+s[7])*z+s[8])*z+s[9])*z + s[10]
		sinOut[j] = scale * math.Float64frombits(math.Float64bits(r*ps)^sign)
		v[j] = scale * math.Float64frombits(math.Float64bits(pc)^sign)
	}
}
