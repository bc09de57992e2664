// Package blocked splits the level-3 BLAS products of the lab's numerical packages into pieces
// that run on all cores. OpenBLAS runs each call on one thread (see lab/blasbackend), so a large
// product is split here, into a number of pieces that depends on the matrix sizes alone, never on
// the number of cores: OpenBLAS's results change in their last bits with the split, and the lab's
// results must not depend on the machine's core count.
package blocked

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
)

const (
	// Align is the granularity of the pieces: every piece but the last starts at a multiple of it.
	Align = 64
	// target is the length a piece aims at.
	target = 512
	// baseOrder is the order below which syrk calls BLAS directly even when syrkByGEMM is set.
	baseOrder = 128
)

// syrkByGEMM says whether SyrkUpper's diagonal blocks recurse down to GEMM: with gonum's pure-Go
// BLAS, whose SYRK runs several times slower than its GEMM; not with OpenBLAS, whose SYRK is
// faster than the recursion.
var syrkByGEMM = blasbackend.Backend() == blasbackend.PureGo

// Pieces returns the number of pieces a product over n rows or columns is split into: the power
// of two nearest to n/512, at least 1, and at least 2 from n = 128 on. Powers of two keep common
// core counts evenly loaded.
func Pieces(n int) int {
	if n < 2*Align {
		return 1
	}
	return max(2, 1<<max(0, int(math.Round(math.Log2(float64(n)/target)))))
}

// Even returns the first index of piece p of parts (p = parts gives n): [0, n) split into parts
// of about equal length, at multiples of Align.
func Even(n, parts, p int) int {
	if p >= parts {
		return n
	}
	return min(n, (n*p/parts+Align/2)/Align*Align)
}

// Triangle returns the first row of piece p of parts (p = parts gives n): the rows of an order-n
// upper triangle split into parts of about equal area, at multiples of Align.
func Triangle(n, parts, p int) int {
	if p >= parts {
		return n
	}
	r := float64(n) * (1 - math.Sqrt(1-float64(p)/float64(parts)))
	return min(n, int(math.Round(r/Align))*Align)
}

// SyrkUpper sets the upper triangle of c to α·BᵀB + β·c (B has c.N columns; c.Uplo must be
// blas.Upper, the lower triangle is not touched), as BLAS's SYRK with blas.Trans does, in
// Pieces(c.N) pieces of rows of c of about equal area of the triangle, on all cores: a SYRK on
// the diagonal block of each piece and a GEMM for the part to its right.
func SyrkUpper(alpha float64, b blas64.General, beta float64, c blas64.Symmetric) {
	if c.Uplo != blas.Upper || b.Cols != c.N {
		panic("blocked: SyrkUpper: want upper storage and B with c.N columns") // internal invariant
	}
	parts := Pieces(c.N)
	parallel.For(parts, func(_, p int) {
		lo, hi := Triangle(c.N, parts, p), Triangle(c.N, parts, p+1)
		if lo == hi {
			return
		}
		left := blas64.General{Rows: b.Rows, Cols: hi - lo, Stride: b.Stride, Data: b.Data[lo:]}
		syrk(alpha, left, beta, blas64.Symmetric{Uplo: blas.Upper, N: hi - lo, Stride: c.Stride, Data: c.Data[lo*c.Stride+lo:]})
		if hi < c.N {
			right := blas64.General{Rows: b.Rows, Cols: c.N - hi, Stride: b.Stride, Data: b.Data[hi:]}
			blas64.Gemm(blas.Trans, blas.NoTrans, alpha, left, right, beta,
				blas64.General{Rows: hi - lo, Cols: c.N - hi, Stride: c.Stride, Data: c.Data[lo*c.Stride+hi:]})
		}
	})
}

// syrk sets the upper triangle of c to α·BᵀB + β·c, as BLAS's SYRK does; when syrkByGEMM, by
// recursive halving of c so that most of the work is GEMM.
func syrk(alpha float64, b blas64.General, beta float64, c blas64.Symmetric) {
	if c.N <= baseOrder || !syrkByGEMM {
		blas64.Syrk(blas.Trans, alpha, b, beta, c)
		return
	}
	h := c.N / 2
	b1 := blas64.General{Rows: b.Rows, Cols: h, Stride: b.Stride, Data: b.Data}
	b2 := blas64.General{Rows: b.Rows, Cols: c.N - h, Stride: b.Stride, Data: b.Data[h:]}
	syrk(alpha, b1, beta, blas64.Symmetric{Uplo: blas.Upper, N: h, Stride: c.Stride, Data: c.Data})
	blas64.Gemm(blas.Trans, blas.NoTrans, alpha, b1, b2, beta, blas64.General{Rows: h, Cols: c.N - h, Stride: c.Stride, Data: c.Data[h:]})
	syrk(alpha, b2, beta, blas64.Symmetric{Uplo: blas.Upper, N: c.N - h, Stride: c.Stride, Data: c.Data[h*c.Stride+h:]})
}
