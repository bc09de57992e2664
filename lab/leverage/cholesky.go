package leverage

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/fastkernels/kernellab/lab/internal/parallel"
)

// tileSize is the order of the square tiles of the factorisation and of the inverse below. Every
// operation works on whole tiles with one BLAS call (GEMM for the bulk), and the tiles of a step
// are spread over all cores, so the O(n³) work runs at matrix-product speed on every core whether
// the BLAS is gonum's or OpenBLAS's (which the lab runs single-threaded per call). The tiles are
// fixed by n alone, so the results do not depend on the number of goroutines.
const tileSize = 256

// tiles describes the partition of an n×n row-major matrix into tileSize×tileSize tiles.
type tiles struct {
	n, stride int
	data      []float64
}

func (t tiles) count() int       { return (t.n + tileSize - 1) / tileSize }
func (t tiles) size(i int) int   { return min(tileSize, t.n-i*tileSize) }
func (t tiles) offset(i int) int { return i * tileSize }

// general returns the tile (i, j) as a general matrix view.
func (t tiles) general(i, j int) blas64.General {
	return t.span(i, j, j+1)
}

// span returns the tiles (i, j..jEnd-1) of one tile row as a general matrix view.
func (t tiles) span(i, j, jEnd int) blas64.General {
	cols := t.offset(jEnd-1) + t.size(jEnd-1) - t.offset(j)
	return blas64.General{Rows: t.size(i), Cols: cols, Stride: t.stride,
		Data: t.data[t.offset(i)*t.stride+t.offset(j):]}
}

// upper returns the diagonal tile i as an upper triangular matrix.
func (t tiles) upper(i int) blas64.Triangular {
	g := t.general(i, i)
	return blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: g.Rows, Stride: g.Stride, Data: g.Data}
}

// choleskyInPlace factorises the symmetric positive definite matrix held in the upper triangle of
// a as A = UᵀU, overwriting it with U (right-looking, tile by tile: factor the diagonal tile, solve
// for the tiles to its right, update the trailing tiles, the last two steps in parallel). It
// reports false when A is not numerically positive definite. Cost: n³/3 flops, no extra memory.
func choleskyInPlace(a blas64.Symmetric) bool {
	t := tiles{n: a.N, stride: a.Stride, data: a.Data}
	count := t.count()
	type pair struct{ i, j int }
	var trailing []pair
	for k := range count {
		diag := t.general(k, k)
		if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: diag.Rows, Stride: diag.Stride, Data: diag.Data}); !ok {
			return false
		}
		if k == count-1 {
			return true
		}
		ukk := t.upper(k)
		parallel.For(count-k-1, func(_, j int) { // U_kj = U_kk⁻ᵀ A_kj
			blas64.Trsm(blas.Left, blas.Trans, 1, ukk, t.general(k, k+1+j))
		})
		trailing = trailing[:0]
		for i := k + 1; i < count; i++ {
			for j := i; j < count; j++ {
				trailing = append(trailing, pair{i, j})
			}
		}
		parallel.For(len(trailing), func(_, p int) { // A_ij -= U_kiᵀ U_kj
			i, j := trailing[p].i, trailing[p].j
			uki := t.general(k, i)
			if i == j {
				dst := t.general(i, i)
				blas64.Syrk(blas.Trans, -1, uki, 1, blas64.Symmetric{Uplo: blas.Upper, N: dst.Rows, Stride: dst.Stride, Data: dst.Data})
			} else {
				blas64.Gemm(blas.Trans, blas.NoTrans, -1, uki, t.general(k, j), 1, t.general(i, j))
			}
		})
	}
	return true
}

// inverseWorkspace holds the buffers of inverseDiagonal, so that repeated calls (DAC's blocks) reuse
// them instead of allocating: one tile column of U⁻¹ (n×tileSize floats) per goroutine, and the
// row sums of every tile column.
type inverseWorkspace struct {
	columns [][]float64
	sums    []float64
}

// inverseDiagonal writes into out the diagonal of (UᵀU)⁻¹ = U⁻¹U⁻ᵀ for the upper triangular U
// (n×n, row-major with stride), that is the squared norms of the rows of U⁻¹, without forming U⁻¹:
// each tile column j of U⁻¹ is computed on its own (U_jj X_jj = I, then for i < j,
// U_ii X_ij = −Σ_{i<l≤j} U_il X_lj) in a buffer of n×tileSize floats per goroutine, and its squared
// entries are summed by row. Tile columns run in parallel, the costliest first; their sums are added
// in column order. Cost: n³/3 flops; U is only read; memory from ws, which grows as needed.
func inverseDiagonal(u blas64.Triangular, out []float64, ws *inverseWorkspace) {
	t := tiles{n: u.N, stride: u.Stride, data: u.Data}
	count := t.count()
	workers := parallel.Workers(count)
	for len(ws.columns) < workers {
		ws.columns = append(ws.columns, nil)
	}
	if len(ws.sums) < count*t.n {
		ws.sums = make([]float64, count*t.n)
	}
	parallel.For(count, func(w, task int) {
		j := count - 1 - task
		if len(ws.columns[w]) < t.n*tileSize {
			ws.columns[w] = make([]float64, t.n*tileSize)
		}
		cols := t.size(j)
		rows := t.offset(j) + cols // the rows of tile column j below them are zero
		x := ws.columns[w][:rows*cols]
		// xTile returns X_ij, tile i of the tile column.
		xTile := func(i int) blas64.General {
			return blas64.General{Rows: t.size(i), Cols: cols, Stride: cols, Data: x[t.offset(i)*cols:]}
		}
		xjj := xTile(j)
		for r := range cols {
			row := xjj.Data[r*cols : r*cols+cols]
			clear(row)
			row[r] = 1
		}
		blas64.Trsm(blas.Left, blas.NoTrans, 1, t.upper(j), xjj)
		for i := j - 1; i >= 0; i-- {
			below := blas64.General{Rows: rows - t.offset(i+1), Cols: cols, Stride: cols, Data: x[t.offset(i+1)*cols:]}
			xij := xTile(i)
			blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, t.span(i, i+1, j+1), below, 0, xij)
			blas64.Trsm(blas.Left, blas.NoTrans, 1, t.upper(i), xij)
		}
		sums := ws.sums[j*t.n : j*t.n+rows]
		for r := range rows {
			var s float64
			for _, v := range x[r*cols : r*cols+cols] {
				s += v * v
			}
			sums[r] = s
		}
	})
	clear(out)
	for j := range count {
		rows := t.offset(j) + t.size(j)
		for r, s := range ws.sums[j*t.n : j*t.n+rows] {
			out[r] += s
		}
	}
}
