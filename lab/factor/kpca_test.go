package factor

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// TestKernelPCALinearIsPCA: with k(x, z) = <x, z> the centred Gram is XcXcᵀ, so kernel PCA's
// projections (fitted and of new points) equal PCA's up to sign, and λ_j = (n-1)·variance_j.
func TestKernelPCALinearIsPCA(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d, c = 30, 5, 3
	x, z := randomMatrix(rng, n, d), randomMatrix(rng, 8, d)
	for i := range n {
		x.Set(i, 0, 3*x.At(i, 0)+1) // a dominant, non-centred direction
	}
	pca, err := FitPCA(x, c)
	if err != nil {
		t.Fatal(err)
	}
	kpca, err := FitKernelPCA(kernel.Linear{}, x, c)
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range pca.ExplainedVariance() {
		if got := kpca.Eigenvalues()[j]; math.Abs(got-(n-1)*v) > 1e-10*got {
			t.Errorf("eigenvalue %d = %v, want (n-1)·variance = %v", j, got, (n-1)*v)
		}
	}
	for name, pts := range map[string]*mat.Dense{"training": x, "new": z} {
		want, err := pca.Transform(pts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := kpca.Transform(pts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := maxDiffUpToSign(got, want); diff > 1e-10 {
			t.Errorf("%s points: linear kernel PCA differs from PCA by %g", name, diff)
		}
		if name == "training" {
			if diff := maxDiffUpToSign(kpca.TrainingProjections(), want); diff > 1e-10 {
				t.Errorf("fitted projections differ from PCA by %g", diff)
			}
		}
	}
}

// TestKernelPCAPolynomialIsPCAOfFeatures: k(x, z) = <x, z>² has the explicit feature map
// φ(x) = (x₁², x₂², √2·x₁x₂), so kernel PCA equals PCA on φ(X), new points included; this checks
// the centring of the test kernel with a non-linear kernel.
func TestKernelPCAPolynomialIsPCAOfFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, z := randomMatrix(rng, 25, 2), randomMatrix(rng, 6, 2)
	features := func(a *mat.Dense) *mat.Dense {
		r, _ := a.Dims()
		f := mat.NewDense(r, 3, nil)
		for i := range r {
			u, v := a.At(i, 0), a.At(i, 1)
			f.SetRow(i, []float64{u * u, v * v, math.Sqrt2 * u * v})
		}
		return f
	}
	poly, err := kernel.NewPolynomial(2, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	kpca, err := FitKernelPCA(poly, x, 3)
	if err != nil {
		t.Fatal(err)
	}
	pca, err := FitPCA(features(x), 3)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := pca.Transform(features(z))
	got, err := kpca.Transform(z)
	if err != nil {
		t.Fatal(err)
	}
	if diff := maxDiffUpToSign(got, want); diff > 1e-9 {
		t.Errorf("kernel PCA with <x,z>² differs from PCA on φ(X) by %g", diff)
	}
}

// TestKernelPCATransformOfTrainingPoints: Transform recomputes K̃α from a cross-kernel; it must
// agree with the fitted √λ v, here with more rows than one block.
func TestKernelPCATransformOfTrainingPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 300
	x := randomMatrix(rng, n, 3)
	g, _ := kernel.NewGaussian(1.5)
	kpca, err := FitKernelPCA(g, x, 4)
	if err != nil {
		t.Fatal(err)
	}
	const crossBlockElements = 1 << 18 // the largest block of kernel.CrossBlocks
	if step := crossBlockElements / n; step >= 3*n {
		t.Fatalf("one block of %d rows holds all %d stacked points; the test needs several blocks", step, 3*n)
	}
	// 3 copies of the training set (900 rows) span several cross-kernel blocks.
	stacked := mat.NewDense(3*n, 3, nil)
	for c := range 3 {
		stacked.Slice(c*n, (c+1)*n, 0, 3).(*mat.Dense).Copy(x)
	}
	got, err := kpca.Transform(stacked)
	if err != nil {
		t.Fatal(err)
	}
	want := kpca.TrainingProjections()
	for c := range 3 {
		if !mat.EqualApprox(got.Slice(c*n, (c+1)*n, 0, 4), want, 1e-10) {
			t.Errorf("copy %d: Transform of the training points differs from the fitted projections", c)
		}
	}
	if ev := kpca.Eigenvalues(); !(ev[0] >= ev[1] && ev[1] >= ev[2] && ev[2] >= ev[3] && ev[3] > 0) {
		t.Errorf("eigenvalues %v, want positive and decreasing", ev)
	}
}

// circles returns perCircle noisy points on each of two concentric circles of radii 1 and 0.3
// (scikit-learn's make_circles with factor 0.3) and which circle each point is on.
func circles(rng *rand.Rand, perCircle int, noise float64) (*mat.Dense, []bool) {
	x := mat.NewDense(2*perCircle, 2, nil)
	inner := make([]bool, 2*perCircle)
	for i := range 2 * perCircle {
		r := 1.0
		if i >= perCircle {
			r, inner[i] = 0.3, true
		}
		theta := 2 * math.Pi * rng.Float64()
		x.Set(i, 0, r*math.Cos(theta)+noise*rng.NormFloat64())
		x.Set(i, 1, r*math.Sin(theta)+noise*rng.NormFloat64())
	}
	return x, inner
}

// separated reports whether the values of the two groups occupy disjoint intervals: a threshold
// between the largest value of one group and the smallest of the other splits them exactly.
func separated(values []float64, group []bool) bool {
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	for i, v := range values {
		g := 0
		if group[i] {
			g = 1
		}
		lo[g], hi[g] = min(lo[g], v), max(hi[g], v)
	}
	return hi[0] < lo[1] || hi[1] < lo[0]
}

func TestKernelPCASeparatesConcentricCircles(t *testing.T) {
	x, inner := circles(rand.New(rand.NewPCG(9, 10)), 100, 0.05)
	// σ = half the radial gap (1 - 0.3)/2 = 0.35, fixed by the construction and not by the result:
	// points across the gap then have k ≤ e⁻² while neighbours along a circle have k ≈ 1.
	g, err := kernel.NewGaussian((1 - 0.3) / 2)
	if err != nil {
		t.Fatal(err)
	}
	kpca, err := FitKernelPCA(g, x, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !separated(mat.Col(nil, 0, kpca.TrainingProjections()), inner) {
		t.Error("the first kernel principal component does not separate the two circles")
	}
	pca, err := FitPCA(x, 2)
	if err != nil {
		t.Fatal(err)
	}
	linear, _ := pca.Transform(x)
	if separated(mat.Col(nil, 0, linear), inner) {
		t.Error("linear PCA separates the circles too; the data set does not test what kernel PCA adds")
	}
}

func TestKernelPCAErrors(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1})
	g, _ := kernel.NewGaussian(1)
	for name, c := range map[string]struct {
		k kernel.Kernel
		x mat.Matrix
		c int
	}{
		"nil kernel":     {nil, x, 1},
		"bad kernel":     {kernel.Gaussian{Sigma: 0}, x, 1},
		"nil X":          {g, nil, 1},
		"one row":        {g, mat.NewDense(1, 2, []float64{1, 2}), 1},
		"NaN":            {g, mat.NewDense(2, 1, []float64{math.NaN(), 1}), 1},
		"components = 0": {g, x, 0},
		"components = n": {g, x, 4},
		// The centred linear Gram of 2-D points has rank ≤ 2: a third component is noise.
		"beyond rank": {kernel.Linear{}, x, 3},
		// Identical points: the centred Gram is zero.
		"all points equal": {g, mat.NewDense(3, 1, []float64{2, 2, 2}), 1},
	} {
		if _, err := FitKernelPCA(c.k, c.x, c.c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	m, err := FitKernelPCA(g, x, 2)
	if err != nil {
		t.Fatal(err)
	}
	for name, z := range map[string]mat.Matrix{
		"wrong columns": mat.NewDense(2, 3, nil),
		"NaN":           mat.NewDense(1, 2, []float64{0, math.NaN()}),
		"empty":         &mat.Dense{},
	} {
		if _, err := m.Transform(z); err == nil {
			t.Errorf("Transform %s: no error", name)
		}
	}
}
