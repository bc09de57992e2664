package pursuit

import (
	"math"

	"github.com/fastkernels/kernellab/lab/internal/parallel"
)

// The search for the atom most correlated with a residual reads the whole dictionary at every
// iteration of every solver, and is memory-bound in double precision. A DenseDictionary keeps an
// 8-bit copy of its atoms (atom j ≈ s_j·q_j with integers |q_ij| ≤ 127 and s_j = max_i|d_ij|/127),
// eight times smaller, on which an AVX2 kernel computes approximate correlations c̃_j in single
// precision. A rigorous bound B_j on |w_j·c̃_j − w_j·ĉ_j|, where ĉ_j is the double-precision dot
// product ⟨d_j, r⟩ as the exact search computes it, leaves as candidates only the atoms with
// v_j + B_j ≥ max_l (v_l − B_l) (v_j = w_j·c̃_j, or its absolute value); their ĉ_j are then
// computed in double precision and the best is returned. The result is the same atom, with the
// same correlation, as an exact search over all atoms: the screen changes the cost, never the
// answer. The bounds are per atom, so an atom that quantizes badly (a few large entries among
// small ones) only becomes a candidate more often, without widening the others' windows.
//
// The bound for atom j (weight w_j: 1, or 1/‖d_j‖ for the normalised selections), with r̂ the
// residual scaled by a power of two t and rounded to single precision:
//
//	B_j = w_j·[ γ₃₂·s_j‖q_j‖‖r̂‖ + s_j·(p+16)·2⁻¹¹⁰ + e_j‖r̂‖ + ‖d_j‖(‖r̂ − t·r‖ + γ₆₄‖t·r‖) ]/t,
//
// where e_j = ‖d_j − s_j q_j‖₂ (measured when the copy is built); γ₃₂ = k·2⁻²⁴/(1 − k·2⁻²⁴) with
// k = p/16 + 4 roundings along each of the kernel's sums (p = d rounded up to a multiple of 16,
// sixteen interleaved lanes accumulated by fused multiply-adds, then four pairwise additions);
// the 2⁻¹¹⁰ term covers single-precision underflow in each of the p + 15 operations, even if a
// library had switched on flush-to-zero or denormals-are-zero (|q| ≤ 127, so a flushed input
// costs at most 2⁻¹¹⁹); and γ₆₄ = (d+2)·2⁻⁵³·1.01 covers the rounding of the double-precision
// dot products. B_j is inflated by 2⁻²⁰ relative (the roundings of its own computation, for any
// d below 2³⁰), and the comparisons allow a further 2⁻⁵⁰·max|v| (the roundings of v_j).

// screenInflation is the relative slack added to the screening bounds.
const screenInflation = 1 + 0x1p-20

// screenMode selects the weights of a correlation search.
type screenMode int

const (
	rawCorrelation        screenMode = iota // w_j = 1 (Frank-Wolfe's linear minimisation)
	normalizedCorrelation                   // w_j = 1/‖d_j‖, 0 for zero atoms (the pursuits)
)

// correlationScreen is the 8-bit copy of a DenseDictionary and the per-atom constants of its
// bounds.
type correlationScreen struct {
	stride int    // p: d rounded up to a multiple of 16 (zero padded)
	rows   int    // n rounded up to a multiple of 4 (zero atoms)
	q      []int8 // rows × stride: atom j ≈ s_j·q_j
	modes  [2]screenConstants
	// extreme[j]: atom j's largest magnitude lies outside [2⁻⁹⁰⁰, 2⁹⁰⁰], where the scaled
	// arithmetic could underflow or overflow; it is not encoded (q_j = 0, no bound) and every
	// search computes its correlation exactly.
	extreme []bool
}

// screenConstants are the per-atom factors of one screenMode.
type screenConstants struct {
	factor       []float64 // w_j·s_j: weighted approximation = kernel output·factor/t (0: never selected)
	quantization []float64 // w_j·(γ₃₂ s_j‖q_j‖ + e_j)
	norm         []float64 // w_j·‖d_j‖
}

// screenBuilder builds the 8-bit copy atom by atom (encode may run concurrently for distinct
// atoms), then the constants of the bounds (finish).
type screenBuilder struct {
	s        *correlationScreen
	d        int
	scale    []float64 // s_j
	qNorm    []float64 // ‖q_j‖₂
	quantErr []float64 // e_j = ‖d_j − s_j q_j‖₂
}

func newScreenBuilder(d, n int) *screenBuilder {
	s := &correlationScreen{stride: (d + 15) &^ 15, rows: (n + 3) &^ 3, extreme: make([]bool, n)}
	s.q = make([]int8, s.rows*s.stride)
	return &screenBuilder{s: s, d: d, scale: make([]float64, n), qNorm: make([]float64, n), quantErr: make([]float64, n)}
}

// encode stores atom j (finite values) as s_j·q_j, rounding to the nearest integer.
func (b *screenBuilder) encode(j int, atom []float64) {
	maxAbs := 0.0
	for _, v := range atom {
		maxAbs = max(maxAbs, math.Abs(v))
	}
	if maxAbs == 0 {
		return // q_j = 0, s_j = 0, e_j = 0
	}
	if maxAbs < 0x1p-900 || maxAbs > 0x1p900 {
		b.s.extreme[j] = true // searched exactly: see correlationScreen.extreme
		return
	}
	b.scale[j] = maxAbs / 127
	inv := 127 / maxAbs
	row := b.s.q[j*b.s.stride : j*b.s.stride+b.d]
	var errSq, normSq float64 // in units of s_j, where every value is at most 127
	for i, v := range atom {
		x := v * inv                   // |x| ≤ 127(1 + 2⁻⁵²), so q ∈ [−127, 127]
		q := (x + 0x1.8p52) - 0x1.8p52 // round to nearest (even): |x| < 2⁵¹
		row[i] = int8(q)
		errSq += (x - q) * (x - q)
		normSq += q * q
	}
	b.qNorm[j] = math.Sqrt(normSq)
	// x differs from d_ij/s_j by at most 3·127·2⁻⁵³ (the roundings of s_j, 127/maxAbs and the
	// product): the second term keeps e_j an upper bound even when the first is zero.
	b.quantErr[j] = b.scale[j] * (math.Sqrt(errSq) + 127*0x1p-50*math.Sqrt(float64(len(atom))))
}

// finish computes the constants of the bounds from the atom norms. The copy takes p·n bytes,
// the constants 48·n bytes.
func (b *screenBuilder) finish(norms []float64) *correlationScreen {
	s, n := b.s, len(norms)
	lanes := float64(s.stride/16 + 4)
	gamma32 := lanes * 0x1p-24 / (1 - lanes*0x1p-24)
	for mode := range 2 {
		c := screenConstants{factor: make([]float64, n), quantization: make([]float64, n), norm: make([]float64, n)}
		for j := range n {
			w := 1.0
			if screenMode(mode) == normalizedCorrelation {
				if norms[j] == 0 {
					continue // never selected: all its constants stay zero
				}
				w = 1 / norms[j]
			}
			c.factor[j] = w * b.scale[j]
			c.quantization[j] = w * (gamma32*b.scale[j]*b.qNorm[j] + b.quantErr[j])
			c.norm[j] = w * norms[j]
		}
		s.modes[mode] = c
	}
	return s
}

// screenBuffers are the per-solve work arrays of a screened search.
type screenBuffers struct {
	rScaled []float32 // t·r in single precision, p entries (zero padded)
	kernel  []float32 // kernel output, one per padded atom
	value   []float64 // v_j: weighted approximate correlation (absolute value unless signed)
	bound   []float64 // B_j
}

func newScreenBuffers(s *correlationScreen, n int) screenBuffers {
	return screenBuffers{rScaled: make([]float32, s.stride), kernel: make([]float32, s.rows), value: make([]float64, n), bound: make([]float64, n)}
}

// screenScaleLimit bounds the binary exponent of the residual the screen handles, far inside
// float64's range, so that scaling by t is exact and t·r fits single precision.
const screenScaleLimit = 900

// approximate fills buf.value and buf.bound for r (atoms with a zero factor get value −Inf and
// are never candidates), and returns false when r is zero or its scale too extreme, in which
// case the caller searches exactly.
func (s *correlationScreen) approximate(dd *DenseDictionary, r []float64, mode screenMode, signed bool, buf *screenBuffers) bool {
	maxAbs := 0.0
	for _, v := range r {
		maxAbs = max(maxAbs, math.Abs(v))
	}
	_, e := math.Frexp(maxAbs)
	if maxAbs == 0 || e-1 < -screenScaleLimit || e-1 > screenScaleLimit {
		return false
	}
	t := math.Ldexp(1, 1-e) // max|t·r| ∈ [1, 2)
	var hatSq, diffSq, rSq float64
	for i, v := range r {
		vt := v * t
		h := float32(vt)
		buf.rScaled[i] = h
		hatSq += float64(h) * float64(h)
		diff := float64(h) - vt
		diffSq += diff * diff
		rSq += vt * vt
	}
	parallel.For((s.rows+correlationBlock-1)/correlationBlock, func(_, b int) {
		j0, j1 := b*correlationBlock, min(s.rows, (b+1)*correlationBlock)
		dotsInt8(s.q[j0*s.stride:j1*s.stride], s.stride, j1-j0, buf.rScaled, buf.kernel[j0:j1])
	})
	c := s.modes[mode]
	hat := math.Sqrt(hatSq)
	residual := math.Sqrt(diffSq) + float64(dd.d+2)*0x1p-53*1.01*math.Sqrt(rSq)
	underflow := float64(s.stride+16) * 0x1p-110
	for j := range dd.n {
		if c.factor[j] == 0 && c.norm[j] == 0 {
			buf.value[j] = math.Inf(-1)
			continue
		}
		v := float64(buf.kernel[j]) * c.factor[j] / t
		if !signed {
			v = math.Abs(v)
		}
		buf.value[j] = v
		buf.bound[j] = (c.quantization[j]*hat + c.factor[j]*underflow + c.norm[j]*residual) / t * screenInflation
	}
	return true
}

// best returns the atom maximising w_j·ĉ_j (signed) or |w_j·ĉ_j| (weights w, as the exact
// search uses them), smallest index on ties, and its unweighted correlation ĉ_j; atom −1 when
// every weighted correlation is zero (abs) or no atom has a non-zero weight. ok is false when
// the caller must search exactly: see approximate, or a correlation overflowed (the exact
// search then reports the error). r must be finite.
func (s *correlationScreen) best(dd *DenseDictionary, r []float64, mode screenMode, weights []float64, signed bool, buf *screenBuffers) (atom int, corr float64, ok bool) {
	if !s.approximate(dd, r, mode, signed, buf) {
		return -1, 0, false
	}
	// lower is the largest value an encoded candidate surely reaches; extreme atoms, which have no
	// bound, take no part in it and are all searched exactly (when every candidate is extreme,
	// lower stays −∞ and the search is exact).
	lower, top := math.Inf(-1), 0.0
	candidates := false
	for j, v := range buf.value[:dd.n] {
		if math.IsInf(v, -1) {
			continue
		}
		candidates = true
		if !s.extreme[j] {
			lower = max(lower, v-buf.bound[j])
			top = max(top, math.Abs(v))
		}
	}
	if !candidates {
		return -1, 0, true
	}
	if math.IsNaN(lower) || math.IsInf(top, 0) || math.IsNaN(top) {
		return -1, 0, false // overflow in single precision: let the exact search decide (and report)
	}
	lower -= 0x1p-49 * top // the roundings of the v_j, on both sides of the comparison
	best := newBestAtom(signed)
	for j, v := range buf.value[:dd.n] {
		if math.IsInf(v, -1) || !s.extreme[j] && v+buf.bound[j] < lower {
			continue
		}
		c := dot(dd.atom(j), r)
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return -1, 0, false // the exact search reports it
		}
		best.offer(j, weights[j], c)
	}
	atom, corr = best.result()
	return atom, corr, true
}
