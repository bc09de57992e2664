package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// expImplementations are the code paths behind ExpNonPositive: the dispatching function, the
// portable scalar loop and, where the processor has it, the AVX-512 loop.
func expImplementations(t *testing.T) map[string]func(dst, src []float64) {
	impls := map[string]func(dst, src []float64){
		"ExpNonPositive": ExpNonPositive,
		"scalar":         expScalar,
	}
	if expVector(make([]float64, 1), []float64{0}) {
		impls["vector"] = func(dst, src []float64) { expVector(dst, src) }
	} else {
		t.Log("no vector exp on this machine or build: only the scalar path is tested")
	}
	return impls
}

// ulpDistance returns |got - want| in units of the spacing of float64 at want (normal results).
func ulpDistance(got, want float64) float64 {
	return math.Abs(got-want) / (math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want))
}

// checkAgainstMathExp compares with math.Exp: within 2 ulp and 1e-15 relative for normal
// results (each function is within about 0.5 ulp of the exact value, and math.Exp itself is
// off by up to 1.5 ulp, e.g. at x = -4.510211445510572), within one unit of the smallest
// subnormal 2⁻¹⁰⁷⁴ for subnormal results (one more rounding), exactly 0 where math.Exp is 0.
func checkAgainstMathExp(t *testing.T, name string, src, got []float64) {
	t.Helper()
	bad := 0
	for i, x := range src {
		want := math.Exp(x)
		ok := false
		switch {
		case want == 0:
			ok = got[i] == 0
		case want < 0x1p-1022:
			ok = math.Abs(got[i]-want) <= 0x1p-1074
		default:
			ok = ulpDistance(got[i], want) <= 2 && math.Abs(got[i]-want) <= 1e-15*want
		}
		if !ok {
			bad++
			if bad <= 5 {
				t.Errorf("%s: exp(%v) = %v, math.Exp gives %v", name, x, got[i], want)
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d values out of tolerance in all", name, bad)
	}
}

func TestExpDenseGridAgainstMathExp(t *testing.T) {
	// 2²¹ points over [-745.2, 0] (spacing 3.6e-4), plus 2¹⁹ over [-745.2, -700], where the
	// subnormal results and the cut to 0 are.
	src := make([]float64, 0, 1<<21+1<<19)
	for i := range 1 << 21 {
		src = append(src, -745.2*float64(i)/(1<<21-1))
	}
	for i := range 1 << 19 {
		src = append(src, -700-45.2*float64(i)/(1<<19-1))
	}
	for name, exp := range expImplementations(t) {
		got := make([]float64, len(src))
		exp(got, src)
		checkAgainstMathExp(t, name, src, got)
	}
}

func TestExpRandomInputsAgainstMathExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float64, 1<<18)
	for i := range src {
		switch i % 3 {
		case 0: // the kernel range, uniform
			src[i] = -745.2 * rng.Float64()
		case 1: // small arguments, log-uniform down to 1e-300
			src[i] = -math.Pow(10, -300*rng.Float64())
		default: // arbitrary bit patterns with the sign bit set: all magnitudes, NaN, -Inf
			src[i] = math.Float64frombits(rng.Uint64() | 1<<63)
		}
	}
	for name, exp := range expImplementations(t) {
		got := make([]float64, len(src))
		exp(got, src)
		for i, x := range src {
			if math.IsNaN(x) {
				if !math.IsNaN(got[i]) {
					t.Fatalf("%s: exp(NaN) = %v", name, got[i])
				}
				src[i] = 0 // checked; keep checkAgainstMathExp simple
				got[i] = 1
			}
		}
		checkAgainstMathExp(t, name, src, got)
	}
}

// bigExp returns exp(x) to about 250 bits: the Taylor series of exp(x/2²⁰) squared 20 times.
func bigExp(x float64) *big.Float {
	const prec, halvings = 320, 20
	y := new(big.Float).SetPrec(prec).SetFloat64(x)
	y.SetMantExp(y, -halvings)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 40; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetInt64(n))
		sum.Add(sum, term)
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	return sum
}

// TestExpAgainstHighPrecision measures the error against exact values (not math.Exp): at most
// 0.52 ulp for the scalar code (N = 128 table: 0.5 for the final rounding, < 0.02 from the
// polynomial and the reduction) and 0.6 ulp for the vector code (its reduction argument is 16
// times larger, so its rounding errors weigh more).
func TestExpAgainstHighPrecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := make([]float64, 3000)
	for i := range src {
		src[i] = -708 * rng.Float64()
	}
	src = append(src, -4.510211445510572, -1, -0.5, -1e-10, -708.39)
	want := make([]float64, len(src))
	for i, x := range src {
		want[i], _ = bigExp(x).Float64()
	}
	limits := map[string]float64{"ExpNonPositive": 0.6, "scalar": 0.52, "vector": 0.6}
	for name, exp := range expImplementations(t) {
		got := make([]float64, len(src))
		exp(got, src)
		worst := 0.0
		for i, x := range src {
			err := new(big.Float).Sub(new(big.Float).SetFloat64(got[i]), bigExp(x))
			e, _ := err.Float64()
			ulp := math.Nextafter(want[i], 1) - want[i]
			worst = max(worst, math.Abs(e)/ulp)
		}
		t.Logf("%s: worst error %.3f ulp", name, worst)
		if worst > limits[name] {
			t.Errorf("%s: worst error %.3f ulp, want ≤ %.2f", name, worst, limits[name])
		}
	}
}

func TestExpSpecialValues(t *testing.T) {
	const exact, withinOneULP = true, false
	nearest := func(x float64) float64 { v, _ := bigExp(x).Float64(); return v }
	cases := []struct {
		x, want float64
		exact   bool
	}{
		{0, 1, exact}, {math.Copysign(0, -1), 1, exact}, {math.Inf(-1), 0, exact},
		{-1e308, 0, exact}, {-746, 0, exact}, {-745.14, 0, exact},
		{-745.13, 0x1p-1074, exact}, // the smallest subnormal
		{1, math.E, withinOneULP}, {700, nearest(700), withinOneULP},
		// math.Exp on amd64 gives +Inf here although the result is finite.
		{709.7, nearest(709.7), withinOneULP},
		{709.79, math.Inf(1), exact}, {710, math.Inf(1), exact}, {1e300, math.Inf(1), exact},
		{math.Inf(1), math.Inf(1), exact},
	}
	for name, exp := range expImplementations(t) {
		for _, c := range cases {
			got := []float64{0}
			exp(got, []float64{c.x})
			if (c.exact && got[0] != c.want) || (!c.exact && ulpDistance(got[0], c.want) > 1) {
				t.Errorf("%s: exp(%v) = %v, want %v", name, c.x, got[0], c.want)
			}
		}
		got := []float64{0}
		if exp(got, []float64{math.NaN()}); !math.IsNaN(got[0]) {
			t.Errorf("%s: exp(NaN) = %v", name, got[0])
		}
	}
}

// TestExpEveryLengthAndOffset covers the partial last vector (masked loads and stores): every
// length up to 40 at several offsets, in place and out of place, must give the same values as
// elementwise calls and leave the rest of dst alone.
func TestExpEveryLengthAndOffset(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	base := make([]float64, 64)
	for i := range base {
		base[i] = -20 * rng.Float64()
	}
	single := make([]float64, len(base))
	for i := range base {
		ExpNonPositive(single[i:i+1], base[i:i+1])
	}
	const sentinel = -123.0
	for offset := range 8 {
		for n := 0; n <= 40; n++ {
			dst := make([]float64, len(base))
			for i := range dst {
				dst[i] = sentinel
			}
			ExpNonPositive(dst[offset:offset+n], base[offset:offset+n])
			inPlace := append([]float64(nil), base...)
			ExpNonPositive(inPlace[offset:offset+n], inPlace[offset:offset+n])
			for i := range dst {
				inside := i >= offset && i < offset+n
				if inside && (dst[i] != single[i] || inPlace[i] != single[i]) {
					t.Fatalf("offset %d length %d: element %d = %v (in place %v), alone %v",
						offset, n, i, dst[i], inPlace[i], single[i])
				}
				if !inside && (dst[i] != sentinel || inPlace[i] != base[i]) {
					t.Fatalf("offset %d length %d: element %d outside the slice was written", offset, n, i)
				}
			}
		}
	}
}

func TestExpTables(t *testing.T) {
	// 2^(i/N) rounded must be within half an ulp of math.Exp2 (itself within 1 ulp) and the
	// stored tail must be the relative rounding error, i.e. tiny and of the right size.
	for i, e := range expTable {
		scale := math.Float64frombits(e.bits)
		want := math.Exp2(float64(i) / expN)
		if ulpDistance(scale, want) > 1 || math.Abs(e.tail) > 0x1p-53 {
			t.Fatalf("entry %d: scale %v (Exp2 %v), tail %g", i, scale, want, e.tail)
		}
	}
	if expTable[expN/2].tail == 0 || math.Float64frombits(expTable[expN/2].bits) != math.Sqrt2 {
		t.Fatalf("entry N/2 must be √2 rounded, with a non-zero tail: %+v", expTable[expN/2])
	}
	if expLn2HiN+expLn2LoN != math.Ln2/expN {
		t.Fatalf("ln2/N split does not add up")
	}
	if math.Float64bits(expLn2HiN)&(1<<20-1) != 0 {
		t.Fatalf("ln2hi/N keeps more than 33 bits, so kd·ln2hi/N may not be exact")
	}
}

func BenchmarkExpNonPositive(b *testing.B) {
	// 4096 values: in L1, so this measures the arithmetic. Reported as values per second.
	src := make([]float64, 4096)
	for i := range src {
		src[i] = -745 * float64(i) / float64(len(src))
	}
	dst := make([]float64, len(src))
	run := func(b *testing.B, exp func(dst, src []float64)) {
		for b.Loop() {
			exp(dst, src)
		}
		b.ReportMetric(float64(b.N)*float64(len(src))/b.Elapsed().Seconds(), "values/s")
	}
	b.Run("dispatch", func(b *testing.B) { run(b, ExpNonPositive) })
	b.Run("scalar", func(b *testing.B) { run(b, expScalar) })
	b.Run("math.Exp", func(b *testing.B) {
		run(b, func(dst, src []float64) {
			for i, x := range src {
				dst[i] = math.Exp(x)
			}
		})
	})
}
