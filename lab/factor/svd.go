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

// TruncatedSVD returns the k leading singular triplets of A, exactly (to rounding), with p =
// min(m, n): in builds with the tag openblas and cgo (see lab/blasbackend), LAPACK's dgesvdx through
// OpenBLAS when k ≤ p/4 (bisection and inverse iteration for the k largest values of the
// bidiagonal form, and k vectors transformed back: 1.7 times faster than the full SVD for k = 50
// of a 2000 × 1000 matrix), else its dgesdd, the thin SVD by divide and conquer, truncated;
// gonum's pure-Go thin SVD, truncated, in other builds. It is the "classic SVD" of the student
// slides against which the randomized methods are measured. Signs are fixed so that
// the largest-magnitude entry of each column of U is positive.
//
// A may be dense or a *[csr.Matrix]; sparse data are densified, which is refused above 2²⁶
// entries (use [RandomizedSVD] for a large bag of words). A is not modified.
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
	if lapack.Available && 4*k <= min(o.rows, o.cols) {
		return lapackSVD(op, d, k)
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
	if lapack.Available {
		return lapackSVD(op, a, p)
	}
	res := &SVD{U: mat.NewDense(m, p, nil), Values: make([]float64, p), V: mat.NewDense(n, p, nil)}
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, fmt.Errorf("factor: %s: the SVD of the %d×%d matrix did not converge", op, m, n)
	}
	svd.UTo(res.U)
	svd.VTo(res.V)
	svd.Values(res.Values)
	return res, checkAndFixSigns(op, res)
}

// lapackSVD returns the k leading triplets of a (m×n, not modified) by LAPACK: dgesdd's thin SVD
// when k = min(m, n), dgesvdx otherwise; signs fixed as TruncatedSVD says.
func lapackSVD(op string, a *mat.Dense, k int) (*SVD, error) {
	m, n := a.Dims()
	res := &SVD{U: mat.NewDense(m, k, nil), Values: make([]float64, k), V: mat.NewDense(n, k, nil)}
	vt := mat.NewDense(k, n, nil)
	work := mat.DenseCopyOf(a).RawMatrix().Data
	svd := lapack.SVD
	if k < min(m, n) {
		svd = func(m, n int, a, s, u, vt []float64) error { return lapack.SVDLeading(m, n, k, a, s, u, vt) }
	}
	if err := svd(m, n, work, res.Values, res.U.RawMatrix().Data, vt.RawMatrix().Data); err != nil {
		return nil, fmt.Errorf("factor: %s: %w", op, err)
	}
	res.V.Copy(vt.T())
	return res, checkAndFixSigns(op, res)
}

// checkAndFixSigns refuses non-finite singular values and fixes the signs of s's vectors.
func checkAndFixSigns(op string, s *SVD) error {
	if err := finiteResult(op, mat.NewDense(1, len(s.Values), s.Values)); err != nil {
		return err
	}
	fixSigns(s.U, s.V)
	return nil
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
