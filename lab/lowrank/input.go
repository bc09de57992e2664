package lowrank

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// finiteDense returns m as a *mat.Dense (m itself when it is one, a copy otherwise) after checking
// that it is non-nil, non-empty and holds only finite values; op and name locate the error.
func finiteDense(op, name string, m mat.Matrix) (*mat.Dense, error) {
	return matcheck.Dense("lowrank: "+op, name, m)
}

// finiteSymmetric checks that a symmetric matrix is non-nil, non-empty and finite, and returns
// its order.
func finiteSymmetric(op, name string, m mat.Symmetric) (int, error) {
	return matcheck.Symmetric("lowrank: "+op, name, m)
}

// checkIndices verifies that idx holds distinct indices in [0, n); what names them in errors.
func checkIndices(op, what string, idx []int, n int) error {
	seen := make(map[int]struct{}, len(idx))
	for pos, i := range idx {
		if i < 0 || i >= n {
			return fmt.Errorf("lowrank: %s: %s[%d] = %d, want an index in [0, %d)", op, what, pos, i, n)
		}
		if _, dup := seen[i]; dup {
			return fmt.Errorf("lowrank: %s: %s[%d] = %d appears twice, want distinct indices", op, what, pos, i)
		}
		seen[i] = struct{}{}
	}
	return nil
}

// gatherRows returns the rows idx of X as a new contiguous matrix.
func gatherRows(X *mat.Dense, idx []int) *mat.Dense {
	_, c := X.Dims()
	out := mat.NewDense(len(idx), c, nil)
	for r, i := range idx {
		out.SetRow(r, X.RawRowView(i))
	}
	return out
}

// featureMapArgs checks the arguments of a feature map's TransformInto: dst non-nil, X non-nil,
// non-empty and finite with d columns (like fixedBy, which the error names), and dst either
// n×cols or empty, in which case it is resized. It returns X as a *mat.Dense.
func featureMapArgs(op string, dst *mat.Dense, X mat.Matrix, d int, fixedBy string, cols int) (*mat.Dense, error) {
	if dst == nil {
		return nil, fmt.Errorf("lowrank: %s: nil destination", op)
	}
	x, err := finiteDense(op, "X", X)
	if err != nil {
		return nil, err
	}
	n, dx := x.Dims()
	if dx != d {
		return nil, laberr.Errorf(laberr.ErrShape, "lowrank: %s: X has %d columns, want %d like %s", op, dx, d, fixedBy)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, cols)
	} else if dr, dc := dst.Dims(); dr != n || dc != cols {
		return nil, laberr.Errorf(laberr.ErrShape, "lowrank: %s: destination is %d×%d, want %d×%d", op, dr, dc, n, cols)
	}
	return x, nil
}

// rowBlock returns rows [i0, i1) of g as a matrix of its own, sharing g's storage.
func rowBlock(g blas64.General, i0, i1 int) blas64.General {
	return blas64.General{Rows: i1 - i0, Cols: g.Cols, Stride: g.Stride, Data: g.Data[i0*g.Stride : (i1-1)*g.Stride+g.Cols]}
}
