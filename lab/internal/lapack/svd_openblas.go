//go:build openblas && cgo

package lapack

/*
#cgo LDFLAGS: -lopenblas
#include <stddef.h>

void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda,
	double *s, double *u, const int *ldu, double *vt, const int *ldvt,
	double *work, const int *lwork, int *iwork, int *info, size_t jobz_len);
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
