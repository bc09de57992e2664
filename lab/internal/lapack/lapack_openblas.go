//go:build openblas && cgo

package lapack

/*
#cgo LDFLAGS: -lopenblas
#include <stddef.h>

// LAPACK's Fortran interface as exported by OpenBLAS (gfortran adds the lengths of the
// character arguments at the end).
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
	double *w, double *work, const int *lwork, int *iwork, const int *liwork, int *info,
	size_t jobz_len, size_t uplo_len);
*/
import "C"

import (
	"fmt"

	// OpenBLAS runs single-threaded unless told otherwise (see package lab/blasbackend).
	_ "github.com/fastkernels/kernellab/lab/blasbackend"
)

// Available reports whether [EigenSym] and [EigenValuesSym] run LAPACK in this build.
const Available = true

// EigenSym computes all eigenvalues and eigenvectors of the n×n symmetric matrix whose upper
// triangle is stored row-major in a (len n², the lower triangle is not read) with LAPACK's dsyevd.
// On return values holds the eigenvalues in increasing order and row j of a (a[j·n:(j+1)·n]) the
// unit eigenvector of values[j]. It fails when LAPACK does not converge (the error gives the
// routine's info code). Extra memory: 2n² + 6n doubles and 5n ints of workspace.
func EigenSym(n int, a, values []float64) error {
	// Row-major upper storage is column-major lower storage of the same matrix, and the
	// column-major eigenvector matrix read row-major has the eigenvectors as rows.
	return dsyevd("EigenSym", 'V', n, a, values, 1+6*n+2*n*n, 3+5*n)
}

// EigenValuesSym computes the eigenvalues, in increasing order, of the n×n symmetric matrix whose
// upper triangle is stored row-major in a (len n², overwritten; the lower triangle is not read),
// with dsyevd without eigenvectors: a blocked reduction to tridiagonal form (most of it matrix
// products) followed by dsterf, O(n³) time like [EigenSym] but about a third of its work and 2n + 1
// doubles of workspace. It fails when LAPACK does not converge.
func EigenValuesSym(n int, a, values []float64) error {
	return dsyevd("EigenValuesSym", 'N', n, a, values, 2*n+1, 1)
}

// dsyevd calls LAPACK's dsyevd with jobz ('V': vectors too, 'N': values only) on the lower
// triangle of the column-major n×n a, with workspaces of lwork doubles and liwork ints.
func dsyevd(op string, job byte, n int, a, values []float64, lwork, liwork int) error {
	if n == 0 {
		return nil
	}
	if len(a) < n*n || len(values) < n {
		panic("lapack: " + op + ": slices shorter than n")
	}
	jobz, uplo := C.char(job), C.char('L')
	cn, clwork, cliwork := C.int(n), C.int(lwork), C.int(liwork)
	work := make([]float64, lwork)
	iwork := make([]C.int, liwork)
	var info C.int
	C.dsyevd_(&jobz, &uplo, &cn, (*C.double)(&a[0]), &cn, (*C.double)(&values[0]),
		(*C.double)(&work[0]), &clwork, &iwork[0], &cliwork, &info, 1, 1)
	if info != 0 {
		return fmt.Errorf("LAPACK dsyevd (jobz %c) failed on a %d×%d matrix: info = %d (> 0: no convergence)", job, n, n, int(info))
	}
	return nil
}
