package csr

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Matrix is a rows×cols sparse matrix of float64 in compressed-sparse-row form. Make it with New
// or [FromTriplets]; the zero value is not usable.
type Matrix struct {
	rows, cols int
	indptr     []int     // rows+1 offsets into indices and data
	indices    []int     // column of each stored value, increasing within a row
	data       []float64 // stored values, finite

	transposeOnce sync.Once
	transpose     *Matrix // CSR of Aᵀ, built by the first MulTransDense
	transposeErr  error   // why it could not be built
}

// New returns the rows×cols matrix whose row i has the values data[indptr[i]:indptr[i+1]] in the
// columns indices[indptr[i]:indptr[i+1]]. The slices are used as they are, not copied (as
// mat.NewDense does): do not change them afterwards.
// Errors: rows or cols below 1; len(indptr) ≠ rows+1; indptr not starting at 0, decreasing, or
// not ending at len(indices) = len(data); a column index outside [0, cols) or not strictly
// increasing within its row (unsorted or repeated); a NaN or ±Inf value.
func New(rows, cols int, indptr, indices []int, data []float64) (*Matrix, error) {
	const op = "csr: New"
	if rows < 1 || cols < 1 {
		return nil, fmt.Errorf("%s: shape %d×%d, want at least 1×1", op, rows, cols)
	}
	if len(indptr) != rows+1 {
		return nil, laberr.Errorf(laberr.ErrShape, "%s: len(indptr) = %d, want rows+1 = %d", op, len(indptr), rows+1)
	}
	if len(indices) != len(data) {
		return nil, laberr.Errorf(laberr.ErrShape, "%s: len(indices) = %d but len(data) = %d", op, len(indices), len(data))
	}
	if indptr[0] != 0 || indptr[rows] != len(data) {
		return nil, fmt.Errorf("%s: indptr runs from %d to %d, want 0 to len(data) = %d", op, indptr[0], indptr[rows], len(data))
	}
	for i := range rows {
		lo, hi := indptr[i], indptr[i+1]
		if hi < lo || hi > len(data) {
			return nil, fmt.Errorf("%s: indptr[%d] = %d after indptr[%d] = %d: want non-decreasing offsets within [0, %d]", op, i+1, hi, i, lo, len(data))
		}
		for p := lo; p < hi; p++ {
			j := indices[p]
			if j < 0 || j >= cols {
				return nil, fmt.Errorf("%s: row %d has column index %d, want 0 ≤ j < %d", op, i, j, cols)
			}
			if p > lo && j <= indices[p-1] {
				return nil, fmt.Errorf("%s: row %d has column %d after column %d: want strictly increasing indices within a row", op, i, j, indices[p-1])
			}
			if v := data[p]; v-v != 0 {
				return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: entry [%d,%d] = %g, want finite values", op, i, j, v)
			}
		}
	}
	return &Matrix{rows: rows, cols: cols, indptr: indptr, indices: indices, data: data}, nil
}

// FromTriplets returns the rows×cols matrix with the value v[t] at (i[t], j[t]) for each t;
// values given for the same position are summed (as scipy's coo→csr conversion does), and
// explicit zeros are kept. Triplets may come in any order; i, j and v are not changed.
// Errors: rows or cols below 1, slices of different lengths, a position outside the shape, a NaN
// or ±Inf value. Cost: O(nnz log nnz) time, O(nnz) memory.
func FromTriplets(rows, cols int, i, j []int, v []float64) (*Matrix, error) {
	const op = "csr: FromTriplets"
	if rows < 1 || cols < 1 {
		return nil, fmt.Errorf("%s: shape %d×%d, want at least 1×1", op, rows, cols)
	}
	if err := memlimit.Check(op, fmt.Sprintf("the row offsets of %d rows", rows), 8, rows, 1); err != nil {
		return nil, err
	}
	if len(i) != len(v) || len(j) != len(v) {
		return nil, laberr.Errorf(laberr.ErrShape, "%s: %d row indices, %d column indices and %d values, want equal counts", op, len(i), len(j), len(v))
	}
	for t := range v {
		if i[t] < 0 || i[t] >= rows || j[t] < 0 || j[t] >= cols {
			return nil, fmt.Errorf("%s: triplet %d at (%d, %d) lies outside the %d×%d shape", op, t, i[t], j[t], rows, cols)
		}
		if v[t]-v[t] != 0 {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: triplet %d at (%d, %d) has value %g, want finite values", op, t, i[t], j[t], v[t])
		}
	}
	order := make([]int, len(v))
	for t := range order {
		order[t] = t
	}
	// A stable sort sums duplicates in the order they were given: the result does not depend
	// on the sort's internals.
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := order[a], order[b]
		if i[ta] != i[tb] {
			return i[ta] < i[tb]
		}
		return j[ta] < j[tb]
	})
	indptr := make([]int, rows+1)
	indices := make([]int, 0, len(v))
	data := make([]float64, 0, len(v))
	for k, t := range order {
		if k > 0 && i[t] == i[order[k-1]] && j[t] == j[order[k-1]] {
			data[len(data)-1] += v[t]
			continue
		}
		indptr[i[t]+1]++
		indices = append(indices, j[t])
		data = append(data, v[t])
	}
	for r := range rows {
		indptr[r+1] += indptr[r]
	}
	for p, x := range data {
		if x-x != 0 {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: the values summed at (%d, %d) overflow to %g", op, rowOf(indptr, p), indices[p], x)
		}
	}
	return &Matrix{rows: rows, cols: cols, indptr: indptr, indices: indices, data: data}, nil
}

// rowOf returns the row whose stored values include position p.
func rowOf(indptr []int, p int) int {
	r, _ := slices.BinarySearch(indptr, p+1)
	for indptr[r] > p {
		r--
	}
	return r
}

// Dims returns the shape of the matrix.
func (m *Matrix) Dims() (r, c int) { return m.rows, m.cols }

// At returns the value at (i, j), 0 where none is stored. It panics when (i, j) is outside the
// matrix, as gonum's matrices do. Cost: O(log nnz of row i).
func (m *Matrix) At(i, j int) float64 {
	if i < 0 || i >= m.rows || j < 0 || j >= m.cols {
		panic(mat.ErrIndexOutOfRange)
	}
	cols, vals := m.Row(i)
	if p, found := slices.BinarySearch(cols, j); found {
		return vals[p]
	}
	return 0
}

// T returns the transpose as gonum's implicit mat.Transpose (no copy; elements through At).
func (m *Matrix) T() mat.Matrix { return mat.Transpose{Matrix: m} }

// NNZ returns the number of stored values (explicit zeros included).
func (m *Matrix) NNZ() int { return len(m.data) }

// Row returns the column indices (strictly increasing) and values stored in row i, as views into
// the matrix's storage: read them, do not change them. It panics when i is outside [0, rows).
func (m *Matrix) Row(i int) (indices []int, values []float64) {
	if i < 0 || i >= m.rows {
		panic(mat.ErrRowAccess)
	}
	lo, hi := m.indptr[i], m.indptr[i+1]
	return m.indices[lo:hi:hi], m.data[lo:hi:hi]
}

// Transpose returns Aᵀ as a new CSR matrix (the CSC form of A), built by a counting sort in
// O(nnz + rows + cols) time; MulTransDense builds it once and keeps it. Errors: column offsets
// (cols + 1 of them) above memlimit, for a matrix of very many columns and few values.
func (m *Matrix) Transpose() (*Matrix, error) {
	if err := memlimit.Check("csr: Transpose", fmt.Sprintf("the column offsets of %d columns", m.cols), 8, m.cols, 1); err != nil {
		return nil, err
	}
	indptr := make([]int, m.cols+1)
	for _, j := range m.indices {
		indptr[j+1]++
	}
	for j := range m.cols {
		indptr[j+1] += indptr[j]
	}
	next := slices.Clone(indptr[:m.cols])
	indices := make([]int, len(m.data))
	data := make([]float64, len(m.data))
	for i := range m.rows {
		cols, vals := m.Row(i)
		for p, j := range cols {
			q := next[j]
			next[j]++
			indices[q] = i // rows are visited in order, so indices stay increasing
			data[q] = vals[p]
		}
	}
	return &Matrix{rows: m.cols, cols: m.rows, indptr: indptr, indices: indices, data: data}, nil
}
