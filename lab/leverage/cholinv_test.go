package leverage

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

// triangularProduct and subtractGram, by GEMM recursion (the pure-Go route) and by a single BLAS
// call (the OpenBLAS route), against products written out element by element.
func TestTriangularProductAndSubtractGramMatchBruteForce(t *testing.T) {
	saved := productsByGEMM
	defer func() { productsByGEMM = saved }()
	rng := rand.New(rand.NewPCG(4, 4))
	const n, m = 2*baseOrder + 37, 45 // a triangle split twice, unevenly
	tri := randomGeneral(rng, n, n)
	upper := func(i, j int) float64 {
		if j < i {
			return 0
		}
		return tri.Data[i*tri.Stride+j]
	}
	tr := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Stride: tri.Stride, Data: tri.Data}
	for _, byGEMM := range []bool{true, false} {
		productsByGEMM = byGEMM
		for _, tc := range []struct {
			name  string
			side  blas.Side
			tA    blas.Transpose
			r, c  int
			alpha float64
			want  func(b blas64.General, i, j int) float64
		}{
			{"T·B", blas.Left, blas.NoTrans, n, m, 1, func(b blas64.General, i, j int) float64 {
				var s float64
				for l := range n {
					s += upper(i, l) * b.Data[l*b.Stride+j]
				}
				return s
			}},
			{"Tᵀ·B", blas.Left, blas.Trans, n, m, 1, func(b blas64.General, i, j int) float64 {
				var s float64
				for l := range n {
					s += upper(l, i) * b.Data[l*b.Stride+j]
				}
				return s
			}},
			{"−B·T", blas.Right, blas.NoTrans, m, n, -1, func(b blas64.General, i, j int) float64 {
				var s float64
				for l := range n {
					s -= b.Data[i*b.Stride+l] * upper(l, j)
				}
				return s
			}},
		} {
			b := randomGeneral(rng, tc.r, tc.c)
			orig := blas64.General{Rows: b.Rows, Cols: b.Cols, Stride: b.Stride, Data: append([]float64(nil), b.Data...)}
			triangularProduct(tc.side, tc.tA, tc.alpha, tr, b)
			for i := range tc.r {
				for j := range tc.c {
					if got, want := b.Data[i*b.Stride+j], tc.want(orig, i, j); math.Abs(got-want) > 1e-12 {
						t.Fatalf("byGEMM=%v %s: [%d,%d] = %.15g, want %.15g", byGEMM, tc.name, i, j, got, want)
					}
				}
			}
		}

		c := randomGeneral(rng, n, n)
		orig := append([]float64(nil), c.Data...)
		b := randomGeneral(rng, m, n)
		subtractGram(square{n: n, stride: c.Stride, data: c.Data}, b)
		for i := range n {
			for j := range n {
				want := orig[i*c.Stride+j]
				if j >= i {
					for l := range m {
						want -= b.Data[l*b.Stride+i] * b.Data[l*b.Stride+j]
					}
				}
				if got := c.Data[i*c.Stride+j]; math.Abs(got-want) > 1e-12 {
					t.Fatalf("byGEMM=%v subtractGram: [%d,%d] = %.15g, want %.15g (lower triangle untouched)", byGEMM, i, j, got, want)
				}
			}
		}
	}
}

// The pieces of a split cover [0, n) in order, start at multiples of pieceAlign, and those of the
// triangle have about equal areas.
func TestPiecesCoverAndBalance(t *testing.T) {
	for _, n := range []int{1, 127, 128, 300, 743, 2440, 5000} {
		parts := pieceCount(n)
		if parts < 1 || parts&(parts-1) != 0 || (n >= 2*pieceAlign) != (parts >= 2) {
			t.Fatalf("pieceCount(%d) = %d, want a power of two, ≥ 2 from %d on", n, parts, 2*pieceAlign)
		}
		for _, piece := range []func(n, parts, p int) int{evenPiece, trianglePiece} {
			if piece(n, parts, 0) != 0 || piece(n, parts, parts) != n {
				t.Fatalf("n=%d: pieces do not start at 0 and end at n", n)
			}
			for p := 1; p < parts; p++ {
				if lo, hi := piece(n, parts, p-1), piece(n, parts, p); hi < lo || hi%pieceAlign != 0 {
					t.Fatalf("n=%d: piece %d starts at %d after %d", n, p, hi, lo)
				}
			}
		}
		for p := range parts {
			lo, hi := trianglePiece(n, parts, p), trianglePiece(n, parts, p+1)
			area := float64(hi-lo) * (float64(n) - float64(lo+hi)/2)
			if share := area / (float64(n) * float64(n) / 2); parts > 1 && n >= 2000 && math.Abs(share-1/float64(parts)) > 0.05 {
				t.Errorf("n=%d: triangle piece %d holds %.3f of the area, want about %.3f", n, p, share, 1/float64(parts))
			}
		}
	}
}
