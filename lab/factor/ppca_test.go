package factor

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ppcaData returns n rows of x = μ + L·z with z standard normal, whose covariance L·Lᵀ has
// eigenvalues near {9, 4, 1, 1, 1, 1}: a clear gap after the second.
func ppcaData(rng *rand.Rand, n int) *mat.Dense {
	scales := []float64{3, 2, 1, 1, 1, 1}
	basis := mat.NewDense(6, 6, nil)
	fillGaussian(rng, basis)
	orthonormalize(basis)
	x := mat.NewDense(n, 6, nil)
	z := make([]float64, 6)
	for i := range n {
		for j := range z {
			z[j] = scales[j] * rng.NormFloat64()
		}
		row := x.RawRowView(i)
		for j := range row {
			row[j] = 5 - float64(j) + mat.Dot(basis.RowView(j), mat.NewVecDense(6, z))
		}
	}
	return x
}

// TestPPCAConvergesToClosedForm compares EM with Tipping and Bishop's closed-form maximum-
// likelihood solution from the eigendecomposition of the sample covariance S: WWᵀ =
// U_q(Λ_q − σ²I)U_qᵀ (W itself is defined up to a rotation), σ² the mean of the discarded
// eigenvalues, and the maximal log-likelihood −N/2·(d ln 2π + Σ_{j≤q} ln λ_j + (d−q) ln σ² + d).
// The log-likelihood must never decrease along the way.
func TestPPCAConvergesToClosedForm(t *testing.T) {
	const n, d, q = 400, 6, 2
	x := ppcaData(rand.New(rand.NewPCG(41, 42)), n)
	fit, err := FitPPCA(rand.New(rand.NewPCG(43, 44)), x, q, 400)
	if err != nil {
		t.Fatal(err)
	}
	centred := mat.DenseCopyOf(x)
	for j := range d {
		col := centred.ColView(j).(*mat.VecDense)
		mean := mat.Sum(col) / n
		if math.Abs(fit.Mean[j]-mean) > 1e-12 {
			t.Fatalf("mean[%d] = %g, want %g", j, fit.Mean[j], mean)
		}
		for i := range n {
			col.SetVec(i, col.AtVec(i)-mean)
		}
	}
	s := mat.NewSymDense(d, nil)
	s.SymOuterK(1.0/n, centred.T())
	var eig mat.EigenSym
	if !eig.Factorize(s, true) {
		t.Fatal("reference eigendecomposition failed")
	}
	lambdas := eig.Values(nil) // increasing
	var vectors mat.Dense
	eig.VectorsTo(&vectors)
	sigma2 := 0.0
	for _, l := range lambdas[:d-q] {
		sigma2 += l / (d - q)
	}
	want := mat.NewDense(d, d, nil)
	maxLL := float64(d)*math.Log(2*math.Pi) + float64(d-q)*math.Log(sigma2) + d
	for _, j := range []int{d - 1, d - 2} {
		u := vectors.ColView(j)
		var outer mat.Dense
		outer.Outer(lambdas[j]-sigma2, u, u)
		want.Add(want, &outer)
		maxLL += math.Log(lambdas[j])
	}
	maxLL *= -0.5 * n
	var got mat.Dense
	got.Mul(fit.W, fit.W.T())
	if !mat.EqualApprox(&got, want, 1e-8) || math.Abs(fit.Sigma2-sigma2) > 1e-10 {
		t.Fatalf("EM: σ² = %.12g, WWᵀ =\n%v\nclosed form: σ² = %.12g, WWᵀ =\n%v", fit.Sigma2, mat.Formatted(&got), sigma2, mat.Formatted(want))
	}
	ll := fit.LogLikelihood
	if len(ll) != 401 || math.Abs(ll[400]-maxLL) > 1e-9*math.Abs(maxLL) {
		t.Fatalf("%d log-likelihoods ending at %.12g, want 401 ending at the maximum %.12g", len(ll), ll[len(ll)-1], maxLL)
	}
	for i := 1; i < len(ll); i++ {
		if ll[i] < ll[i-1]-1e-12*math.Abs(ll[i-1]) {
			t.Fatalf("log-likelihood fell from %.15g to %.15g at iteration %d", ll[i-1], ll[i], i)
		}
	}
	t.Logf("log-likelihood %.6g at the start, %.10g after 400 iterations (maximum %.10g)", ll[0], ll[400], maxLL)
}

// TestPPCATransform compares the posterior means with M⁻¹Wᵀ(x − μ) formed directly.
func TestPPCATransform(t *testing.T) {
	x := ppcaData(rand.New(rand.NewPCG(45, 46)), 50)
	fit, err := FitPPCA(rand.New(rand.NewPCG(47, 48)), x, 2, 20)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fit.Transform(sparseOf(t, x))
	if err != nil {
		t.Fatal(err)
	}
	var m, minv mat.Dense
	m.Mul(fit.W.T(), fit.W)
	addDiagonal(&m, fit.Sigma2)
	if err := minv.Inverse(&m); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		xc := mat.NewVecDense(6, nil)
		for j := range 6 {
			xc.SetVec(j, x.At(i, j)-fit.Mean[j])
		}
		var wx, want mat.VecDense
		wx.MulVec(fit.W.T(), xc)
		want.MulVec(&minv, &wx)
		if !mat.EqualApprox(&want, got.RowView(i), 1e-12) {
			t.Fatalf("row %d: %v, want %v", i, mat.Formatted(got.RowView(i).T()), mat.Formatted(want.T()))
		}
	}
	if _, err := fit.Transform(mat.NewDense(1, 5, nil)); err == nil || !strings.Contains(err.Error(), "fitted on 6") {
		t.Errorf("wrong width: error %v", err)
	}
	var unfitted PPCA
	if _, err := unfitted.Transform(x); err == nil {
		t.Error("unfitted model: no error")
	}
}

func TestPPCARejectsBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	for _, c := range []struct {
		name  string
		x     mat.Matrix
		q, it int
		rng   *rand.Rand
		want  string
	}{
		{"one row", mat.NewDense(1, 3, nil), 1, 1, rng, "1 row"},
		{"q = d", a, 2, 1, rng, "q = 2"},
		{"negative iterations", a, 1, -1, rng, "iterations = -1"},
		{"nil rng", a, 1, 1, nil, "rng is nil"},
		{"constant", mat.NewDense(3, 2, []float64{1, 1, 1, 1, 1, 1}), 1, 1, rng, "total variance"},
		{"NaN", mat.NewDense(2, 2, []float64{1, 2, math.NaN(), 0}), 1, 1, rng, "NaN"},
	} {
		if _, err := FitPPCA(c.rng, c.x, c.q, c.it); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}
