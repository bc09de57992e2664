package lowrank

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// hoeffdingRadius is the t with P(|mean of D terms in an interval of width w − its expectation|
// ≥ t) ≤ δ/pairs for each of pairs estimates: 2·exp(−2Dt²/w²) = δ/pairs.
func hoeffdingRadius(features int, width float64, pairs int, delta float64) float64 {
	return width * math.Sqrt(math.Log(2*float64(pairs)/delta)/(2*float64(features)))
}

// rffErrors returns |Φ(x_i)·Φ(z_i) − k(x_i, z_i)| for the rows of x and z.
func rffErrors(t *testing.T, phiX, phiZ *mat.Dense, x, z *mat.Dense, k func(a, b []float64) float64) []float64 {
	t.Helper()
	n, _ := x.Dims()
	out := make([]float64, n)
	for i := range n {
		out[i] = math.Abs(mat.Dot(phiX.RowView(i), phiZ.RowView(i)) - k(x.RawRowView(i), z.RawRowView(i)))
	}
	return out
}

// The kernel estimate of both maps stays within the Hoeffding radius (failure probability 1e-6
// over all pairs and sizes) and shrinks as 1/√D: each term of Φ(x)·Φ(z) lies in [−2, 2] for the
// cos(ωᵀx + b) map and in [−1, 1] for the cos/sin map.
func TestRFFConvergesAtHoeffdingRate(t *testing.T) {
	const pairs, d, delta = 40, 5, 1e-6
	x, z := randomPoints(11, pairs, d), randomPoints(12, pairs, d)
	sizes := []int{50, 200, 800, 3200}
	for _, c := range []struct {
		name  string
		draw  func(rng *rand.Rand, features int) (*RFF, error)
		exact func(a, b []float64) float64
	}{
		{"gaussian", func(rng *rand.Rand, D int) (*RFF, error) { return NewRFFGaussian(rng, d, D, 0.8) },
			func(a, b []float64) float64 { return bruteGaussian(a, b, 0.8) }},
		{"laplace", func(rng *rand.Rand, D int) (*RFF, error) { return NewRFFLaplace(rng, d, D, 1.3) },
			func(a, b []float64) float64 { return bruteLaplace(a, b, 1.3) }},
	} {
		rng := rand.New(rand.NewPCG(13, 14))
		var firstRMS, lastRMS [2]float64
		for si, D := range sizes {
			r, err := c.draw(rng, D)
			if err != nil {
				t.Fatal(err)
			}
			for mi, cosSin := range []bool{false, true} {
				transform, width := r.Transform, 4.0
				if cosSin {
					transform, width = r.TransformCosSin, 2.0
				}
				phiX, err := transform(x)
				if err != nil {
					t.Fatal(err)
				}
				phiZ, err := transform(z)
				if err != nil {
					t.Fatal(err)
				}
				radius := hoeffdingRadius(D, width, pairs*len(sizes)*4, delta)
				var sum2 float64
				for i, e := range rffErrors(t, phiX, phiZ, x, z, c.exact) {
					if e > radius {
						t.Errorf("%s D=%d cosSin=%v pair %d: error %g beyond the Hoeffding radius %g", c.name, D, cosSin, i, e, radius)
					}
					sum2 += e * e
				}
				rms := math.Sqrt(sum2 / pairs)
				if si == 0 {
					firstRMS[mi] = rms
				}
				lastRMS[mi] = rms
			}
		}
		// D grows 64-fold, so the RMS error should shrink about 8-fold; with 40 pairs the RMS is
		// known to about ±20%, so a shrink by less than 4 means the rate is wrong.
		for mi := range 2 {
			if lastRMS[mi] > firstRMS[mi]/4 {
				t.Errorf("%s map %d: RMS error %g at D=%d against %g at D=%d, want about 8 times smaller",
					c.name, mi, lastRMS[mi], sizes[len(sizes)-1], firstRMS[mi], sizes[0])
			}
		}
	}
}

// The maps' entries against their formulas, evaluated with math.Cos and math.Sin from the drawn
// frequencies and phases, over several row blocks.
func TestRFFTransformFormula(t *testing.T) {
	const n, d, D = 1200, 3, 300
	x := randomPoints(15, n, d)
	r, err := NewRFFGaussian(rand.New(rand.NewPCG(1, 2)), d, D, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Features() != D {
		t.Fatalf("Features = %d, want %d", r.Features(), D)
	}
	phi, err := r.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := r.TransformCosSin(x)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range D {
			var proj float64
			for l := range d {
				proj += x.At(i, l) * r.frequencies.At(l, j)
			}
			if want := math.Sqrt(2.0/D) * math.Cos(proj+r.phases[j]); math.Abs(phi.At(i, j)-want) > 1e-14 {
				t.Fatalf("Transform[%d,%d] = %g, want %g", i, j, phi.At(i, j), want)
			}
			if want := math.Cos(proj) / math.Sqrt(D); math.Abs(cs.At(i, j)-want) > 1e-14 {
				t.Fatalf("TransformCosSin[%d,%d] = %g, want %g", i, j, cs.At(i, j), want)
			}
			if want := math.Sin(proj) / math.Sqrt(D); math.Abs(cs.At(i, D+j)-want) > 1e-14 {
				t.Fatalf("TransformCosSin[%d,%d] = %g, want %g", i, D+j, cs.At(i, D+j), want)
			}
		}
	}
}

// The Gaussian frequencies have variance 1/σ² and the phases lie in [0, 2π) with mean π
// (5 standard errors).
func TestRFFGaussianDrawDistribution(t *testing.T) {
	const d, D, sigma = 10, 4000, 0.5
	r, err := NewRFFGaussian(rand.New(rand.NewPCG(3, 3)), d, D, sigma)
	if err != nil {
		t.Fatal(err)
	}
	var sum2 float64
	for _, w := range r.frequencies.RawMatrix().Data {
		sum2 += w * w
	}
	variance, want := sum2/(d*D), 1/(sigma*sigma)
	if se := want * math.Sqrt(2.0/(d*D)); math.Abs(variance-want) > 5*se {
		t.Errorf("frequency variance %g, want %g ± %g", variance, want, 5*se)
	}
	var mean float64
	for _, b := range r.phases {
		if b < 0 || b >= 2*math.Pi {
			t.Fatalf("phase %g outside [0, 2π)", b)
		}
		mean += b / D
	}
	if se := 2 * math.Pi / math.Sqrt(12*D); math.Abs(mean-math.Pi) > 5*se {
		t.Errorf("phase mean %g, want π ± %g", mean, 5*se)
	}
}

func TestRFFIndependentOfWorkersAndSeeded(t *testing.T) {
	x := randomPoints(16, 3000, 4)
	draw := func() *mat.Dense {
		r, err := NewRFFLaplace(rand.New(rand.NewPCG(21, 22)), 4, 512, 2)
		if err != nil {
			t.Fatal(err)
		}
		phi, err := r.Transform(x)
		if err != nil {
			t.Fatal(err)
		}
		return phi
	}
	a := draw()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if !mat.Equal(a, draw()) {
		t.Error("same seed, different GOMAXPROCS: different features")
	}
}

func TestRFFErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		name        string
		rng         *rand.Rand
		d, features int
		sigma       float64
	}{
		{"nil rng", nil, 2, 3, 1}, {"d = 0", rng, 0, 3, 1}, {"no features", rng, 2, 0, 1},
		{"sigma 0", rng, 2, 3, 0}, {"negative sigma", rng, 2, 3, -1}, {"NaN sigma", rng, 2, 3, math.NaN()},
		{"infinite sigma", rng, 2, 3, math.Inf(1)}, {"subnormal sigma", rng, 2, 3, 5e-324},
	} {
		_, err := NewRFFGaussian(c.rng, c.d, c.features, c.sigma)
		wantError(t, "Gaussian "+c.name, err)
		_, err = NewRFFLaplace(c.rng, c.d, c.features, c.sigma)
		wantError(t, "Laplace "+c.name, err)
	}
	r, err := NewRFFGaussian(rng, 2, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Transform(randomPoints(1, 4, 3))
	wantError(t, "mismatched columns", err)
	bad := randomPoints(1, 4, 2)
	bad.Set(2, 0, math.Inf(-1))
	_, err = r.TransformCosSin(bad)
	wantError(t, "infinite input", err)
	_, err = r.Transform(nil)
	wantError(t, "nil input", err)
	wantError(t, "wrong dst shape", r.TransformInto(mat.NewDense(4, 6, nil), randomPoints(1, 4, 2)))
	wantError(t, "nil dst", r.TransformInto(nil, randomPoints(1, 4, 2)))
}
