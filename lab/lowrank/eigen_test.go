package lowrank

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checkEigen verifies A·V = V·Λ, VᵀV = I and decreasing values, to tol·max(1, ||A||_F).
func checkEigen(t *testing.T, name string, a mat.Symmetric, values []float64, vectors *mat.Dense, tol float64) {
	t.Helper()
	n := a.SymmetricDim()
	scale := max(1, mat.Norm(a, 2))
	var av, vl, vtv mat.Dense
	av.Mul(a, vectors)
	vl.Mul(vectors, mat.NewDiagDense(n, values))
	vl.Sub(&av, &vl)
	if e := mat.Norm(&vl, 2); e > tol*scale {
		t.Errorf("%s: ||AV − VΛ||_F = %g", name, e)
	}
	vtv.Mul(vectors.T(), vectors)
	for i := range n {
		vtv.Set(i, i, vtv.At(i, i)-1)
	}
	if e := mat.Norm(&vtv, 2); e > tol*math.Sqrt(float64(n)) {
		t.Errorf("%s: ||VᵀV − I||_F = %g", name, e)
	}
	for i := 1; i < n; i++ {
		if values[i] > values[i-1] {
			t.Fatalf("%s: values not decreasing at %d: %v", name, i, values)
		}
	}
}

func TestEigenDescendingKnownSpectra(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []float64
	}{
		{"one", []float64{-2.5}},
		{"two", []float64{3, 1}},
		{"repeated and zero", []float64{4, 4, 4, 1, 0, 0, -1, -1}},
		{"graded", []float64{1, 1e-3, 1e-6, 1e-9, 1e-12, 1e-15, 0}},
	} {
		a := withSpectrum(71, c.values)
		values, vectors, err := eigenDescending(a)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range c.values {
			if math.Abs(values[i]-v) > 1e-14*max(1, math.Abs(c.values[0])) {
				t.Errorf("%s: eigenvalue %d = %.17g, want %g", c.name, i, values[i], v)
			}
		}
		checkEigen(t, c.name, a, values, vectors, 1e-14)
	}
}

// A diagonal matrix (already tridiagonal, nothing to iterate), the zero matrix, and a random
// Gram matrix against gonum's EigenSym (an independent implementation: LAPACK's Dsteqr).
func TestEigenDescendingAgainstGonum(t *testing.T) {
	diag := mat.NewSymDense(4, []float64{1, 0, 0, 0, 0, 3, 0, 0, 0, 0, -2, 0, 0, 0, 0, 3})
	x := randomPoints(72, 150, 3)
	var gram mat.SymDense
	gram.SymOuterK(1, x)
	rng := rand.New(rand.NewPCG(1, 1))
	noise := mat.NewSymDense(150, nil)
	for i := range 150 {
		for j := i; j < 150; j++ {
			noise.SetSym(i, j, rng.NormFloat64())
		}
	}
	for _, c := range []struct {
		name string
		a    mat.Symmetric
	}{{"diagonal", diag}, {"zero", mat.NewSymDense(5, nil)}, {"rank-3 Gram", &gram}, {"random symmetric", noise}} {
		values, vectors, err := eigenDescending(c.a)
		if err != nil {
			t.Fatal(err)
		}
		var ref mat.EigenSym
		if !ref.Factorize(c.a, false) {
			t.Fatal("gonum EigenSym failed")
		}
		want := ref.Values(nil)
		n := len(want)
		for i := range n {
			if math.Abs(values[i]-want[n-1-i]) > 1e-12*max(1, math.Abs(want[n-1])) {
				t.Errorf("%s: eigenvalue %d = %.17g, gonum %.17g", c.name, i, values[i], want[n-1-i])
			}
		}
		checkEigen(t, c.name, c.a, values, vectors, 1e-13)
	}
}

func BenchmarkEigenDescending500(b *testing.B) {
	x := randomPoints(73, 500, 54)
	k, err := gaussianKernelForBench()
	if err != nil {
		b.Fatal(err)
	}
	w := bruteSymmetric(x, k)
	b.ResetTimer()
	for range b.N {
		if _, _, err := eigenDescending(w); err != nil {
			b.Fatal(err)
		}
	}
}
