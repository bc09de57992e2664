package factor

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// operator is the data matrix A (m×n) of a factorisation, used only through products with dense
// blocks, A·B and Aᵀ·B, so that one implementation of each algorithm serves dense and sparse
// data: a *csr.Matrix multiplies itself (in parallel over rows, never densified); any other
// mat.Matrix is used in its dense form (itself for a *mat.Dense, a copy otherwise) and multiplied
// by BLAS in parallel row blocks.
type operator struct {
	rows, cols int
	dense      *mat.Dense  // nil for sparse data
	sparse     *csr.Matrix // nil for dense data
}

// newOperator checks that a is a non-nil, non-empty matrix of finite values and wraps it without
// copying a *mat.Dense or a *csr.Matrix. op and name say where a failure happened.
func newOperator(op, name string, a mat.Matrix) (*operator, error) {
	where := "factor: " + op
	if s, ok := a.(*csr.Matrix); ok && s != nil {
		// The constructors validate the values, but Row hands out views a caller may write to.
		rows, cols := s.Dims()
		for i := range rows {
			idx, vals := s.Row(i)
			for p, v := range vals {
				if v-v != 0 {
					return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: %s[%d,%d] = %g, want finite values", where, name, i, idx[p], v)
				}
			}
		}
		o := &operator{rows: rows, cols: cols, sparse: s}
		// A sparse matrix of 2⁴⁰ columns and a few values is free to build; the vectors of its
		// length that every algorithm makes are not.
		return o, o.checkWork(op, 1)
	}
	d, err := matcheck.Dense(where, name, a)
	if err != nil {
		return nil, err
	}
	rows, cols := d.Dims()
	return &operator{rows: rows, cols: cols, dense: d}, nil
}

// checkWork checks with memlimit that the dense blocks of k columns an algorithm keeps beside A,
// at most three of the larger side (m×k or n×k: a range basis, a co-range block, a product),
// fit; op names the caller.
func (o *operator) checkWork(op string, k int) error {
	return memlimit.Check("factor: "+op, fmt.Sprintf("three %d×%d work blocks", max(o.rows, o.cols), k), 8*3, max(o.rows, o.cols), k)
}

// denseBlock is the number of output rows one task of a dense product computes; the partition,
// hence each result, does not depend on the number of goroutines.
const denseBlock = 256

// mul sets dst = A·B for B n×k and dst m×k (allocated by the caller).
func (o *operator) mul(dst, b *mat.Dense) error {
	if o.sparse != nil {
		return o.sparse.MulDense(dst, b)
	}
	o.blocks(dst, b, o.rows, func(lo, hi int) mat.Matrix { return o.dense.Slice(lo, hi, 0, o.cols) })
	return nil
}

// mulT sets dst = Aᵀ·B for B m×k and dst n×k (allocated by the caller).
func (o *operator) mulT(dst, b *mat.Dense) error {
	if o.sparse != nil {
		return o.sparse.MulTransDense(dst, b)
	}
	o.blocks(dst, b, o.cols, func(lo, hi int) mat.Matrix { return o.dense.Slice(0, o.rows, lo, hi).T() })
	return nil
}

// blocks sets rows [lo, hi) of dst (rows×k) to factor(lo, hi)·B for each block of denseBlock
// rows, in parallel.
func (o *operator) blocks(dst, b *mat.Dense, rows int, factor func(lo, hi int) mat.Matrix) {
	_, k := b.Dims()
	parallel.For(parallel.BlockCount(rows, denseBlock), func(_, block int) {
		lo := block * denseBlock
		hi := min(rows, lo+denseBlock)
		dst.Slice(lo, hi, 0, k).(*mat.Dense).Mul(factor(lo, hi), b)
	})
}

// toDense returns A as a dense matrix, converting sparse data only when it has at most
// maxDenseEntries entries. The result may be the caller's own *mat.Dense: do not change it.
func (o *operator) toDense(op string) (*mat.Dense, error) {
	if o.dense != nil {
		return o.dense, nil
	}
	if o.rows*o.cols > maxDenseEntries {
		return nil, fmt.Errorf("factor: %s: the sparse %d×%d matrix has more than %d entries when dense; use RandomizedSVD for it", op, o.rows, o.cols, maxDenseEntries)
	}
	d := mat.NewDense(o.rows, o.cols, nil)
	for i := range o.rows {
		idx, vals := o.sparse.Row(i)
		row := d.RawRowView(i)
		for p, j := range idx {
			row[j] = vals[p]
		}
	}
	return d, nil
}

// maxDenseEntries caps the size of a sparse matrix that an algorithm needing dense storage
// (the classic SVD) converts: 2²⁶ entries, 512 MiB of float64.
const maxDenseEntries = 1 << 26

// columnStats returns the column means of A and the sum of squares of the centred entries,
// Σ_ij (a_ij − mean_j)², in two passes (no cancellation from Σa² − m·mean²): for sparse data
// the entries not stored contribute (m − count_j)·mean_j² per column.
func (o *operator) columnStats() (mean []float64, centred float64) {
	mean = make([]float64, o.cols)
	stored := make([]int, o.cols)
	o.eachRow(func(idx []int, vals []float64) {
		for p, j := range idx {
			mean[j] += vals[p]
			stored[j]++
		}
	})
	for j := range mean {
		mean[j] /= float64(o.rows)
	}
	o.eachRow(func(idx []int, vals []float64) {
		for p, j := range idx {
			d := vals[p] - mean[j]
			centred += d * d
		}
	})
	for j, mu := range mean {
		centred += float64(o.rows-stored[j]) * mu * mu
	}
	return mean, centred
}

// eachRow calls f with the column indices and values of each row of A in order (all columns for
// dense data, the stored ones for sparse data).
func (o *operator) eachRow(f func(idx []int, vals []float64)) {
	if o.sparse != nil {
		for i := range o.rows {
			f(o.sparse.Row(i))
		}
		return
	}
	all := make([]int, o.cols)
	for j := range all {
		all[j] = j
	}
	for i := range o.rows {
		f(all, o.dense.RawRowView(i))
	}
}
