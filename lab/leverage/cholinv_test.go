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

// triangularProduct, by GEMM recursion (the pure-Go route) and by a single BLAS
// call (the OpenBLAS route), against products written out element by element.
func TestTriangularProductMatchesBruteForce(t *testing.T) {
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

	}
}
