package pursuit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// dotsInt8Reference is the kernel's arithmetic written out in Go: sixteen lanes accumulate
// with fused multiply-adds, then lanes l and l+8, l+4, l+2, l+1 are added.
func dotsInt8Reference(q []int8, stride, rows int, r []float32, out []float32) {
	for j := range rows {
		var lanes [16]float32
		for i := range stride {
			l := i % 16
			lanes[l] = float32(math.FMA(float64(q[j*stride+i]), float64(r[i]), float64(lanes[l])))
		}
		for _, half := range []int{8, 4, 2, 1} {
			for l := range half {
				lanes[l] += lanes[l+half]
			}
		}
		out[j] = lanes[0]
	}
}

func TestDotsInt8MatchesReference(t *testing.T) {
	if !screenKernelAvailable {
		t.Skip("no 8-bit kernel on this machine or build")
	}
	rng := rand.New(rand.NewPCG(2, 2))
	for _, size := range []struct{ stride, rows int }{{16, 4}, {48, 8}, {400, 12}, {2048, 4}} {
		q := make([]int8, size.stride*size.rows)
		for i := range q {
			q[i] = int8(rng.IntN(255) - 127)
		}
		r := make([]float32, size.stride)
		for i := range r {
			r[i] = float32(rng.NormFloat64())
		}
		got := make([]float32, size.rows)
		want := make([]float32, size.rows)
		dotsInt8(q, size.stride, size.rows, r, got)
		dotsInt8Reference(q, size.stride, size.rows, r, want)
		for j := range got {
			// Equal but for the rare double rounding of the reference's float64 FMA.
			if math.Abs(float64(got[j]-want[j])) > 1e-6*math.Abs(float64(want[j]))+1e-4 {
				t.Fatalf("stride %d row %d: kernel %g, reference %g", size.stride, j, got[j], want[j])
			}
		}
	}
}

// TestScreenEncoding checks the 8-bit copy of atoms: |d_ij − s_j q_ij| ≤ s_j/2 with
// s_j = max|d_ij|/127, the largest entry stored as ±127, and e_j an upper bound of ‖d_j − s_j q_j‖
// that is tight.
func TestScreenEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	d, n := 37, 9
	b := newScreenBuilder(d, n)
	atoms := make([][]float64, n)
	for j := range n {
		atoms[j] = make([]float64, d)
		for i := range d {
			atoms[j][i] = math.Ldexp(rng.NormFloat64(), j*40-150)
		}
		if j == 3 {
			clear(atoms[j]) // zero atom
		}
		b.encode(j, atoms[j])
	}
	for j, atom := range atoms {
		row := b.s.q[j*b.s.stride : j*b.s.stride+d]
		errSq, maxQ := 0.0, 0
		for i, v := range atom {
			diff := v - b.scale[j]*float64(row[i])
			if math.Abs(diff) > b.scale[j]/2*(1+1e-12) {
				t.Fatalf("atom %d entry %d: %g stored as %d·%g", j, i, v, row[i], b.scale[j])
			}
			errSq += diff * diff
			maxQ = max(maxQ, int(row[i]), -int(row[i]))
		}
		if j == 3 {
			if maxQ != 0 || b.quantErr[j] != 0 {
				t.Fatalf("zero atom encoded as max %d, error %g", maxQ, b.quantErr[j])
			}
			continue
		}
		if e := math.Sqrt(errSq); maxQ != 127 || b.quantErr[j] < e || b.quantErr[j] > e*(1+1e-9) {
			t.Fatalf("atom %d: max |q| %d, e_j %g, measured %g", j, maxQ, b.quantErr[j], e)
		}
	}
}

// screenTestDictionaries returns dictionaries that stress the screen: Gaussian ones of odd
// sizes, one with duplicated and nearly duplicated atoms, a zero atom, atoms of small integers
// (exact in 8 bits) and heavy-tailed atoms (one large entry among tiny ones, quantised badly),
// one with atoms of wildly different scales, two beyond the range the copy encodes, and one whose
// atoms all lie beyond it.
func screenTestDictionaries(t *testing.T) map[string]*DenseDictionary {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	out := map[string]*DenseDictionary{}
	for _, size := range []struct{ d, n int }{{7, 5}, {33, 70}, {200, 401}} {
		dd, err := NewGaussianDictionary(rng, size.d, size.n)
		if err != nil {
			t.Fatal(err)
		}
		out["gaussian "+string(rune('a'+len(out)))] = dd
	}
	d, n := 50, 120
	m := mat.NewDense(d, n, nil)
	for j := range n {
		for i := range d {
			switch {
			case j < 60:
				m.Set(i, j, rng.NormFloat64())
			case j < 90: // duplicate of atom j−60, slightly perturbed for odd j
				v := m.At(i, j-60)
				if j%2 == 1 {
					v += 1e-9 * rng.NormFloat64()
				}
				m.Set(i, j, v)
			case j == 90: // zero atom
			case j < 110: // small integers: exact in 8 bits
				m.Set(i, j, float64(rng.IntN(7)-3))
			default: // heavy tail
				v := 1e-3 * rng.NormFloat64()
				if i == j%d {
					v = 50
				}
				m.Set(i, j, v)
			}
		}
	}
	var err error
	if out["duplicates"], err = NewDenseDictionary(m); err != nil {
		t.Fatal(err)
	}
	scales := mat.NewDense(20, 40, nil)
	for j := range 40 {
		s := math.Ldexp(1, rng.IntN(400)-200)
		switch j {
		case 7:
			s = 1e-300
		case 8:
			s = 1e200
		}
		for i := range 20 {
			scales.Set(i, j, s*rng.NormFloat64())
		}
	}
	if out["scales"], err = NewDenseDictionary(scales); err != nil {
		t.Fatal(err)
	}
	// Every atom beyond the encoded range (issue 34): the screen held only infinite bounds and
	// answered "no atom" where the exact search finds one.
	subnormal := mat.NewDense(8, 3, nil)
	for i := range 8 {
		for j := range 3 {
			subnormal.Set(i, j, 1e-310*float64(1+(i*3+j)%5))
		}
	}
	if out["all subnormal"], err = NewDenseDictionary(subnormal); err != nil {
		t.Fatal(err)
	}
	return out
}

// screenTestResiduals returns residuals for a d-dimensional dictionary: Gaussian, one with a
// huge dynamic range (entries below single precision's range), one exact in single precision,
// one equal to an atom (so one correlation stands out) and a tiny one.
func screenTestResiduals(rng *rand.Rand, dd *DenseDictionary) [][]float64 {
	d := dd.d
	var out [][]float64
	gauss := func(scale float64) []float64 {
		r := make([]float64, d)
		for i := range r {
			r[i] = scale * rng.NormFloat64()
		}
		return r
	}
	out = append(out, gauss(1), gauss(1e-200), gauss(1e100))
	wide := gauss(1)
	for i := range wide {
		wide[i] *= math.Ldexp(1, rng.IntN(300)-250)
	}
	ints := make([]float64, d)
	for i := range ints {
		ints[i] = float64(rng.IntN(5) - 2)
	}
	ints[0] = 1
	atom := append([]float64(nil), dd.atom(rng.IntN(dd.n))...)
	if norm2(atom) == 0 {
		atom[0] = 1
	}
	return append(out, wide, ints, atom)
}

// TestScreenBoundHolds checks the rigorous bound of the screen: every approximate weighted
// correlation is within B_j of the double-precision one.
func TestScreenBoundHolds(t *testing.T) {
	if !screenKernelAvailable {
		t.Skip("no 8-bit kernel on this machine or build")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for name, dd := range screenTestDictionaries(t) {
		if dd.screen == nil {
			t.Fatalf("%s: no screen built", name)
		}
		sel, err := newSelector("test", dd, make([]float64, dd.d))
		if err != nil {
			t.Fatal(err)
		}
		for k, r := range screenTestResiduals(rng, dd) {
			for mode := range 2 {
				for _, signed := range []bool{false, true} {
					if !dd.screen.approximate(dd, r, screenMode(mode), signed, &sel.buf) {
						largest := 0.0
						for _, v := range r {
							largest = max(largest, math.Abs(v))
						}
						if _, e := math.Frexp(largest); largest != 0 && e-1 >= -screenScaleLimit && e-1 <= screenScaleLimit {
							t.Fatalf("%s residual %d: screen refused a finite residual of a scale it encodes", name, k)
						}
						continue // zero, or beyond the scales the screen encodes: searched exactly
					}
					for j := range dd.n {
						exact := sel.weights[mode][j] * dot(dd.atom(j), r)
						if !signed {
							exact = math.Abs(exact)
						}
						v := sel.buf.value[j]
						if dd.screen.extreme[j] {
							continue // not encoded: every search computes it exactly
						}
						if math.IsInf(v, -1) {
							if sel.weights[mode][j] != 0 && dd.norms[j] != 0 {
								t.Fatalf("%s: atom %d excluded from the search", name, j)
							}
							continue
						}
						if math.Abs(v-exact) > sel.buf.bound[j]+0x1p-50*math.Abs(exact) {
							t.Fatalf("%s residual %d mode %d atom %d: |%g − %g| > bound %g", name, k, mode, j, v, exact, sel.buf.bound[j])
						}
					}
				}
			}
		}
	}
}

// TestScreenedSearchEqualsExactSearch compares the screened search with the exact one (the same
// dictionary without its 8-bit copy): same atom, same correlation, in every mode.
func TestScreenedSearchEqualsExactSearch(t *testing.T) {
	if !screenKernelAvailable {
		t.Skip("no 8-bit kernel on this machine or build")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for name, dd := range screenTestDictionaries(t) {
		plain := *dd
		plain.screen = nil
		screened, _ := newSelector("test", dd, make([]float64, dd.d))
		exact, _ := newSelector("test", &plain, make([]float64, dd.d))
		for k, r := range screenTestResiduals(rng, dd) {
			for mode := range 2 {
				for _, signed := range []bool{false, true} {
					a1, c1, err1 := screened.best(r, screenMode(mode), signed)
					a2, c2, err2 := exact.best(r, screenMode(mode), signed)
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					if a1 != a2 || c1 != c2 {
						t.Fatalf("%s residual %d mode %d signed %v: screened (%d, %g), exact (%d, %g)", name, k, mode, signed, a1, c1, a2, c2)
					}
				}
			}
		}
	}
}

// TestScreenedSearchReportsOverflow: a correlation that overflows is reported as an error by
// both searches, not selected by the screened one.
func TestScreenedSearchReportsOverflow(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{1, 1e290, 0, 1, 1e290, 1})
	dd := mustDense(t, m)
	r := []float64{1e150, 1e150}
	for _, dict := range []*DenseDictionary{dd, withoutScreen(dd)} {
		sel, err := newSelector("test", dict, r)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := sel.best(r, rawCorrelation, false); err == nil {
			t.Fatalf("screen %v: overflowing correlation not reported", dict.screen != nil)
		}
	}
}
