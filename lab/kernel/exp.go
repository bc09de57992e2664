package kernel

import (
	"math"
	"math/big"
)

// ExpNonPositive sets dst[i] = exp(src[i]) for i < len(src), for the arguments kernels produce
// (src[i] ≤ 0). It exists because math.Exp costs several nanoseconds per value and would
// otherwise dominate the run time of a large Gaussian cross-kernel.
//
// Accuracy (tested against math.Exp on a dense grid of [-745.2, 0] and against a 300-bit
// reference): results in the normal range (src[i] ≥ -708.39) are within 0.52 ulp of the exact
// value with the scalar code and 0.6 ulp with the AVX-512 code, so within 2 ulp of math.Exp (whose
// own error reaches 1.5 ulp) and always below 1e-15 relative; subnormal results
// (-745.13 < src[i] < -708.39) are within one unit of 2⁻¹⁰⁷⁴; below -745.1332 (and at -Inf) the
// result is exactly 0, as for math.Exp. NaN gives NaN. Positive arguments are handled too
// (+Inf above 709.78; math.Exp on amd64 already gives +Inf from about 709.7), so the
// function is safe on any input.
//
// dst and src may be the same slice (the kernel code works in place); otherwise they must not
// overlap. It panics if len(dst) < len(src), a programming error like an out-of-range index.
//
// On amd64 processors with AVX-512 eight values are computed per instruction (build tag purego
// disables this); elsewhere a scalar loop is used. Both use x = (k/N)·ln2 + r with |r| ≤ ln2/(2N),
// exp(x) = 2^⌊k/N⌋ · 2^((k mod N)/N) · exp(r), the middle factor from a table stored as a double
// plus its relative rounding error, and exp(r) - 1 from its Taylor polynomial (N = 128 and degree
// 5 for the scalar code, N = 8 and degree 8 for the vector code; truncation error < 2⁻⁵⁹). A given
// input always gets the same result on a given machine, whatever the slice length or offset.
func ExpNonPositive(dst, src []float64) {
	if len(dst) < len(src) {
		panic("kernel: ExpNonPositive: dst shorter than src")
	}
	dst = dst[:len(src)]
	// Chunks keep each (non-preemptible) assembly call short.
	const chunk = 1 << 13
	for start := 0; start < len(src); start += chunk {
		end := min(start+chunk, len(src))
		if !expVector(dst[start:end], src[start:end]) {
			expScalar(dst[start:end], src[start:end])
		}
	}
}

// expScalar is the portable ExpNonPositive, with N = 128 and a degree-5 polynomial.
func expScalar(dst, src []float64) {
	dst = dst[:len(src)]
	for i, x := range src {
		if x >= expFastMin && x <= expFastMax {
			// expScaled(x, 0) by hand: the compiler does not inline it, and the call costs a
			// third of the time.
			kd := x*expInvLn2N + expShift
			k := int64(math.Float64bits(kd)) - expShiftBits
			kd -= expShift
			r := (x - kd*expLn2HiN) - kd*expLn2LoN
			entry := &expTable[k&(expN-1)]
			scale := math.Float64frombits(entry.bits + uint64(k>>expTableBits)<<52)
			r2 := r * r
			tmp := entry.tail + r + r2*(0.5+r*(1.0/6)) + r2*r2*(1.0/24+r*(1.0/120))
			dst[i] = scale + scale*tmp
			continue
		}
		dst[i] = expOutsideFastRange(x)
	}
}

// expScaled returns 2^bias·exp(x) for x whose result, so scaled, is a normal float64.
func expScaled(x float64, bias int64) float64 {
	kd := x*expInvLn2N + expShift
	k := int64(math.Float64bits(kd)) - expShiftBits
	kd -= expShift
	r := (x - kd*expLn2HiN) - kd*expLn2LoN
	entry := &expTable[k&(expN-1)]
	scale := math.Float64frombits(entry.bits + uint64((k>>expTableBits)+bias)<<52)
	r2 := r * r
	tmp := entry.tail + r + r2*(0.5+r*(1.0/6)) + r2*r2*(1.0/24+r*(1.0/120))
	return scale + scale*tmp
}

const (
	expTableBits = 7
	expN         = 1 << expTableBits

	// expFastMin keeps 2^⌊k/N⌋ a normal number (exp(-708.39) is the smallest normal double);
	// expFastMax keeps it finite.
	expFastMin = -708.0
	expFastMax = 708.0
	// Below expUnderflowBelow exp rounds to 0 (under half the smallest subnormal); above
	// expOverflowAbove it exceeds math.MaxFloat64 (the constants of math.Exp).
	expUnderflowBelow = -7.45133219101941108420e+02
	expOverflowAbove  = 7.09782712893383973096e+02

	expInvLn2N = expN / math.Ln2
	// expShift = 1.5·2⁵²: adding it rounds to the nearest integer, left in the low mantissa bits.
	expShift     = 0x1.8p52
	expShiftBits = 0x4338000000000000
	// expLn2HiN holds the top 33 bits of ln2/N, so kd·expLn2HiN is exact for |kd| < 2²⁰ (the fast
	// range needs |kd| ≤ 131000); expLn2LoN is the rest, computed from the constant math.Ln2
	// (exact untyped arithmetic at compile time) and rounded once to float64.
	expLn2HiN = 0x1.62e42fefp-8
	expLn2LoN = math.Ln2/expN - expLn2HiN
)

// expTableEntry is 2^(i/N) as the float64 scale (bits) and the relative error of that float64,
// tail = (2^(i/N) - scale) / scale, which the polynomial step adds back.
type expTableEntry struct {
	tail float64
	bits uint64
}

// expTable is 2^(i/N) for i < N, computed once in 256-bit arithmetic (see powersOfTwoRoot).
var expTable = func() (table [expN]expTableEntry) {
	scale, tail := powersOfTwoRoot(expTableBits)
	for i := range table {
		table[i] = expTableEntry{tail: tail[i], bits: math.Float64bits(scale[i])}
	}
	return table
}()

// powersOfTwoRoot returns scale[i] = 2^(i/2^bits) rounded to float64 and tail[i], the relative
// error of that rounding, for i < 2^bits. The root 2^(1/2^bits) comes from successive square roots
// of 2 in 256-bit arithmetic, so no constant has to be copied from elsewhere.
func powersOfTwoRoot(bits int) (scale, tail []float64) {
	const prec = 256
	root := new(big.Float).SetPrec(prec).SetInt64(2)
	for range bits {
		root.Sqrt(root)
	}
	n := 1 << bits
	scale, tail = make([]float64, n), make([]float64, n)
	power := new(big.Float).SetPrec(prec).SetInt64(1)
	diff := new(big.Float).SetPrec(prec)
	for i := range n {
		scale[i], _ = power.Float64()
		rounded := new(big.Float).SetFloat64(scale[i])
		diff.Sub(power, rounded)
		diff.Quo(diff, rounded)
		tail[i], _ = diff.Float64()
		power.Mul(power, root)
	}
	return scale, tail
}

// expOutsideFastRange handles NaN, overflow, underflow and the results near both ends of the
// float64 range, built as 2^bias·exp(x) and scaled back by one multiplication: exact by 2 near
// overflow (or rounding to +Inf), rounding once more for subnormal results (hence the bound of one
// unit of 2⁻¹⁰⁷⁴ there).
func expOutsideFastRange(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expOverflowAbove:
		return math.Inf(1)
	case x < expUnderflowBelow:
		return 0
	case x > 0:
		return expScaled(x, -1) * 2
	}
	return expScaled(x, 1022) * 0x1p-1022
}
