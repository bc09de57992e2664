package csr

import (
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// rowBlock is the number of output rows one task of a product computes. Each output row is
// computed whole by one goroutine, so the results do not depend on it nor on GOMAXPROCS.
const rowBlock = 256

// MulDense sets dst = A·B for A this rows×cols matrix and B a dense cols×k one. dst must be
// empty (it is then sized) or rows×k, and must not be B itself. Rows of dst are computed in
// parallel over GOMAXPROCS goroutines, each as a sum of rows of B scaled by A's stored values.
// Errors: a nil or empty B, B of the wrong shape or holding NaN/±Inf, dst of the wrong shape or
// aliasing B. Cost: O(nnz·k) time; no memory beyond dst (and a copy of B unless it is a
// mat.RawMatrixer such as *mat.Dense).
func (m *Matrix) MulDense(dst *mat.Dense, b mat.Matrix) error {
	return m.mul("csr: MulDense", dst, b)
}

// MulTransDense sets dst = Aᵀ·B for A this rows×cols matrix and B a dense rows×k one. dst must be
// empty or cols×k and must not be B. The first call builds and keeps the CSR form of Aᵀ
// (Transpose: as much memory again as A), so that this product too runs in parallel over output
// rows, free of races and independent of the number of goroutines. Errors and cost as MulDense.
func (m *Matrix) MulTransDense(dst *mat.Dense, b mat.Matrix) error {
	m.transposeOnce.Do(func() { m.transpose, m.transposeErr = m.Transpose() })
	if m.transposeErr != nil {
		return fmt.Errorf("csr: MulTransDense: %w", m.transposeErr)
	}
	return m.transpose.mul("csr: MulTransDense", dst, b)
}

func (m *Matrix) mul(op string, dst *mat.Dense, b mat.Matrix) error {
	if dst == nil {
		return fmt.Errorf("%s: dst is nil", op)
	}
	g, err := matcheck.Rows(op, "B", b)
	if err != nil {
		return err
	}
	if g.Rows != m.cols {
		return laberr.Errorf(laberr.ErrShape, "%s: B is %d×%d, want %d rows to match the sparse operand's %d×%d", op, g.Rows, g.Cols, m.cols, m.rows, m.cols)
	}
	if bd, ok := b.(*mat.Dense); ok && bd == dst {
		return fmt.Errorf("%s: dst is B: the product cannot overwrite its own operand", op)
	}
	k := g.Cols
	if dst.IsEmpty() {
		if err := memlimit.Check(op, fmt.Sprintf("the %d×%d product", m.rows, k), 8, m.rows, k); err != nil {
			return err
		}
		dst.ReuseAs(m.rows, k)
	} else if r, c := dst.Dims(); r != m.rows || c != k {
		return laberr.Errorf(laberr.ErrShape, "%s: dst is %d×%d, want %d×%d (or empty)", op, r, c, m.rows, k)
	}
	out := dst.RawMatrix()
	parallel.For(parallel.BlockCount(m.rows, rowBlock), func(_, block int) {
		lo := block * rowBlock
		for i := lo; i < min(m.rows, lo+rowBlock); i++ {
			row := out.Data[i*out.Stride : i*out.Stride+k]
			clear(row)
			cols, vals := m.Row(i)
			for p, j := range cols {
				floats.AddScaled(row, vals[p], g.Data[j*g.Stride:j*g.Stride+k])
			}
		}
	})
	return nil
}
