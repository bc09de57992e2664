//go:build openblas && cgo

package lapack

/*
#cgo LDFLAGS: -lopenblas
#include <stddef.h>

void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda,
	double *s, double *u, const int *ldu, double *vt, const int *ldvt,
	double *work, const int *lwork, int *iwork, int *info, size_t jobz_len);
void dgesvdx_(const char *jobu, const char *jobvt, const char *range, const int *m, const int *n,
	double *a, const int *lda, const double *vl, const double *vu, const int *il, const int *iu,
	int *ns, double *s, double *u, const int *ldu, double *vt, const int *ldvt,
	double *work, const int *lwork, int *iwork, int *info, size_t jobu_len, size_t jobvt_len,
	size_t range_len);
*/
import "C"

import "fmt"

// SVD computes the thin singular value decomposition A = U·diag(s)·Vᵀ of the m×n matrix stored
// row-major in a (len m·n, destroyed) with LAPACK's divide-and-conquer dgesdd. With p = min(m, n)
// it writes the singular values in decreasing order to s (len p), U row-major to u (m×p) and Vᵀ
// row-major to vt (p×n). It fails when LAPACK does not converge (the error gives the info code).
// Extra memory: LAPACK's workspace, about 4p² + 7p + max(m, n)·p doubles and 8p ints.
func SVD(m, n int, a, s, u, vt []float64) error {
	if m == 0 || n == 0 {
		return nil
	}
	p := min(m, n)
	if len(a) < m*n || len(s) < p || len(u) < m*p || len(vt) < p*n {
		panic("lapack: SVD: slices shorter than the shapes need")
	}
	// Row-major A is column-major Aᵀ (n×m). dgesdd factors Aᵀ = U'·S·V'ᵀ, so A = V'·S·U'ᵀ: the
	// column-major U' (n×p) read row-major is Vᵀ of A (p×n), and the column-major V'ᵀ (p×m)
	// read row-major is U of A (m×p).
	jobz := C.char('S')
	cm, cn, cp := C.int(n), C.int(m), C.int(p)
	iwork := make([]C.int, 8*p)
	var info C.int
	var size float64
	lwork := C.int(-1)
	C.dgesdd_(&jobz, &cm, &cn, (*C.double)(&a[0]), &cm, (*C.double)(&s[0]), (*C.double)(&vt[0]), &cm,
		(*C.double)(&u[0]), &cp, (*C.double)(&size), &lwork, &iwork[0], &info, 1)
	if info != 0 {
		return fmt.Errorf("LAPACK dgesdd workspace query failed on a %d×%d matrix: info = %d", m, n, int(info))
	}
	lwork = C.int(size)
	work := make([]float64, int(lwork))
	C.dgesdd_(&jobz, &cm, &cn, (*C.double)(&a[0]), &cm, (*C.double)(&s[0]), (*C.double)(&vt[0]), &cm,
		(*C.double)(&u[0]), &cp, (*C.double)(&work[0]), &lwork, &iwork[0], &info, 1)
	if info != 0 {
		return fmt.Errorf("LAPACK dgesdd failed on a %d×%d matrix: info = %d (> 0: no convergence)", m, n, int(info))
	}
	return nil
}

// SVDLeading computes the k leading singular triplets of the m×n matrix stored row-major in a
// (len m·n, destroyed) with LAPACK's dgesvdx: the bidiagonal reduction, then bisection and
// inverse iteration for the k largest singular values of the bidiagonal matrix alone (through
// its Golub–Kahan tridiagonal form), and the back-transformation of k vectors only. It writes
// the values in decreasing order to s (len k), U row-major to u (m×k) and Vᵀ row-major to vt
// (k×n). With p = min(m, n) it is faster than SVD while k is a small part of p (0.38 s against
// 0.66 s for k = 50 of a 2000 × 1000 matrix on one core; even at k = p/4, slower from about
// k = p/2). It fails when LAPACK reports an error or vectors that did not converge.
// Extra memory: LAPACK's workspace (O(p²) doubles, the size its query returns), p doubles and 12p
// ints.
func SVDLeading(m, n, k int, a, s, u, vt []float64) error {
	if m == 0 || n == 0 || k == 0 {
		return nil
	}
	p := min(m, n)
	if k > p || len(a) < m*n || len(s) < k || len(u) < m*k || len(vt) < k*n {
		panic("lapack: SVDLeading: k above min(m, n) or slices shorter than the shapes need")
	}
	// As in SVD: dgesvdx factors the column-major Aᵀ (n×m) = U'·S·V'ᵀ, so the column-major U'
	// (n×k) read row-major is Vᵀ of A (k×n) and the column-major V'ᵀ (k×m) is U of A (m×k).
	jobu, jobvt, rng := C.char('V'), C.char('V'), C.char('I')
	cm, cn, ck := C.int(n), C.int(m), C.int(k)
	il, iu := C.int(1), C.int(k)
	var vl, vu C.double
	var ns, info C.int
	iwork := make([]C.int, 12*p)
	values := make([]float64, p) // dgesvdx's S has min(m, n) entries, whatever k
	var size float64
	lwork := C.int(-1)
	call := func(work *float64) {
		C.dgesvdx_(&jobu, &jobvt, &rng, &cm, &cn, (*C.double)(&a[0]), &cm, &vl, &vu, &il, &iu, &ns,
			(*C.double)(&values[0]), (*C.double)(&vt[0]), &cm, (*C.double)(&u[0]), &ck,
			(*C.double)(work), &lwork, &iwork[0], &info, 1, 1, 1)
	}
	call(&size)
	if info != 0 {
		return fmt.Errorf("LAPACK dgesvdx workspace query failed on a %d×%d matrix: info = %d", m, n, int(info))
	}
	lwork = C.int(size)
	work := make([]float64, int(lwork))
	call(&work[0])
	switch {
	case info != 0:
		return fmt.Errorf("LAPACK dgesvdx failed on a %d×%d matrix: info = %d (> 0: vectors that did not converge)", m, n, int(info))
	case int(ns) != k:
		return fmt.Errorf("LAPACK dgesvdx found %d of the %d leading singular values of a %d×%d matrix", int(ns), k, m, n)
	}
	copy(s, values[:k])
	return nil
}
