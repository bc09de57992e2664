package lowrank

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// finiteDense returns m as a *mat.Dense (m itself when it is one, a copy otherwise) after checking
// that it is non-nil, non-empty and holds only finite values; op and name locate the error.
func finiteDense(op, name string, m mat.Matrix) (*mat.Dense, error) {
	if m == nil {
		return nil, fmt.Errorf("lowrank: %s: %s is nil", op, name)
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("lowrank: %s: %s is a nil %T", op, name, m)
	}
	r, c := m.Dims()
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("lowrank: %s: %s is empty (%d×%d)", op, name, r, c)
	}
	d, ok := m.(*mat.Dense)
	if !ok {
		d = mat.DenseCopyOf(m)
	}
	raw := d.RawMatrix()
	for i := range r {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("lowrank: %s: %s[%d,%d] = %g, want finite values", op, name, i, j, v)
			}
		}
	}
	return d, nil
}

// finiteSymmetric checks that a symmetric matrix is non-nil, non-empty and finite, and returns
// its order.
func finiteSymmetric(op, name string, m mat.Symmetric) (int, error) {
	if m == nil {
		return 0, fmt.Errorf("lowrank: %s: %s is nil", op, name)
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return 0, fmt.Errorf("lowrank: %s: %s is a nil %T", op, name, m)
	}
	n := m.SymmetricDim()
	if n == 0 {
		return 0, fmt.Errorf("lowrank: %s: %s is empty", op, name)
	}
	for i := range n {
		for j := i; j < n; j++ {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("lowrank: %s: %s[%d,%d] = %g, want finite values", op, name, i, j, v)
			}
		}
	}
	return n, nil
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

// workerCount is the number of goroutines parallelFor uses for n tasks.
func workerCount(n int) int { return max(1, min(n, runtime.GOMAXPROCS(0))) }

// parallelFor runs body(worker, i) for i = 0..n-1 on workerCount(n) goroutines that take indices
// in turn; worker (in [0, workerCount(n))) lets the body use per-goroutine buffers.
func parallelFor(n int, body func(worker, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workerCount(n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				body(w, i)
			}
		})
	}
	wg.Wait()
}
