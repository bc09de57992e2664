package factor

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRandomizedSVDExactForLowRank: for A of rank k the sketch spans the range exactly, so the
// values and the product UΣVᵀ are those of A up to rounding, with no power iteration.
func TestRandomizedSVDExactForLowRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	values := []float64{9, 4, 2, 1, 0.5}
	a := withSpectrum(rng, 200, 80, values)
	for _, p := range []int{0, 5} {
		got, err := RandomizedSVD(rand.New(rand.NewPCG(5, 6)), a, len(values), RandomizedSVDOptions{Oversample: p})
		if err != nil {
			t.Fatal(err)
		}
		for j, s := range values {
			if math.Abs(got.Values[j]-s) > 1e-12 {
				t.Fatalf("p = %d: σ_%d = %.15g, want %g", p, j+1, got.Values[j], s)
			}
		}
		var diff mat.Dense
		diff.Sub(got.reconstruct(), a)
		if e := spectralNorm(t, &diff); e > 1e-12 {
			t.Fatalf("p = %d: ‖A − UΣVᵀ‖₂ = %g for a rank-5 A", p, e)
		}
	}
}

// TestRandomizedSVDErrorBound checks HMT's bound on a matrix with a slowly decaying known
// spectrum σ_i = 1/i: the error lies between σ_{k+1} (Eckart–Young: no rank-k matrix does
// better) and [1 + 4√(k+p)/(p−1)·√min(m,n)]^{1/(2q+1)}·σ_{k+1} (HMT eq. 1.11, in expectation;
// a larger error is exponentially unlikely), and power iterations reduce it.
func TestRandomizedSVDErrorBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const m, n, k, p = 300, 150, 10, 10
	values := make([]float64, n)
	for i := range values {
		values[i] = 1 / float64(i+1)
	}
	a := withSpectrum(rng, m, n, values)
	next := values[k]
	var previous float64 = math.Inf(1)
	for _, q := range []int{0, 1, 3} {
		got, err := RandomizedSVD(rand.New(rand.NewPCG(9, 10)), a, k, RandomizedSVDOptions{Oversample: p, PowerIterations: q})
		if err != nil {
			t.Fatal(err)
		}
		var diff mat.Dense
		diff.Sub(a, got.reconstruct())
		e := spectralNorm(t, &diff)
		bound := math.Pow(1+4*math.Sqrt(k+p)/(p-1)*math.Sqrt(n), 1/float64(2*q+1)) * next
		if e < next*(1-1e-12) || e > bound {
			t.Fatalf("q = %d: error %g outside [σ_{k+1}, HMT bound] = [%g, %g]", q, e, next, bound)
		}
		if e >= previous {
			t.Fatalf("q = %d: error %g not below %g with fewer iterations", q, e, previous)
		}
		previous = e
		t.Logf("q = %d: ‖A − UΣVᵀ‖₂ = %.4f·σ_{k+1} (bound %.2f·σ_{k+1})", q, e/next, bound/next)
	}
}

// TestRandomizedSVDDenseSparseDeterministic: the dense and CSR paths give the same factorisation
// (to rounding: their products sum in different orders), and a seed gives bit-identical results
// whatever GOMAXPROCS.
func TestRandomizedSVDDenseSparseDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	d := randomSparse(rng, 700, 300, 0.02)
	s := sparseOf(t, d)
	opts := RandomizedSVDOptions{Oversample: 10, PowerIterations: 2}
	run := func(a mat.Matrix) *SVD {
		res, err := RandomizedSVD(rand.New(rand.NewPCG(15, 16)), a, 8, opts)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	dense, sparse := run(d), run(s)
	if !mat.EqualApprox(dense.U, sparse.U, 1e-9) || !mat.EqualApprox(dense.V, sparse.V, 1e-9) ||
		!mat.EqualApprox(mat.NewVecDense(8, dense.Values), mat.NewVecDense(8, sparse.Values), 1e-12) {
		t.Fatal("dense and CSR inputs give different factorisations")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := run(s)
	runtime.GOMAXPROCS(4)
	four := run(s)
	if !mat.Equal(one.U, four.U) || !mat.Equal(one.V, four.V) || !mat.Equal(one.U, sparse.U) {
		t.Fatal("results depend on GOMAXPROCS")
	}
}

func TestRandomizedSVDRejectsBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	for _, c := range []struct {
		name string
		a    mat.Matrix
		k    int
		opts RandomizedSVDOptions
		rng  *rand.Rand
		want string
	}{
		{"empty", &mat.Dense{}, 1, RandomizedSVDOptions{}, rng, "empty"},
		{"Inf", mat.NewDense(1, 2, []float64{math.Inf(1), 0}), 1, RandomizedSVDOptions{}, rng, "+Inf"},
		{"k too large", a, 3, RandomizedSVDOptions{}, rng, "k = 3"},
		{"negative oversample", a, 1, RandomizedSVDOptions{Oversample: -1}, rng, "Oversample = -1"},
		{"negative iterations", a, 1, RandomizedSVDOptions{PowerIterations: -2}, rng, "PowerIterations = -2"},
		{"nil rng", a, 1, RandomizedSVDOptions{}, nil, "rng is nil"},
		{"overflow", mat.NewDense(2, 2, []float64{1.7e308, 1.7e308, 1.7e308, 1.7e308}), 1, RandomizedSVDOptions{PowerIterations: 1}, rng, "overflow"},
	} {
		if _, err := RandomizedSVD(c.rng, c.a, c.k, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestOrthonormalize: on well-conditioned (CholeskyQR2), ill-conditioned and rank-deficient
// (Householder) blocks the result has orthonormal columns whose span contains that of the input,
// for one block of rows and for several (5000 rows: CholeskyQR's Gram matrix and triangular solve
// in three blocks of orthoBlock rows).
func TestOrthonormalize(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for _, c := range []struct {
		rows   int
		values []float64
	}{
		{400, []float64{3, 2, 1, 0.5, 0.1}},
		{400, []float64{1, 1e-3, 1e-6, 1e-9, 1e-12}},
		{400, []float64{2, 1, 0, 0, 0}},
		{5000, []float64{3, 2, 1, 0.5, 0.1}},
	} {
		values := c.values
		y := withSpectrum(rng, c.rows, 5, values)
		q := mat.DenseCopyOf(y)
		orthonormalize(q)
		var qtq mat.Dense
		qtq.Mul(q.T(), q)
		for i := range 5 {
			qtq.Set(i, i, qtq.At(i, i)-1)
		}
		if e := mat.Norm(&qtq, 2); e > 1e-13 {
			t.Fatalf("σ(Y) = %v: ‖QᵀQ − I‖ = %g", values, e)
		}
		var qty, res mat.Dense
		qty.Mul(q.T(), y)
		res.Mul(q, &qty)
		res.Sub(y, &res)
		if e := mat.Norm(&res, 2); e > 1e-13*values[0] {
			t.Fatalf("σ(Y) = %v: ‖(I − QQᵀ)Y‖ = %g", values, e)
		}
	}
}
