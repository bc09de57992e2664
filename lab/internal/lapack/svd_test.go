package lapack

import (
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
		for l := range p {
			if l > 0 && s[l] > s[l-1] {
				t.Fatalf("%d×%d: singular values not decreasing: %v", m, n, s)
			}
			for k := range p {
				var uu, vv float64
				for i := range m {
					uu += u[i*p+l] * u[i*p+k]
				}
				for j := range n {
					vv += vt[l*n+j] * vt[k*n+j]
				}
				want := 0.0
				if k == l {
					want = 1
				}
				if math.Abs(uu-want) > 1e-13 || math.Abs(vv-want) > 1e-13 {
					t.Fatalf("%d×%d: u_%d·u_%d = %g, v_%d·v_%d = %g, want %g", m, n, l, k, uu, l, k, vv, want)
				}
			}
		}
	}
}
