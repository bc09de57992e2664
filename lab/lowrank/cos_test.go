package lowrank

import (
	"math"
	"math/rand/v2"
	"testing"
)

// trigTestInputs covers the range the feature maps produce: a dense grid of [−20, 20] (Gaussian
// features), random values up to 10⁸ (past the fast path's end at 2²⁰, reached with Cauchy
// frequencies; about a quarter of them, interleaved with the others so that the vector code
// stops and resumes), points next to multiples of π/2 (where the reduction cancels most), huge
// values and the specials.
func trigTestInputs() []float64 {
	var xs []float64
	for i := -200000; i <= 200000; i++ {
		xs = append(xs, float64(i)*1e-4)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		xs = append(xs, (2*rng.Float64()-1)*math.Pow(10, 8*rng.Float64()))
	}
	for k := -2000000; k <= 2000000; k += 997 {
		m := float64(k) * math.Pi / 2
		xs = append(xs, m, math.Nextafter(m, math.Inf(1)), math.Nextafter(m, math.Inf(-1)))
	}
	return append(xs, 0, math.Copysign(0, -1), fastTrigMax, -fastTrigMax, math.Nextafter(fastTrigMax, 2*fastTrigMax),
		1e7, -3e9, 1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN())
}

// The stated bound is 6e-16 absolute against the exact values; math.Cos and math.Sin are within
// 1.2e-16 of them, hence the tolerance of 7.2e-16.
const trigTolerance = 7.2e-16

// Both the dispatching cosShiftScale (AVX-512 where available) and the portable loop.
func TestCosShiftScaleMatchesMathCos(t *testing.T) {
	xs := trigTestInputs()
	for _, c := range []struct {
		name string
		f    func(v, shift []float64, scale float64)
	}{{"cosShiftScale", cosShiftScale}, {"cosShiftScaleScalar", cosShiftScaleScalar}} {
		got := append([]float64(nil), xs...)
		c.f(got, make([]float64, len(xs)), 1)
		worst := 0.0
		for i, x := range xs {
			want := math.Cos(x)
			if math.IsNaN(want) {
				if !math.IsNaN(got[i]) {
					t.Fatalf("%s: cos(%g) = %g, want NaN", c.name, x, got[i])
				}
				continue
			}
			if e := math.Abs(got[i] - want); e > worst {
				worst = e
				if e > trigTolerance {
					t.Fatalf("%s: cos(%v) = %v, math.Cos gives %v (error %g > %g)", c.name, x, got[i], want, e, trigTolerance)
				}
			}
		}
		t.Logf("%s: largest absolute difference from math.Cos %g (vector code: %v)", c.name, worst, hasTrigVector)
	}
}

func TestCosShiftScaleAppliesShiftAndScale(t *testing.T) {
	v := []float64{0, 1, -2.5, 3e6}
	shift := []float64{math.Pi / 3, 0.5, 1, 1}
	cosShiftScale(v, shift, 2)
	want := []float64{2 * 0.5, 2 * math.Cos(1.5), 2 * math.Cos(-1.5), 2 * math.Cos(3e6+1)}
	for i := range v {
		if math.Abs(v[i]-want[i]) > 2*trigTolerance {
			t.Errorf("element %d: got %v, want %v", i, v[i], want[i])
		}
	}
}

func TestSinCosScaleMatchesMath(t *testing.T) {
	xs := trigTestInputs()
	for _, c := range []struct {
		name string
		f    func(v, sinOut []float64, scale float64)
	}{{"sinCosScale", sinCosScale}, {"sinCosScaleScalar", sinCosScaleScalar}} {
		cosines := append([]float64(nil), xs...)
		sines := make([]float64, len(xs))
		c.f(cosines, sines, 1)
		for i, x := range xs {
			wantSin, wantCos := math.Sin(x), math.Cos(x)
			if math.IsNaN(wantSin) {
				if !math.IsNaN(sines[i]) || !math.IsNaN(cosines[i]) {
					t.Fatalf("%s: sincos(%g) = %g, %g, want NaN", c.name, x, sines[i], cosines[i])
				}
				continue
			}
			if e := math.Abs(sines[i] - wantSin); e > trigTolerance {
				t.Fatalf("%s: sin(%v) = %v, math.Sin gives %v (error %g)", c.name, x, sines[i], wantSin, e)
			}
			if e := math.Abs(cosines[i] - wantCos); e > trigTolerance {
				t.Fatalf("%s: cos(%v) = %v, math.Cos gives %v (error %g)", c.name, x, cosines[i], wantCos, e)
			}
		}
	}
}

// Every tail length and position of an out-of-range argument inside a group of eight, against
// the scalar path (within the tolerance: the vector code fuses its multiply-adds).
func TestTrigVectorGroupsAndTails(t *testing.T) {
	for n := range 20 {
		for bad := -1; bad < n; bad++ {
			v := make([]float64, n)
			shift := make([]float64, n)
			for i := range v {
				v[i] = float64(i)*1.37 - 9
				shift[i] = float64(i) * 0.11
			}
			if bad >= 0 {
				v[bad] = 3e9
			}
			got, want := append([]float64(nil), v...), append([]float64(nil), v...)
			cosShiftScale(got, shift, 0.5)
			cosShiftScaleScalar(want, shift, 0.5)
			gotCos, wantCos := append([]float64(nil), v...), append([]float64(nil), v...)
			gotSin, wantSin := make([]float64, n), make([]float64, n)
			sinCosScale(gotCos, gotSin, 2)
			sinCosScaleScalar(wantCos, wantSin, 2)
			for i := range n {
				if math.Abs(got[i]-want[i]) > trigTolerance || math.Abs(gotCos[i]-wantCos[i]) > 2*trigTolerance ||
					math.Abs(gotSin[i]-wantSin[i]) > 2*trigTolerance {
					t.Fatalf("n=%d bad=%d element %d: cos %v/%v, sincos %v,%v / %v,%v", n, bad, i,
						got[i], want[i], gotSin[i], gotCos[i], wantSin[i], wantCos[i])
				}
			}
		}
	}
}

func BenchmarkCosShiftScale(b *testing.B) {
	v := make([]float64, 1<<14)
	shift := make([]float64, len(v))
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range v {
		v[i] = 20 * (rng.Float64() - 0.5)
	}
	work := make([]float64, len(v))
	b.ResetTimer()
	for range b.N {
		copy(work, v)
		cosShiftScale(work, shift, 1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(v)), "ns/value")
}
