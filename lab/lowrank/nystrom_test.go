package lowrank

import (
	"math"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// svdPseudoInverse returns the rank-k pseudo-inverse of the symmetric positive semi-definite w
// through an SVD (an independent route from the eigendecomposition used by Nystrom).
func svdPseudoInverse(t *testing.T, w mat.Matrix, k int) *mat.Dense {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(w, mat.SVDThin) {
		t.Fatal("SVD failed")
	}
	values := svd.Values(nil)
	var u mat.Dense
	svd.UTo(&u)
	n := len(values)
	scaled := mat.NewDense(n, k, nil)
	for j := range k {
		for i := range n {
			scaled.Set(i, j, u.At(i, j)/values[j])
		}
	}
	var out mat.Dense
	out.Mul(scaled, u.Slice(0, n, 0, k).T())
	return &out
}

func gaussianFor(t *testing.T, sigma float64) kernel.Gaussian {
	t.Helper()
	g, err := kernel.NewGaussian(sigma)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestNystromAllLandmarksReproducesK(t *testing.T) {
	const n, d, sigma = 60, 3, 0.4
	x := randomPoints(1, n, d)
	all := make([]int, n)
	for i := range all {
		all[i] = n - 1 - i // any order
	}
	for _, c := range []struct {
		name  string
		k     kernel.Kernel
		brute func(a, b []float64) float64
	}{
		{"gaussian", gaussianFor(t, sigma), func(a, b []float64) float64 { return bruteGaussian(a, b, sigma) }},
		{"laplace", kernel.Laplace{Sigma: 1.5}, func(a, b []float64) float64 { return bruteLaplace(a, b, 1.5) }},
	} {
		m, err := FitNystrom(c.k, x, all, 0)
		if err != nil {
			t.Fatal(err)
		}
		phi, err := m.Transform(x)
		if err != nil {
			t.Fatal(err)
		}
		var approx mat.Dense
		approx.Mul(phi, phi.T())
		assertClose(t, c.name+": ΦΦᵀ against the brute-force K", &approx, bruteCross(x, x, c.brute), 1e-8)
	}
}

// ΦΦᵀ = C W_k⁺ Cᵀ for a rank below |S|, with W_k⁺ from an SVD and C, W by brute force; new
// points follow the same formula with their own cross-kernel.
func TestNystromFeaturesMatchPseudoInverseFormula(t *testing.T) {
	const n, d, sigma, rank = 80, 4, 0.7, 7
	x := randomPoints(2, n, d)
	z := randomPoints(3, 25, d)
	landmarks := []int{3, 17, 42, 5, 77, 60, 11, 29, 33, 50, 1, 68}
	brute := func(a, b []float64) float64 { return bruteGaussian(a, b, sigma) }
	m, err := FitNystrom(gaussianFor(t, sigma), x, landmarks, rank)
	if err != nil {
		t.Fatal(err)
	}
	if m.Components() != rank {
		t.Fatalf("Components = %d, want %d", m.Components(), rank)
	}
	s := gatherRows(x, landmarks)
	pinv := svdPseudoInverse(t, bruteCross(s, s, brute), rank)
	cx, cz := bruteCross(x, s, brute), bruteCross(z, s, brute)

	phiX, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	phiZ, err := m.Transform(z)
	if err != nil {
		t.Fatal(err)
	}
	var got, want, tmp mat.Dense
	got.Mul(phiX, phiX.T())
	tmp.Mul(cx, pinv)
	want.Mul(&tmp, cx.T())
	assertClose(t, "training ΦΦᵀ against C W_k⁺ Cᵀ", &got, &want, 1e-10)

	var gotNew, wantNew, tmpNew mat.Dense
	gotNew.Mul(phiZ, phiX.T())
	tmpNew.Mul(cz, pinv)
	wantNew.Mul(&tmpNew, cx.T())
	assertClose(t, "new points Φ(Z)Φ(X)ᵀ against K(Z,S) W_k⁺ K(S,X)", &gotNew, &wantNew, 1e-10)

	// The features do not depend on how Transform splits its input into blocks.
	phiPart, err := m.Transform(x.Slice(10, 30, 0, d))
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(phiPart, phiX.Slice(10, 30, 0, rank)) {
		t.Error("Transform of a slice of X differs from the same rows of Transform(X)")
	}
}

// With all landmarks kept (rank |S|), K̂ interpolates K on the landmark rows and columns.
func TestNystromExactOnLandmarks(t *testing.T) {
	const n, d, sigma = 40, 2, 0.5
	x := randomPoints(4, n, d)
	landmarks := []int{0, 9, 18, 27, 36, 5}
	m, err := FitNystrom(gaussianFor(t, sigma), x, landmarks, 0)
	if err != nil {
		t.Fatal(err)
	}
	phi, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range landmarks {
		for j := range n {
			got := mat.Dot(phi.RowView(l), phi.RowView(j))
			want := bruteGaussian(x.RawRowView(l), x.RawRowView(j), sigma)
			if math.Abs(got-want) > 1e-9 {
				t.Fatalf("K̂(%d, %d) = %g, want K = %g", l, j, got, want)
			}
		}
	}
}

// Two identical points among the landmarks make W singular: the cut-off drops the null
// direction and the approximation is still exact on all landmarks.
func TestNystromCutoffDropsNullDirections(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 0})
	m, err := FitNystrom(gaussianFor(t, 1), x, []int{0, 1, 2, 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.Components() != 3 {
		t.Fatalf("Components = %d, want 3 (rows 1 and 3 coincide)", m.Components())
	}
	phi, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	var approx mat.Dense
	approx.Mul(phi, phi.T())
	assertClose(t, "ΦΦᵀ", &approx, bruteCross(x, x, func(a, b []float64) float64 { return bruteGaussian(a, b, 1) }), 1e-12)
}

func TestNystromTransformIntoReusesBuffer(t *testing.T) {
	x := randomPoints(6, 30, 2)
	m, err := FitNystrom(gaussianFor(t, 0.5), x, []int{1, 2, 3}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	dst := mat.NewDense(30, 2, nil)
	if err := m.TransformInto(dst, x); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(dst, want) {
		t.Error("TransformInto differs from Transform")
	}
	m.Kernel = gaussianFor(t, 5) // without a new Fit, the fitted kernel stays in use
	again, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(again, want) {
		t.Error("changing Kernel after Fit changed Transform")
	}
	if got := m.Landmarks(); len(got) != 3 || got[0] != 1 || got[2] != 3 {
		t.Errorf("Landmarks = %v, want [1 2 3]", got)
	}
}

func TestNystromErrors(t *testing.T) {
	x := randomPoints(7, 10, 2)
	g := gaussianFor(t, 1)
	_, err := FitNystrom(nil, x, []int{1}, 0)
	wantError(t, "nil kernel", err)
	_, err = FitNystrom(g, nil, []int{1}, 0)
	wantError(t, "nil X", err)
	_, err = FitNystrom(g, (*mat.Dense)(nil), []int{1}, 0)
	wantError(t, "typed nil X", err)
	_, err = FitNystrom(g, x, nil, 0)
	wantError(t, "no landmarks", err)
	_, err = FitNystrom(g, x, []int{1, 10}, 0)
	wantError(t, "landmark out of range", err)
	_, err = FitNystrom(g, x, []int{1, -1}, 0)
	wantError(t, "negative landmark", err)
	_, err = FitNystrom(g, x, []int{1, 1}, 0)
	wantError(t, "repeated landmark", err)
	_, err = FitNystrom(g, x, []int{1, 2}, 3)
	wantError(t, "rank above the landmark count", err)
	_, err = FitNystrom(g, x, []int{1, 2}, -1)
	wantError(t, "negative rank", err)
	bad := mat.DenseCopyOf(x)
	bad.Set(4, 1, math.NaN())
	_, err = FitNystrom(g, bad, []int{1, 2}, 0)
	wantError(t, "NaN in X", err)
	_, err = FitNystrom(kernel.Gaussian{Sigma: -1}, x, []int{1, 2}, 0)
	wantError(t, "invalid kernel", err)
	_, err = FitNystrom(kernel.Linear{}, mat.NewDense(2, 2, nil), []int{0, 1}, 0)
	wantError(t, "zero kernel matrix", err)
	for _, cutoff := range []float64{-1, 1, math.NaN()} {
		err = (&Nystrom{Kernel: g, Cutoff: cutoff}).Fit(x, []int{1})
		wantError(t, "cutoff out of range", err)
	}

	m, err := FitNystrom(g, x, []int{1, 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Transform(randomPoints(8, 3, 3))
	wantError(t, "mismatched columns", err)
	_, err = m.Transform(bad)
	wantError(t, "NaN in new points", err)
	wantError(t, "wrong dst shape", m.TransformInto(mat.NewDense(10, 3, nil), x))
	wantError(t, "nil dst", m.TransformInto(nil, x))
	_, err = (&Nystrom{Kernel: g}).Transform(x)
	wantError(t, "Transform before Fit", err)
}

// TestNystromTransformAcrossBlocks maps n = 2000 points with s = 300 landmarks, so in three row
// blocks of nystromBlockRows(2000, 300) = 873 rows: every row matches k(x, S)·V_kΣ_k^{-1/2} by
// plain loops, and the features are the same bit for bit with one goroutine or four.
func TestNystromTransformAcrossBlocks(t *testing.T) {
	const n, s, sigma = 2000, 300, 0.8
	if got := nystromBlockRows(n, s); got != 873 {
		t.Fatalf("nystromBlockRows(%d, %d) = %d, the test wants 873 (three blocks)", n, s, got)
	}
	x := randomPoints(31, n, 3)
	landmarks := make([]int, s)
	for i := range landmarks {
		landmarks[i] = 5 * i
	}
	m, err := FitNystrom(gaussianFor(t, sigma), x, landmarks, 40)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	phi, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	cross := bruteCross(x, gatherRows(x, landmarks), func(a, b []float64) float64 { return bruteGaussian(a, b, sigma) })
	var want mat.Dense
	want.Mul(cross, m.normalization)
	assertClose(t, "Φ against k(X, S)·V_kΣ_k^{-1/2}", phi, &want, 1e-12)
	runtime.GOMAXPROCS(1)
	single, err := m.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(single, phi) {
		t.Error("Transform differs between GOMAXPROCS = 4 and 1")
	}
}
