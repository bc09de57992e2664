package blocked

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// randomGeneral returns an r×c matrix with seeded entries in [−1, 1) and a row stride c + 3, so
// that views with a stride wider than their columns are exercised.
func randomGeneral(rng *rand.Rand, r, c int) blas64.General {
	g := blas64.General{Rows: r, Cols: c, Stride: c + 3, Data: make([]float64, r*(c+3))}
	for i := range g.Data {
		g.Data[i] = 2*rng.Float64() - 1
	}
	return g
}

// SyrkUpper, by GEMM recursion (the pure-Go route) and by single BLAS calls (the OpenBLAS route),
// against the product written out element by element, for several α, β and orders (one piece,
// several pieces, a recursion split unevenly); the lower triangle stays untouched.
func TestSyrkUpperMatchesBruteForce(t *testing.T) {
	saved := syrkByGEMM
	defer func() { syrkByGEMM = saved }()
	rng := rand.New(rand.NewPCG(4, 4))
	for _, byGEMM := range []bool{true, false} {
		syrkByGEMM = byGEMM
		for _, tc := range []struct {
			n, m        int
			alpha, beta float64
		}{{5, 3, 1, 0}, {2*baseOrder + 37, 45, -1, 1}, {700, 20, 0.5, -2}} {
			c := randomGeneral(rng, tc.n, tc.n)
			orig := append([]float64(nil), c.Data...)
			b := randomGeneral(rng, tc.m, tc.n)
			SyrkUpper(tc.alpha, b, tc.beta, blas64.Symmetric{Uplo: blas.Upper, N: tc.n, Stride: c.Stride, Data: c.Data})
			for i := range tc.n {
				for j := range tc.n {
					want := orig[i*c.Stride+j]
					if j >= i {
						var s float64
						for l := range tc.m {
							s += b.Data[l*b.Stride+i] * b.Data[l*b.Stride+j]
						}
						want = tc.alpha*s + tc.beta*want
					}
					if got := c.Data[i*c.Stride+j]; math.Abs(got-want) > 1e-12 {
						t.Fatalf("byGEMM=%v n=%d: [%d,%d] = %.15g, want %.15g (lower triangle untouched)", byGEMM, tc.n, i, j, got, want)
					}
				}
			}
		}
	}
}

// The pieces of a split cover [0, n) in order, start at multiples of Align, and those of the
// triangle have about equal areas.
func TestPiecesCoverAndBalance(t *testing.T) {
	for _, n := range []int{1, 127, 128, 300, 743, 2440, 5000} {
		parts := Pieces(n)
		if parts < 1 || parts&(parts-1) != 0 || (n >= 2*Align) != (parts >= 2) {
			t.Fatalf("Pieces(%d) = %d, want a power of two, ≥ 2 from %d on", n, parts, 2*Align)
		}
		for _, piece := range []func(n, parts, p int) int{Even, Triangle} {
			if piece(n, parts, 0) != 0 || piece(n, parts, parts) != n {
				t.Fatalf("n=%d: pieces do not start at 0 and end at n", n)
			}
			for p := 1; p < parts; p++ {
				if lo, hi := piece(n, parts, p-1), piece(n, parts, p); hi < lo || hi%Align != 0 {
					t.Fatalf("n=%d: piece %d starts at %d after %d", n, p, hi, lo)
				}
			}
		}
		for p := range parts {
			lo, hi := Triangle(n, parts, p), Triangle(n, parts, p+1)
			area := float64(hi-lo) * (float64(n) - float64(lo+hi)/2)
			if share := area / (float64(n) * float64(n) / 2); parts > 1 && n >= 2000 && math.Abs(share-1/float64(parts)) > 0.05 {
				t.Errorf("n=%d: triangle piece %d holds %.3f of the area, want about %.3f", n, p, share, 1/float64(parts))
			}
		}
	}
}
