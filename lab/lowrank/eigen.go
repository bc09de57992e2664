package lowrank

import (
	"errors"
	"math"
	"sort"

	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/lapack"
)

// DefaultCutoff is the relative eigenvalue cut-off of the pseudo-inverses: eigenvalues at or below
// DefaultCutoff·λ_max are treated as zero. It plays the role of scikit-learn's clamp of the
// singular values of K_SS at 1e-12, made relative so that it does not depend on the kernel's
// scale.
const DefaultCutoff = 1e-12

var errEigen = errors.New("symmetric eigendecomposition did not converge")

// eigenDescending returns the eigenvalues of a in decreasing order and the matching unit
// eigenvectors as the columns of vectors.
//
// With OpenBLAS (build tag openblas) it calls LAPACK's divide-and-conquer dsyevd: about 30 ms of
// CPU time at n = 500 (the landmark matrix of the Nyström benchmark) against about 80 ms for the
// pure-Go path below, on a 2-core AMD EPYC test machine. Otherwise it reduces a to tridiagonal form T = QᵀAQ with gonum's Householder routines (Dsytrd,
// Dorgtr: blocked, matrix-product bound) and then runs the implicit QL iteration with Wilkinson
// shifts (the tql2 algorithm of EISPACK) on T, applying each plane rotation to two contiguous rows
// of Qᵀ (with AVX-512 where available). gonum's EigenSym (Dsteqr) applies the same rotations to
// two strided columns of a row-major matrix, one element at a time: at n = 500 this takes about
// 75 ms against 160 ms for EigenSym. Time O(n³), memory about 3n² doubles (4n² with LAPACK's
// workspace).
func eigenDescending(a mat.Symmetric) (values []float64, vectors *mat.Dense, err error) {
	n := a.SymmetricDim()
	upper := upperRowMajor(a)
	// rows[j·n:(j+1)·n] is the eigenvector of d[j].
	d, rows := make([]float64, n), upper
	if lapack.Available {
		if err := lapack.EigenSym(n, rows, d); err != nil {
			return nil, nil, err
		}
	} else if rows, err = eigenQL(upper, d); err != nil {
		return nil, nil, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return d[order[x]] > d[order[y]] })
	values = make([]float64, n)
	vectors = mat.NewDense(n, n, nil)
	raw := vectors.RawMatrix()
	for j, from := range order {
		values[j] = d[from]
		for i, v := range rows[from*n : from*n+n] {
			raw.Data[i*raw.Stride+j] = v
		}
	}
	return values, vectors, nil
}

// eigenvalues returns the eigenvalues of a, unsorted, without eigenvectors: LAPACK's dsyevd with
// OpenBLAS, otherwise gonum's EigenSym (Dsytrd then Dsterf). Time O(n³), about a third of
// eigenDescending's work; memory n² doubles for the copy LAPACK overwrites (gonum's path makes its
// own).
func eigenvalues(a mat.Symmetric) ([]float64, error) {
	n := a.SymmetricDim()
	values := make([]float64, n)
	if !lapack.Available {
		var eig mat.EigenSym
		if !eig.Factorize(a, false) {
			return nil, errEigen
		}
		return eig.Values(values), nil
	}
	if err := lapack.EigenValuesSym(n, upperRowMajor(a), values); err != nil {
		return nil, err
	}
	return values, nil
}

// upperRowMajor returns the upper triangle of a stored row-major in a new n×n slice (the lower
// triangle zero): the layout lapack and eigenQL take and overwrite.
func upperRowMajor(a mat.Symmetric) []float64 {
	n := a.SymmetricDim()
	upper := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			upper[i*n+j] = a.At(i, j)
		}
	}
	return upper
}

// eigenQL is the pure-Go path of eigenDescending: q holds the upper triangle of the n×n matrix
// (row-major, overwritten), d receives the eigenvalues (unsorted) and the result, row j, the
// eigenvector of d[j].
func eigenQL(q, d []float64) (rows []float64, err error) {
	n := len(d)
	e := make([]float64, n) // e[:n-1] from Dsytrd, e[n-1] = 0 for the QL iteration
	tau := make([]float64, max(1, n-1))
	var impl gonumlapack.Implementation
	query := make([]float64, 2)
	impl.Dsytrd(blas.Upper, n, q, n, d, e[:max(0, n-1)], tau[:max(0, n-1)], query[:1], -1)
	impl.Dorgtr(blas.Upper, n, q, n, tau[:max(0, n-1)], query[1:], -1)
	work := make([]float64, max(int(query[0]), int(query[1]), n, 1))
	impl.Dsytrd(blas.Upper, n, q, n, d, e[:max(0, n-1)], tau[:max(0, n-1)], work, len(work))
	impl.Dorgtr(blas.Upper, n, q, n, tau[:max(0, n-1)], work, len(work))

	// rows[j] is column j of Q, then of the eigenvector matrix as the rotations accumulate.
	rows = make([]float64, n*n)
	for i := range n {
		for j := range n {
			rows[j*n+i] = q[i*n+j]
		}
	}
	if !tridiagonalQL(d, e, rows, n) {
		return nil, errEigen
	}
	return rows, nil
}

// tridiagonalQL diagonalises the symmetric tridiagonal matrix with diagonal d and off-diagonal
// e[:n-1] (e[n-1] = 0) by the implicit QL method, leaving the eigenvalues in d (unsorted) and
// applying every rotation to the n rows of length n stored in rows. It reports false if an
// eigenvalue needs more than 60 iterations (LAPACK allows 30).
func tridiagonalQL(d, e, rows []float64, n int) bool {
	const eps = 0x1p-52
	var shift, largest float64
	for l := range n {
		largest = max(largest, math.Abs(d[l])+math.Abs(e[l]))
		m := l
		for m < n-1 && math.Abs(e[m]) > eps*largest {
			m++
		}
		for iter := 0; m > l; iter++ {
			if iter == 60 {
				return false
			}
			// Wilkinson-like shift from the leading 2×2 block, applied to d[l:].
			g := d[l]
			p := (d[l+1] - g) / (2 * e[l])
			r := math.Hypot(p, 1)
			if p < 0 {
				r = -r
			}
			d[l] = e[l] / (p + r)
			d[l+1] = e[l] * (p + r)
			dl1 := d[l+1]
			h := g - d[l]
			for i := l + 2; i < n; i++ {
				d[i] -= h
			}
			shift += h
			// Implicit QL sweep from m-1 down to l.
			p = d[m]
			c, c2, c3 := 1.0, 1.0, 1.0
			el1 := e[l+1]
			s, s2 := 0.0, 0.0
			for i := m - 1; i >= l; i-- {
				c3, c2, s2 = c2, c, s
				g = c * e[i]
				h = c * p
				r = math.Hypot(p, e[i])
				e[i+1] = s * r
				s = e[i] / r
				c = p / r
				p = c*d[i] - s*g
				d[i+1] = h + s*(c*g+s*d[i])
				rotateRows(rows[i*n:i*n+n], rows[(i+1)*n:(i+1)*n+n], c, s)
			}
			p = -s * s2 * c3 * el1 * e[l] / dl1
			e[l] = s * p
			d[l] = c * p
			if math.Abs(e[l]) <= eps*largest {
				break
			}
		}
		d[l] += shift
		e[l] = 0
	}
	return true
}

// rotateRowsScalar applies the plane rotation (c, s) to the rows a and b (a ← c·a − s·b,
// b ← s·a + c·b); rotateRows uses it where there is no vector code.
func rotateRowsScalar(a, b []float64, c, s float64) {
	b = b[:len(a)]
	for k, x := range a {
		y := b[k]
		a[k] = c*x - s*y
		b[k] = s*x + c*y
	}
}

// keptCount returns how many of the leading values (sorted in decreasing order) are above
// cutoff·values[0], at most limit: the numerical rank a rank-limit pseudo-inverse keeps.
func keptCount(values []float64, cutoff float64, limit int) int {
	if len(values) == 0 || !(values[0] > 0) {
		return 0
	}
	threshold := cutoff * values[0]
	kept := 0
	for kept < limit && kept < len(values) && values[kept] > threshold {
		kept++
	}
	return kept
}

// pseudoInverse returns a⁺ for a symmetric positive semi-definite a, through its eigenvalues
// above both cutoff·λ_max and floor (the others, and all non-positive ones, are treated as zero).
func pseudoInverse(a mat.Symmetric, cutoff, floor float64) (*mat.SymDense, error) {
	values, vectors, err := eigenDescending(a)
	if err != nil {
		return nil, err
	}
	n := len(values)
	kept := keptCount(values, cutoff, n)
	for kept > 0 && values[kept-1] <= floor {
		kept--
	}
	out := mat.NewSymDense(n, nil)
	if kept == 0 {
		return out, nil
	}
	scaled := mat.NewDense(n, kept, nil)
	for j := range kept {
		s := 1 / math.Sqrt(values[j])
		for i := range n {
			scaled.Set(i, j, vectors.At(i, j)*s)
		}
	}
	out.SymOuterK(1, scaled)
	return out, nil
}
