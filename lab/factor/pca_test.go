package factor

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomMatrix(rng *rand.Rand, r, c int) *mat.Dense {
	x := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

// maxDiffUpToSign returns max_ij |a_ij - s_j b_ij| with each column's sign s_j = ±1 chosen to
// fit best, for comparisons of projections defined up to sign.
func maxDiffUpToSign(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var worst float64
	for j := range c {
		var same, flipped float64
		for i := range r {
			same = max(same, math.Abs(a.At(i, j)-b.At(i, j)))
			flipped = max(flipped, math.Abs(a.At(i, j)+b.At(i, j)))
		}
		worst = max(worst, min(same, flipped))
	}
	return worst
}

// TestPCAPointsOnALine: (0,0), (1,2), (2,4) have mean (1,2), direction (1,2)/√5, projections
// -√5, 0, √5 and variance (5+0+5)/2 = 5; the orthogonal direction has variance 0.
func TestPCAPointsOnALine(t *testing.T) {
	m, err := FitPCA(mat.NewDense(3, 2, []float64{0, 0, 1, 2, 2, 4}), 2)
	if err != nil {
		t.Fatal(err)
	}
	v := m.ExplainedVariance()
	if math.Abs(v[0]-5) > 1e-14 || math.Abs(v[1]) > 1e-14 {
		t.Errorf("ExplainedVariance = %v, want [5 0]", v)
	}
	c := m.Components()
	if math.Abs(c.At(0, 0)-1/math.Sqrt(5)) > 1e-15 || math.Abs(c.At(1, 0)-2/math.Sqrt(5)) > 1e-15 {
		t.Errorf("first component = %v, want (1,2)/√5 (largest entry positive)", mat.Col(nil, 0, c))
	}
	got, err := m.Transform(mat.NewDense(2, 2, []float64{2, 4, 1, 2 + math.Sqrt(5)}))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.At(0, 0)-math.Sqrt(5)) > 1e-14 || math.Abs(got.At(1, 0)-2) > 1e-14 {
		t.Errorf("projections on component 1 = %v, want [√5 2]", mat.Col(nil, 0, got))
	}
}

// TestPCAMatchesCovarianceEigenvectors compares with the eigen-decomposition of the sample
// covariance XcᵀXc/(n-1), formed explicitly.
func TestPCAMatchesCovarianceEigenvectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d, c = 40, 4, 3
	x := randomMatrix(rng, n, d)
	for i := range n { // stretch the axes so the variances are well separated
		for j := range d {
			x.Set(i, j, x.At(i, j)*float64(4-j)+float64(j))
		}
	}
	m, err := FitPCA(x, c)
	if err != nil {
		t.Fatal(err)
	}
	xc := mat.DenseCopyOf(x)
	for j := range d {
		var mean float64
		for i := range n {
			mean += x.At(i, j) / n
		}
		for i := range n {
			xc.Set(i, j, x.At(i, j)-mean)
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n-1), xc.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		t.Fatal("reference eigen-decomposition failed")
	}
	values := eig.Values(nil)
	var vectors mat.Dense
	eig.VectorsTo(&vectors)
	want := mat.NewDense(d, c, nil)
	for j := range c {
		if got := m.ExplainedVariance()[j]; math.Abs(got-values[d-1-j]) > 1e-12*values[d-1] {
			t.Errorf("variance %d = %v, covariance eigenvalue %v", j, got, values[d-1-j])
		}
		for i := range d {
			want.Set(i, j, vectors.At(i, d-1-j))
		}
	}
	if diff := maxDiffUpToSign(m.Components(), want); diff > 1e-10 {
		t.Errorf("components differ from covariance eigenvectors by %g", diff)
	}
	var proj mat.Dense
	proj.Mul(xc, want)
	got, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	if diff := maxDiffUpToSign(got, &proj); diff > 1e-10 {
		t.Errorf("Transform differs from Xc·V by %g", diff)
	}
}

func TestPCAErrors(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 6})
	var nilDense *mat.Dense
	for name, c := range map[string]struct {
		x mat.Matrix
		k int
	}{
		"nil X":          {nil, 1},
		"nil *Dense":     {nilDense, 1},
		"empty":          {&mat.Dense{}, 1},
		"one row":        {mat.NewDense(1, 2, []float64{1, 2}), 1},
		"NaN":            {mat.NewDense(2, 1, []float64{math.NaN(), 1}), 1},
		"components = 0": {x, 0},
		"components > d": {x, 3},
	} {
		if _, err := FitPCA(c.x, c.k); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	m, err := FitPCA(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Transform(mat.NewDense(1, 3, nil)); err == nil {
		t.Error("Transform with 3 columns: no error")
	}
	if _, err := m.Transform(mat.NewDense(1, 2, []float64{math.Inf(1), 0})); err == nil {
		t.Error("Transform with Inf: no error")
	}
}

func TestFixSigns(t *testing.T) {
	v := mat.NewDense(2, 3, []float64{
		0.1, -1, 3,
		-2, 1 + 1e-15, -3,
	})
	fixSigns(v)
	// Column 0: largest entry -2 becomes positive. Columns 1 and 2: magnitudes tied (up to
	// rounding), so the first entry decides.
	want := mat.NewDense(2, 3, []float64{
		-0.1, 1, 3,
		2, -(1 + 1e-15), -3,
	})
	if !mat.Equal(v, want) {
		t.Errorf("fixSigns gave\n%v\nwant\n%v", mat.Formatted(v), mat.Formatted(want))
	}
}
