package factor

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
)

// withSpectrum returns an m×n matrix U·diag(values)·Vᵀ with random orthonormal U and V, whose
// singular values are therefore known exactly.
func withSpectrum(rng *rand.Rand, m, n int, values []float64) *mat.Dense {
	k := len(values)
	u := mat.NewDense(m, k, nil)
	v := mat.NewDense(n, k, nil)
	fillGaussian(rng, u)
	fillGaussian(rng, v)
	orthonormalize(u)
	orthonormalize(v)
	for j, s := range values {
		col := u.ColView(j).(*mat.VecDense)
		col.ScaleVec(s, col)
	}
	var a mat.Dense
	a.Mul(u, v.T())
	return &a
}

// sparseOf returns the CSR form of d (its non-zero entries).
func sparseOf(t testing.TB, d *mat.Dense) *csr.Matrix {
	t.Helper()
	r, c := d.Dims()
	var is, js []int
	var vs []float64
	for i := range r {
		for j, v := range d.RawRowView(i) {
			if v != 0 {
				is, js, vs = append(is, i), append(js, j), append(vs, v)
			}
		}
	}
	s, err := csr.FromTriplets(r, c, is, js, vs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// randomSparse returns an m×n dense matrix with about density·m·n standard normal entries.
func randomSparse(rng *rand.Rand, m, n int, density float64) *mat.Dense {
	d := mat.NewDense(m, n, nil)
	for i := range m {
		row := d.RawRowView(i)
		for j := range row {
			if rng.Float64() < density {
				row[j] = rng.NormFloat64()
			}
		}
	}
	return d
}

// spectralNorm returns the largest singular value of a, by gonum's full SVD.
func spectralNorm(t testing.TB, a mat.Matrix) float64 {
	t.Helper()
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDNone) {
		t.Fatal("reference SVD did not converge")
	}
	return svd.Values(nil)[0]
}

// subspaceGap returns ‖(I − PPᵀ)Q‖₂, the sine of the largest principal angle between the spans
// of the orthonormal columns of p and q (0 when span q ⊆ span p).
func subspaceGap(t testing.TB, p, q *mat.Dense) float64 {
	t.Helper()
	var ptq, proj, res mat.Dense
	ptq.Mul(p.T(), q)
	proj.Mul(p, &ptq)
	res.Sub(q, &proj)
	return spectralNorm(t, &res)
}

// reconstruct returns U·diag(values)·Vᵀ.
func (s *SVD) reconstruct() *mat.Dense {
	us := mat.DenseCopyOf(s.U)
	for j, v := range s.Values {
		col := us.ColView(j).(*mat.VecDense)
		col.ScaleVec(v, col)
	}
	var a mat.Dense
	a.Mul(us, s.V.T())
	return &a
}

// TestOperatorProducts compares the dense and sparse products of the operator with gonum's
// plain products, on a matrix with more rows and columns than one block of denseBlock.
func TestOperatorProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	d := randomSparse(rng, 600, 300, 0.05)
	b := mat.NewDense(300, 3, nil)
	c := mat.NewDense(600, 3, nil)
	fillGaussian(rng, b)
	fillGaussian(rng, c)
	var want, wantT mat.Dense
	want.Mul(d, b)
	wantT.Mul(d.T(), c)
	for _, a := range []mat.Matrix{d, sparseOf(t, d)} {
		o, err := newOperator("test", "A", a)
		if err != nil {
			t.Fatal(err)
		}
		got, gotT := mat.NewDense(600, 3, nil), mat.NewDense(300, 3, nil)
		if err := o.mul(got, b); err != nil {
			t.Fatal(err)
		}
		if err := o.mulT(gotT, c); err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(got, &want, 1e-12) || !mat.EqualApprox(gotT, &wantT, 1e-12) {
			t.Fatalf("%T: products differ from gonum's", a)
		}
		mean, centred := o.columnStats()
		var wantCentred float64
		for j := range 300 {
			col := mat.Col(nil, j, d)
			var mu float64
			for _, v := range col {
				mu += v / 600
			}
			if math.Abs(mean[j]-mu) > 1e-15 {
				t.Fatalf("%T: mean[%d] = %g, want %g", a, j, mean[j], mu)
			}
			for _, v := range col {
				wantCentred += (v - mu) * (v - mu)
			}
		}
		if math.Abs(centred-wantCentred) > 1e-10*wantCentred {
			t.Fatalf("%T: centred sum of squares %g, want %g", a, centred, wantCentred)
		}
	}
}

// TestDenseAndSparsePathsAgree fits sparse PCA (with a penalty) and PPCA to the same data given
// dense and as CSR, with the same seed: the factorisations agree to rounding (the products sum in
// different orders).
func TestDenseAndSparsePathsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	d := randomSparse(rng, 500, 120, 0.03)
	s := sparseOf(t, d)
	var fits [2]*SparsePCA
	var models [2]*PPCA
	for i, a := range []mat.Matrix{d, s} {
		var err error
		if fits[i], err = FitSparsePCA(rand.New(rand.NewPCG(53, 54)), a, 5, SparsePCAOptions{Penalty: 0.2, Iterations: 10}); err != nil {
			t.Fatal(err)
		}
		if models[i], err = FitPPCA(rand.New(rand.NewPCG(55, 56)), a, 5, 30); err != nil {
			t.Fatal(err)
		}
	}
	if !mat.EqualApprox(fits[0].U, fits[1].U, 1e-9) || !mat.EqualApprox(fits[0].V, fits[1].V, 1e-9) {
		t.Fatal("sparse PCA: dense and CSR inputs give different factors")
	}
	ll0, ll1 := models[0].LogLikelihood, models[1].LogLikelihood
	if !mat.EqualApprox(models[0].W, models[1].W, 1e-9) || math.Abs(models[0].Sigma2-models[1].Sigma2) > 1e-12 ||
		math.Abs(ll0[len(ll0)-1]-ll1[len(ll1)-1]) > 1e-9*math.Abs(ll0[len(ll0)-1]) {
		t.Fatal("PPCA: dense and CSR inputs give different models")
	}
}
