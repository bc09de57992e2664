package lowrank

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bruteSubsetErrors returns ||K − ΦΦᵀ||_F and ||K||_F on subset, forming both matrices.
func bruteSubsetErrors(x, phi *mat.Dense, subset []int, sigma float64) (float64, float64) {
	var diff2, kernel2 float64
	for _, i := range subset {
		for _, j := range subset {
			kv := bruteGaussian(x.RawRowView(i), x.RawRowView(j), sigma)
			e := kv - mat.Dot(phi.RowView(i), phi.RowView(j))
			diff2 += e * e
			kernel2 += kv * kv
		}
	}
	return math.Sqrt(diff2), math.Sqrt(kernel2)
}

// 700 points span two 512-point tiles, so diagonal and off-diagonal tiles (and their weights)
// are all exercised; the subset is unsorted.
func TestFrobeniusErrorMatchesBruteForce(t *testing.T) {
	const n, d, sigma = 700, 3, 0.3
	x := randomPoints(31, n, d)
	m, err := FitNystrom(gaussianFor(t, sigma), x, []int{5, 100, 250, 400, 650, 699, 0, 333}, 6)
	if err != nil {
		t.Fatal(err)
	}
	phi, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	subset := []int{600, 3, 599, 17, 250, 42}
	for _, c := range []struct {
		name   string
		subset []int
		brute  []int
	}{{"all (nil subset)", nil, all}, {"unsorted subset", subset, subset}} {
		wantErr, wantNorm := bruteSubsetErrors(x, phi, c.brute, sigma)
		got, err := FrobeniusError(gaussianFor(t, sigma), x, phi, c.subset)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-wantErr) > 1e-9*wantErr {
			t.Errorf("%s: FrobeniusError = %.15g, brute force %.15g", c.name, got, wantErr)
		}
		rel, err := RelativeFrobeniusError(gaussianFor(t, sigma), x, phi, c.subset)
		if err != nil {
			t.Fatal(err)
		}
		if want := wantErr / wantNorm; math.Abs(rel-want) > 1e-9*want {
			t.Errorf("%s: RelativeFrobeniusError = %.15g, brute force %.15g", c.name, rel, want)
		}
	}
}

func TestFrobeniusErrorErrors(t *testing.T) {
	x := randomPoints(32, 10, 2)
	phi := mat.NewDense(10, 2, nil)
	g := gaussianFor(t, 1)
	_, err := FrobeniusError(nil, x, phi, nil)
	wantError(t, "nil kernel", err)
	_, err = FrobeniusError(g, x, mat.NewDense(9, 2, nil), nil)
	wantError(t, "features rows ≠ n", err)
	_, err = FrobeniusError(g, x, nil, nil)
	wantError(t, "nil features", err)
	_, err = FrobeniusError(g, x, phi, []int{1, 1})
	wantError(t, "repeated subset index", err)
	_, err = FrobeniusError(g, x, phi, []int{10})
	wantError(t, "subset index out of range", err)
	badPhi := mat.DenseCopyOf(phi)
	badPhi.Set(3, 1, math.NaN())
	_, err = FrobeniusError(g, x, badPhi, nil)
	wantError(t, "NaN features", err)
	_, err = RelativeFrobeniusError(kernelZero{}, x, phi, nil)
	wantError(t, "zero kernel", err)
}

// kernelZero is the zero kernel, whose relative error is undefined.
type kernelZero struct{}

func (kernelZero) Eval(x, z []float64) float64 { return 0 }
func (kernelZero) Name() string                { return "zero" }

// K = [[2, 1], [1, 2]] against diag(2, 2): ||K − A||² = 2 and ||K||² = 10.
func TestRelativeFrobeniusByHand(t *testing.T) {
	k := mat.NewSymDense(2, []float64{2, 1, 1, 2})
	a := mat.NewSymDense(2, []float64{2, 0, 0, 2})
	got, err := RelativeFrobenius(k, a)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Sqrt(0.2); math.Abs(got-want) > 1e-15 {
		t.Errorf("RelativeFrobenius = %g, want √0.2 = %g", got, want)
	}
	_, err = RelativeFrobenius(k, mat.NewSymDense(3, nil))
	wantError(t, "different sizes", err)
	_, err = RelativeFrobenius(mat.NewSymDense(2, nil), a)
	wantError(t, "zero K", err)
	_, err = RelativeFrobenius(mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}), a)
	wantError(t, "NaN in K", err)
	_, err = RelativeFrobenius(nil, a)
	wantError(t, "nil K", err)
}
