package lapack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSVD checks a 3×2 matrix whose singular values are read off (diag(3, 1) over a zero row) and
// random tall, wide and one-row ones through A = U·diag(s)·Vᵀ, UᵀU = I and VVᵀ = I.
func TestSVD(t *testing.T) {
	if !Available {
		if err := SVD(1, 1, []float64{1}, make([]float64, 1), make([]float64, 1), make([]float64, 1)); err == nil {
			t.Fatal("SVD without LAPACK: got no error")
		}
		t.Skip("no LAPACK in this build")
	}
	// diag(3, 1) padded with a zero row: singular values 3 and 1.
	s := make([]float64, 2)
	if err := SVD(3, 2, []float64{3, 0, 0, 1, 0, 0}, s, make([]float64, 6), make([]float64, 4)); err != nil {
		t.Fatal(err)
	}
	if math.Abs(s[0]-3) > 1e-15 || math.Abs(s[1]-1) > 1e-15 {
		t.Fatalf("singular values %v, want [3 1]", s)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, shape := range [][2]int{{30, 12}, {12, 30}, {1, 5}} {
		m, n := shape[0], shape[1]
		p := min(m, n)
		a := make([]float64, m*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		work := append([]float64(nil), a...)
		s, u, vt := make([]float64, p), make([]float64, m*p), make([]float64, p*n)
		if err := SVD(m, n, work, s, u, vt); err != nil {
			t.Fatal(err)
		}
		for i := range m {
			for j := range n {
				var r float64
				for l := range p {
					r += u[i*p+l] * s[l] * vt[l*n+j]
				}
				if math.Abs(r-a[i*n+j]) > 1e-12 {
					t.Fatalf("%d×%d: (U·S·Vᵀ)[%d,%d] = %g, A = %g", m, n, i, j, r, a[i*n+j])
				}
			}
		}
		for l := 1; l < p; l++ {
			if s[l] > s[l-1] {
				t.Fatalf("%d×%d: singular values not decreasing: %v", m, n, s)
			}
		}
		checkOrthonormal(t, fmt.Sprintf("%d×%d", m, n), m, n, p, u, vt, 1e-13)
	}
}

// TestSVDLeading compares dgesvdx's k leading triplets with dgesdd's singular values (to 10⁻¹³
// of σ₁) and checks what makes them singular triplets whatever the basis LAPACK picks inside a
// repeated singular value: UᵀU = VᵀV = I and A·v_j = σ_j·u_j, Aᵀ·u_j = σ_j·v_j (to 10⁻¹² of σ₁).
// The matrices: Gaussian tall and wide ones, one whose spectrum repeats values exactly
// (5, 5, 5, 2, 2, 1, …), one of rank 3 asked for 5 (two zero values), and k = 1 and k = p.
func TestSVDLeading(t *testing.T) {
	if !Available {
		if err := SVDLeading(1, 1, 1, []float64{1}, make([]float64, 1), make([]float64, 1), make([]float64, 1)); err == nil {
			t.Fatal("SVDLeading without LAPACK: got no error")
		}
		t.Skip("no LAPACK in this build")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	gaussian := func(m, n int) []float64 {
		a := make([]float64, m*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		return a
	}
	withValues := func(m, n int, values []float64) []float64 {
		u, v := orthonormalColumns(rng, m, len(values)), orthonormalColumns(rng, n, len(values))
		a := make([]float64, m*n)
		for i := range m {
			for j := range n {
				for l, s := range values {
					a[i*n+j] += u[l][i] * s * v[l][j]
				}
			}
		}
		return a
	}
	repeated := []float64{5, 5, 5, 2, 2, 1, 0.5, 0.5, 0.25, 0.1}
	cases := []struct {
		name    string
		m, n, k int
		a       []float64
	}{
		{"gaussian tall", 60, 25, 6, gaussian(60, 25)},
		{"gaussian wide", 25, 60, 6, gaussian(25, 60)},
		{"repeated values", 40, 30, 5, withValues(40, 30, repeated)},
		{"rank 3, k = 5", 30, 20, 5, withValues(30, 20, []float64{4, 3, 1})},
		{"k = 1", 20, 15, 1, gaussian(20, 15)},
		{"k = p", 12, 9, 9, gaussian(12, 9)},
	}
	for _, c := range cases {
		m, n, k, p := c.m, c.n, c.k, min(c.m, c.n)
		ref := make([]float64, p)
		if err := SVD(m, n, append([]float64(nil), c.a...), ref, make([]float64, m*p), make([]float64, p*n)); err != nil {
			t.Fatal(err)
		}
		s, u, vt := make([]float64, k), make([]float64, m*k), make([]float64, k*n)
		if err := SVDLeading(m, n, k, append([]float64(nil), c.a...), s, u, vt); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		tol := 1e-12 * ref[0]
		for l := range k {
			if math.Abs(s[l]-ref[l]) > 1e-13*ref[0] {
				t.Fatalf("%s: σ_%d = %.17g, dgesdd's %.17g", c.name, l+1, s[l], ref[l])
			}
			for i := range m { // (A·v_l)_i = σ_l·u_il
				var r float64
				for j := range n {
					r += c.a[i*n+j] * vt[l*n+j]
				}
				if math.Abs(r-s[l]*u[i*k+l]) > tol {
					t.Fatalf("%s: (A·v_%d)_%d = %g, σ·u = %g", c.name, l+1, i, r, s[l]*u[i*k+l])
				}
			}
			for j := range n { // (Aᵀ·u_l)_j = σ_l·v_jl
				var r float64
				for i := range m {
					r += c.a[i*n+j] * u[i*k+l]
				}
				if math.Abs(r-s[l]*vt[l*n+j]) > tol {
					t.Fatalf("%s: (Aᵀ·u_%d)_%d = %g, σ·v = %g", c.name, l+1, j, r, s[l]*vt[l*n+j])
				}
			}
		}
		checkOrthonormal(t, c.name, m, n, k, u, vt, 1e-12)
	}
}

// checkOrthonormal fails unless the k columns of U (m×k, row-major) and the k rows of Vᵀ (k×n,
// row-major) are orthonormal to tol.
func checkOrthonormal(t *testing.T, name string, m, n, k int, u, vt []float64, tol float64) {
	t.Helper()
	for l := range k {
		for o := range k {
			var uu, vv float64
			for i := range m {
				uu += u[i*k+l] * u[i*k+o]
			}
			for j := range n {
				vv += vt[l*n+j] * vt[o*n+j]
			}
			want := 0.0
			if o == l {
				want = 1
			}
			if math.Abs(uu-want) > tol || math.Abs(vv-want) > tol {
				t.Fatalf("%s: u_%d·u_%d = %g, v_%d·v_%d = %g, want %g", name, l+1, o+1, uu, l+1, o+1, vv, want)
			}
		}
	}
}

// orthonormalColumns returns the first c columns of the r×r Householder reflector I − 2wwᵀ/‖w‖²
// for a Gaussian w: orthonormal, and built without any factorisation.
func orthonormalColumns(rng *rand.Rand, r, c int) [][]float64 {
	w := make([]float64, r)
	var norm2 float64
	for i := range w {
		w[i] = rng.NormFloat64()
		norm2 += w[i] * w[i]
	}
	cols := make([][]float64, c)
	for l := range cols {
		cols[l] = make([]float64, r)
		for i := range r {
			cols[l][i] = -2 * w[i] * w[l] / norm2
		}
		cols[l][l]++
	}
	return cols
}
