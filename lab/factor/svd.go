package factor

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/lapack"
)

// SVD is a truncated singular value decomposition A ≈ U·diag(Values)·Vᵀ of an m×n matrix.
type SVD struct {
	U      *mat.Dense // m×k, orthonormal columns: the leading left singular vectors
	Values []float64  // k singular values, decreasing
	V      *mat.Dense // n×k, orthonormal columns: the leading right singular vectors
}

// TruncatedSVD returns the k leading singular triplets of A from its exact thin SVD: LAPACK's
// dgesdd (divide and conquer) through OpenBLAS in builds with the tag openblas and cgo (see
// lab/blas), gonum's pure-Go SVD otherwise. It is the "classic SVD" of the student slides
// (seed 002) against which the randomized methods are measured. Signs are fixed so that the
// largest-magnitude entry of each column of U is positive.
//
// A may be dense or a *csr.Matrix; sparse data are densified, which is refused above 2²⁶
// entries (use RandomizedSVD for a large bag of words). A is not modified.
// Errors: nil/empty A, NaN or ±Inf, k outside [1, min(m, n)], an SVD that does not converge or
// overflows. Cost: O(m·n·min(m, n)) time, O(m·n + (m + n)·min(m, n)) memory.
func TruncatedSVD(a mat.Matrix, k int) (*SVD, error) {
	const op = "TruncatedSVD"
	o, err := rankOperator(op, a, k)
	if err != nil {
		return nil, err
	}
	d, err := o.toDense(op)
	if err != nil {
		return nil, err
	}
	res, err := thinSVD(op, d)
	if err != nil {
		return nil, err
	}
	return res.truncate(k), nil
}

// rankOperator is newOperator for the data A of a rank-k factorisation: it also checks that
// 1 ≤ k ≤ min(m, n).
func rankOperator(op string, a mat.Matrix, k int) (*operator, error) {
	o, err := newOperator(op, "A", a)
	if err != nil {
		return nil, err
	}
	if limit := min(o.rows, o.cols); k < 1 || k > limit {
		return nil, fmt.Errorf("factor: %s: k = %d, want 1 ≤ k ≤ min(m, n) = %d for the %d×%d A", op, k, limit, o.rows, o.cols)
	}
	return o, nil
}

// thinSVD returns the thin SVD of a (m×n, not modified), with p = min(m, n) triplets and signs
// fixed as TruncatedSVD says.
func thinSVD(op string, a *mat.Dense) (*SVD, error) {
	m, n := a.Dims()
	p := min(m, n)
	res := &SVD{U: mat.NewDense(m, p, nil), Values: make([]float64, p), V: mat.NewDense(n, p, nil)}
	if lapack.Available {
		vt := mat.NewDense(p, n, nil)
		work := mat.DenseCopyOf(a).RawMatrix().Data
		if err := lapack.SVD(m, n, work, res.Values, res.U.RawMatrix().Data, vt.RawMatrix().Data); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		res.V.Copy(vt.T())
	} else {
		var svd mat.SVD
		if !svd.Factorize(a, mat.SVDThin) {
			return nil, fmt.Errorf("factor: %s: the SVD of the %d×%d matrix did not converge", op, m, n)
		}
		svd.UTo(res.U)
		svd.VTo(res.V)
		svd.Values(res.Values)
	}
	if err := finiteResult(op, mat.NewDense(1, p, res.Values)); err != nil {
		return nil, err
	}
	fixSigns(res.U, res.V)
	return res, nil
}

// truncate returns the first k triplets of s (copies, so s's storage can be released).
func (s *SVD) truncate(k int) *SVD {
	m, _ := s.U.Dims()
	n, _ := s.V.Dims()
	return &SVD{
		U:      mat.DenseCopyOf(s.U.Slice(0, m, 0, k)),
		Values: append([]float64(nil), s.Values[:k]...),
		V:      mat.DenseCopyOf(s.V.Slice(0, n, 0, k)),
	}
}
