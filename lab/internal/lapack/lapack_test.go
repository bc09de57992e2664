package lapack

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEigenSym checks a 2×2 matrix by hand ([[2 1] [1 2]]: eigenvalues 1 and 3, eigenvectors
// (1, −1)/√2 and (1, 1)/√2) and a random 40×40 one through A·v = λ·v and VᵀV = I; the lower
// triangles hold NaN, which must not be read.
func TestEigenSym(t *testing.T) {
	if !Available {
		if err := EigenSym(2, make([]float64, 4), make([]float64, 2)); err == nil {
			t.Fatal("EigenSym without LAPACK: got no error")
		}
		t.Skip("no LAPACK in this build")
	}
	a := []float64{2, 1, math.NaN(), 2}
	values := make([]float64, 2)
	if err := EigenSym(2, a, values); err != nil {
		t.Fatal(err)
	}
	if math.Abs(values[0]-1) > 1e-15 || math.Abs(values[1]-3) > 1e-15 {
		t.Fatalf("eigenvalues %v, want [1 3]", values)
	}
	h := 1 / math.Sqrt2
	if math.Abs(math.Abs(a[0])-h) > 1e-15 || math.Abs(a[0]+a[1]) > 1e-15 || math.Abs(a[2]-a[3]) > 1e-15 {
		t.Fatalf("eigenvectors %v, want ±(1, −1)/√2 then ±(1, 1)/√2", a)
	}

	const n = 40
	rng := rand.New(rand.NewPCG(3, 4))
	full := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			full[i*n+j] = rng.NormFloat64()
			full[j*n+i] = full[i*n+j]
		}
	}
	a = make([]float64, n*n)
	for i := range n {
		for j := range n {
			a[i*n+j] = full[i*n+j]
			if j < i {
				a[i*n+j] = math.NaN()
			}
		}
	}
	values = make([]float64, n)
	if err := EigenSym(n, a, values); err != nil {
		t.Fatal(err)
	}
	for j := range n {
		if j > 0 && values[j] < values[j-1] {
			t.Fatalf("eigenvalues not increasing at %d: %v", j, values)
		}
		v := a[j*n : j*n+n]
		for i := range n {
			var av float64
			for l := range n {
				av += full[i*n+l] * v[l]
			}
			if math.Abs(av-values[j]*v[i]) > 1e-12 {
				t.Fatalf("(A·v_%d)[%d] = %g, λ·v = %g", j, i, av, values[j]*v[i])
			}
		}
		for k := range n {
			var dot float64
			for l := range n {
				dot += v[l] * a[k*n+l]
			}
			want := 0.0
			if k == j {
				want = 1
			}
			if math.Abs(dot-want) > 1e-13 {
				t.Fatalf("v_%d·v_%d = %g, want %g", j, k, dot, want)
			}
		}
	}
}

// TestEigenValuesSym checks the eigenvalue-only route against closed forms: [[2 1] [1 2]] has
// eigenvalues 1 and 3; for a random symmetric 60×60 matrix the eigenvalues sum to the trace and
// their squares to ||A||²_F, and they equal EigenSym's. The lower triangles hold NaN, never read.
func TestEigenValuesSym(t *testing.T) {
	if !Available {
		if err := EigenValuesSym(2, make([]float64, 4), make([]float64, 2)); err == nil {
			t.Fatal("EigenValuesSym without LAPACK: got no error")
		}
		t.Skip("no LAPACK in this build")
	}
	values := make([]float64, 2)
	if err := EigenValuesSym(2, []float64{2, 1, math.NaN(), 2}, values); err != nil {
		t.Fatal(err)
	}
	if math.Abs(values[0]-1) > 1e-15 || math.Abs(values[1]-3) > 1e-15 {
		t.Fatalf("eigenvalues %v, want [1 3]", values)
	}

	const n = 60
	upper := func() ([]float64, float64, float64) {
		a := make([]float64, n*n)
		var trace, frob2 float64
		r := rand.New(rand.NewPCG(5, 6))
		for i := range n {
			for j := range n {
				a[i*n+j] = math.NaN()
			}
			for j := i; j < n; j++ {
				v := r.NormFloat64()
				a[i*n+j] = v
				if i == j {
					trace += v
					frob2 += v * v
				} else {
					frob2 += 2 * v * v
				}
			}
		}
		return a, trace, frob2
	}
	a, trace, frob2 := upper()
	values = make([]float64, n)
	if err := EigenValuesSym(n, a, values); err != nil {
		t.Fatal(err)
	}
	var sum, sum2 float64
	for j, v := range values {
		if j > 0 && v < values[j-1] {
			t.Fatalf("eigenvalues not increasing at %d: %v", j, values)
		}
		sum += v
		sum2 += v * v
	}
	if math.Abs(sum-trace) > 1e-12*float64(n) || math.Abs(sum2-frob2) > 1e-11*frob2 {
		t.Fatalf("Σλ = %g, trace %g; Σλ² = %g, ||A||²_F = %g", sum, trace, sum2, frob2)
	}
	b, _, _ := upper()
	withVectors := make([]float64, n)
	if err := EigenSym(n, b, withVectors); err != nil {
		t.Fatal(err)
	}
	for j := range n {
		if math.Abs(values[j]-withVectors[j]) > 1e-12 {
			t.Fatalf("λ_%d = %g without vectors, %g with them", j, values[j], withVectors[j])
		}
	}
}
