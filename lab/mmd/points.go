package mmd

import (
	"fmt"
	"math"
	"reflect"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Points is a finite set of points of any kind (vectors, graphs, ...) with a positive
// semi-definite kernel on them, seen only through blocks of its kernel matrix. Estimators name
// points by their index in 0..Len()-1, so the samples they compare are lists of indices into one
// Points, and no estimator needs to know what a point is.
//
// Vectors (rows of a matrix with a [kernel.Kernel]) and Precomputed (a Gram matrix) implement it;
// graphkernel.ShortestPath does too, for sets of graphs.
type Points interface {
	// Len returns the number of points.
	Len() int
	// Block writes k(p_rows[a], p_cols[b]) into dst, which is len(rows)×len(cols); rows and cols
	// are non-empty and may repeat indices. It must be safe for concurrent use: estimators call
	// it from all cores. When rows and cols are the same slice the block is symmetric, which an
	// implementation may use to halve its work.
	Block(dst *mat.Dense, rows, cols []int) error
}

// Vectors is the rows of a matrix with a kernel on them, the Points of vector data. Blocks are
// computed by [kernel.CrossInto] (matrix products and the batched exp for the Gaussian kernel): rows
// whose indices are consecutive are used in place, others are first gathered into a buffer. Only
// Vectors with a Gaussian or Laplace kernel support RFF MMD.
type Vectors struct {
	kernel kernel.Kernel
	x      *mat.Dense
	// gathered recycles the buffers of gathered rows (*[]float64): allocating fresh memory for
	// every block costs page faults that would double the time of the O(ns) estimators.
	gathered sync.Pool
}

// NewVectors returns the rows of X (n×d) with kernel k as Points. A *mat.Dense X is used without
// copying (do not change it while the Vectors are in use); other matrices are copied.
//
// Errors: nil kernel, invalid kernel parameters, nil or empty X, NaN or ±Inf in X. Memory: none
// besides a copy of X when it is not a *mat.Dense.
func NewVectors(k kernel.Kernel, X mat.Matrix) (*Vectors, error) {
	if isNil(k) {
		return nil, fmt.Errorf("mmd: NewVectors: nil kernel")
	}
	// Diagonal checks the kernel's parameters and that X is a non-empty matrix of finite values.
	if _, err := kernel.Diagonal(k, X); err != nil {
		return nil, fmt.Errorf("mmd: NewVectors: %w", err)
	}
	x, ok := X.(*mat.Dense)
	if !ok {
		x = mat.DenseCopyOf(X)
	}
	return &Vectors{kernel: k, x: x}, nil
}

// Len returns the number of rows (0 for the zero Vectors, which estimators report as "no points").
func (v *Vectors) Len() int {
	if v == nil || v.x == nil {
		return 0
	}
	n, _ := v.x.Dims()
	return n
}

// Kernel returns the kernel.
func (v *Vectors) Kernel() kernel.Kernel { return v.kernel }

// Block writes k(x_rows[a], x_cols[b]) into dst (len(rows)×len(cols)) with [kernel.CrossInto].
//
// Errors: nil dst, a dst of another shape, empty rows or cols, an index out of range.
// Memory: a copy of the rows (and of the cols) whose indices are not consecutive, in recycled
// buffers.
func (v *Vectors) Block(dst *mat.Dense, rows, cols []int) error {
	if err := checkBlock("Vectors.Block", dst, rows, cols, v.Len()); err != nil {
		return err
	}
	a, releaseA := v.rows(rows)
	defer releaseA()
	b := a
	if !sameSlice(rows, cols) {
		var releaseB func()
		b, releaseB = v.rows(cols)
		defer releaseB()
	}
	if err := kernel.CrossInto(dst, v.kernel, a, b); err != nil {
		return fmt.Errorf("mmd: Vectors.Block: %w", err)
	}
	return nil
}

// rows returns the rows idx of x (valid, non-empty indices): a view when they are consecutive,
// else a gathered copy in a recycled buffer. Call release when done with the matrix.
func (v *Vectors) rows(idx []int) (rows *mat.Dense, release func()) {
	_, d := v.x.Dims()
	if consecutive(idx) {
		return v.x.Slice(idx[0], idx[0]+len(idx), 0, d).(*mat.Dense), func() {}
	}
	buf, _ := v.gathered.Get().(*[]float64)
	if buf == nil || cap(*buf) < len(idx)*d {
		b := make([]float64, len(idx)*d)
		buf = &b
	}
	data := (*buf)[:len(idx)*d]
	src := v.x.RawMatrix()
	for a, i := range idx {
		copy(data[a*d:(a+1)*d], src.Data[i*src.Stride:i*src.Stride+d])
	}
	return mat.NewDense(len(idx), d, data), func() { v.gathered.Put(buf) }
}

// consecutive reports whether idx is i, i+1, i+2, ...
func consecutive(idx []int) bool {
	for a, i := range idx {
		if i != idx[0]+a {
			return false
		}
	}
	return true
}

// sameSlice reports whether a and b are the same non-empty slice (same memory and length).
func sameSlice(a, b []int) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// Precomputed is a kernel matrix given in full, as Points: for kernels that have no fast block
// computation but a cheap Gram matrix (small graph sets, string kernels, a kernel computed by
// another program), and for tests.
type Precomputed struct {
	gram *mat.SymDense
}

// NewPrecomputed returns the points 0..n-1 of the n×n kernel matrix K (copied).
//
// Errors: nil or empty K, NaN or ±Inf entries. Memory: the n×n copy.
func NewPrecomputed(K mat.Symmetric) (*Precomputed, error) {
	if isNil(K) {
		return nil, fmt.Errorf("mmd: NewPrecomputed: nil matrix")
	}
	n := K.SymmetricDim()
	if n == 0 {
		return nil, fmt.Errorf("mmd: NewPrecomputed: empty matrix")
	}
	if err := memlimit.Check("mmd: NewPrecomputed", fmt.Sprintf("the %d×%d Gram matrix", n, n), 8, n, n); err != nil {
		return nil, err
	}
	gram := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			v := K.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, laberr.Errorf(laberr.ErrNonFinite, "mmd: NewPrecomputed: K[%d,%d] = %g, want finite values", i, j, v)
			}
			gram.SetSym(i, j, v)
		}
	}
	return &Precomputed{gram: gram}, nil
}

// Len returns n (0 for the zero Precomputed, which estimators report as "no points").
func (p *Precomputed) Len() int {
	if p == nil || p.gram == nil {
		return 0
	}
	return p.gram.SymmetricDim()
}

// Block copies K[rows, cols] into dst (len(rows)×len(cols)).
//
// Errors: nil dst, a dst of another shape, empty rows or cols, an index out of range.
func (p *Precomputed) Block(dst *mat.Dense, rows, cols []int) error {
	if err := checkBlock("Precomputed.Block", dst, rows, cols, p.Len()); err != nil {
		return err
	}
	src := p.gram.RawSymmetric() // upper triangle
	out := dst.RawMatrix()
	for a, i := range rows {
		for b, j := range cols {
			out.Data[a*out.Stride+b] = src.Data[min(i, j)*src.Stride+max(i, j)]
		}
	}
	return nil
}

// checkBlock checks the arguments of a Block method on n points.
func checkBlock(op string, dst *mat.Dense, rows, cols []int, n int) error {
	if dst == nil {
		return fmt.Errorf("mmd: %s: nil destination", op)
	}
	if len(rows) == 0 || len(cols) == 0 {
		return fmt.Errorf("mmd: %s: %d rows and %d columns, want at least one of each", op, len(rows), len(cols))
	}
	if r, c := dst.Dims(); r != len(rows) || c != len(cols) {
		return laberr.Errorf(laberr.ErrShape, "mmd: %s: destination is %d×%d, want %d×%d", op, r, c, len(rows), len(cols))
	}
	if err := checkIndices(op, "rows", rows, n); err != nil {
		return err
	}
	return checkIndices(op, "cols", cols, n)
}

// checkIndices checks that every index of idx is in 0..n-1.
func checkIndices(op, name string, idx []int, n int) error {
	for a, i := range idx {
		if i < 0 || i >= n {
			return fmt.Errorf("mmd: %s: %s[%d] = %d outside the %d points", op, name, a, i, n)
		}
	}
	return nil
}

// isNil reports whether v is nil or a nil pointer inside an interface.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}
