package leverage

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/internal/blocked"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
)

// baseOrder is the size of the recursive factorisation's leaves, fixed so that results do not
// depend on the number of goroutines: blocks of at most baseOrder rows are factorised and inverted
// by gonum's LAPACK routines directly, and every level-3 call of the recursion is split into
// blocked.Pieces independent pieces of rows or columns, which run in parallel.
const baseOrder = 128

// productsByGEMM says whether triangularProduct recurses down to GEMM: with gonum's pure-Go BLAS,
// whose TRMM runs several times slower than its GEMM (with SYRK likewise, see lab/internal/blocked:
// Exact at n = 5000 takes 7.9 s instead of 13.1 s); not with OpenBLAS, whose TRMM is about 10%
// faster than the recursion.
var productsByGEMM = blasbackend.Backend() == blasbackend.PureGo

// square is the leading order-n block of a row-major matrix, seen from its element (0, 0).
type square struct {
	n, stride int
	data      []float64
}

// sub returns the r×c block whose top-left element is (i, j), as a general matrix.
func (s square) sub(i, j, r, c int) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: s.stride, Data: s.data[i*s.stride+j:]}
}

// diagonal returns the order-m diagonal block starting at (i, i).
func (s square) diagonal(i, m int) square {
	return square{n: m, stride: s.stride, data: s.data[i*s.stride+i:]}
}

// upper returns the upper triangle of s as a triangular matrix.
func (s square) upper() blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: s.n, Stride: s.stride, Data: s.data}
}

// inverseCholeskyInPlace overwrites the upper triangle of the symmetric positive definite A held
// in a with X = U⁻¹, the inverse of its Cholesky factor A = UᵀU, so that A⁻¹ = XXᵀ; U itself is
// never stored whole. It reports false when A is not numerically positive definite.
//
// The recursion splits A = [A₁₁ A₁₂; A₁₂ᵀ A₂₂] and, with X₁₁ = U₁₁⁻¹ from the first half,
// forms U₁₂ = X₁₁ᵀA₁₂, the Schur complement A₂₂ − U₁₂ᵀU₁₂, its X₂₂ by recursion, and
// X₁₂ = −X₁₁U₁₂X₂₂. Factorising and inverting together turns the triangular solves of a Cholesky
// factorisation into triangular products, which run at matrix-product speed, for the same
// 2n³/3 flops as LAPACK's potrf followed by trtri; every product is split into pieces run on all
// cores. Multiplying by the computed X₁₁ instead of solving with U₁₁ adds an error of order
// ε·cond(U₁₁) = ε·cond(A₁₁)^½, below the ε·cond(A) of the scores themselves; on condition numbers up
// to 10¹¹ the scores stay as close to the eigen form as those of potrf + inverse (see
// TestExactIllConditionedAsAccurateAsCholeskyInverse).
func inverseCholeskyInPlace(a square) bool {
	if a.n <= baseOrder {
		sym := blas64.Symmetric{Uplo: blas.Upper, N: a.n, Stride: a.stride, Data: a.data}
		if _, ok := lapack64.Potrf(sym); !ok {
			return false
		}
		return lapack64.Trtri(a.upper())
	}
	n1 := (a.n/2 + baseOrder/2) / baseOrder * baseOrder // a multiple of baseOrder near n/2
	n2 := a.n - n1
	x11, a22 := a.diagonal(0, n1), a.diagonal(n1, n2)
	a12 := a.sub(0, n1, n1, n2)
	if !inverseCholeskyInPlace(x11) {
		return false
	}
	columnPieces(a12, func(b blas64.General) { // U₁₂ = X₁₁ᵀ A₁₂
		triangularProduct(blas.Left, blas.Trans, 1, x11.upper(), b)
	})
	schurUpdate(a22, a12)
	if !inverseCholeskyInPlace(a22) {
		return false
	}
	columnPieces(a12, func(b blas64.General) { // X₁₁ U₁₂
		triangularProduct(blas.Left, blas.NoTrans, 1, x11.upper(), b)
	})
	rowPieces(a12, func(b blas64.General) { // X₁₂ = −(X₁₁ U₁₂) X₂₂
		triangularProduct(blas.Right, blas.NoTrans, -1, a22.upper(), b)
	})
	return true
}

// triangularProduct overwrites b with α·op(T)·b (side Left, op(T) = T or Tᵀ) or α·b·T (side Right,
// T not transposed) for the upper triangular t, as BLAS's TRMM does; when productsByGEMM, by
// recursive halving of T so that most of the work is GEMM.
func triangularProduct(side blas.Side, tA blas.Transpose, alpha float64, t blas64.Triangular, b blas64.General) {
	if t.N <= baseOrder || !productsByGEMM {
		blas64.Trmm(side, tA, alpha, t, b)
		return
	}
	h := t.N / 2
	t11 := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: h, Stride: t.Stride, Data: t.Data}
	t22 := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: t.N - h, Stride: t.Stride, Data: t.Data[h*t.Stride+h:]}
	t12 := blas64.General{Rows: h, Cols: t.N - h, Stride: t.Stride, Data: t.Data[h:]}
	switch {
	case side == blas.Left && tA == blas.NoTrans: // [b₁; b₂] ← [T₁₁b₁ + T₁₂b₂; T₂₂b₂]
		b1 := blas64.General{Rows: h, Cols: b.Cols, Stride: b.Stride, Data: b.Data}
		b2 := blas64.General{Rows: b.Rows - h, Cols: b.Cols, Stride: b.Stride, Data: b.Data[h*b.Stride:]}
		triangularProduct(side, tA, alpha, t11, b1)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, alpha, t12, b2, 1, b1)
		triangularProduct(side, tA, alpha, t22, b2)
	case side == blas.Left: // [b₁; b₂] ← [T₁₁ᵀb₁; T₁₂ᵀb₁ + T₂₂ᵀb₂]
		b1 := blas64.General{Rows: h, Cols: b.Cols, Stride: b.Stride, Data: b.Data}
		b2 := blas64.General{Rows: b.Rows - h, Cols: b.Cols, Stride: b.Stride, Data: b.Data[h*b.Stride:]}
		triangularProduct(side, tA, alpha, t22, b2)
		blas64.Gemm(blas.Trans, blas.NoTrans, alpha, t12, b1, 1, b2)
		triangularProduct(side, tA, alpha, t11, b1)
	case tA == blas.NoTrans: // [b₁ b₂] ← [b₁T₁₁, b₁T₁₂ + b₂T₂₂]
		b1 := blas64.General{Rows: b.Rows, Cols: h, Stride: b.Stride, Data: b.Data}
		b2 := blas64.General{Rows: b.Rows, Cols: b.Cols - h, Stride: b.Stride, Data: b.Data[h:]}
		triangularProduct(side, tA, alpha, t22, b2)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, alpha, b1, t12, 1, b2)
		triangularProduct(side, tA, alpha, t11, b1)
	default:
		panic("leverage: triangularProduct: b·Tᵀ is not needed") // internal invariant
	}
}

// schurUpdate subtracts BᵀB from the upper triangle of c (B has c.n columns), on all cores
// (blocked.SyrkUpper).
func schurUpdate(c square, b blas64.General) {
	blocked.SyrkUpper(-1, b, 1, blas64.Symmetric{Uplo: blas.Upper, N: c.n, Stride: c.stride, Data: c.data})
}

// columnPieces runs body on the blocked.Pieces(b.Cols) pieces of the columns of b, in parallel.
func columnPieces(b blas64.General, body func(blas64.General)) {
	parts := blocked.Pieces(b.Cols)
	parallel.For(parts, func(_, p int) {
		lo, hi := blocked.Even(b.Cols, parts, p), blocked.Even(b.Cols, parts, p+1)
		if lo < hi {
			body(blas64.General{Rows: b.Rows, Cols: hi - lo, Stride: b.Stride, Data: b.Data[lo:]})
		}
	})
}

// rowPieces runs body on the blocked.Pieces(b.Rows) pieces of the rows of b, in parallel.
func rowPieces(b blas64.General, body func(blas64.General)) {
	parts := blocked.Pieces(b.Rows)
	parallel.For(parts, func(_, p int) {
		lo, hi := blocked.Even(b.Rows, parts, p), blocked.Even(b.Rows, parts, p+1)
		if lo < hi {
			body(blas64.General{Rows: hi - lo, Cols: b.Cols, Stride: b.Stride, Data: b.Data[lo*b.Stride:]})
		}
	})
}

// squaredRowNorms writes Σ_{j≥i} X_ij², the squared norm of row i of the upper triangular X held
// in x, into out, in parallel over rows.
func squaredRowNorms(x square, out []float64) {
	parallel.For(parallel.BlockCount(x.n, blocked.Align), func(_, block int) {
		for i := block * blocked.Align; i < min(x.n, (block+1)*blocked.Align); i++ {
			var s float64
			for _, v := range x.data[i*x.stride+i : i*x.stride+x.n] {
				s += v * v
			}
			out[i] = s
		}
	})
}
