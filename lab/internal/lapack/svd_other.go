//go:build !(openblas && cgo)

package lapack

import "errors"

// SVD reports that this build has no LAPACK; callers check Available first.
func SVD(m, n int, a, s, u, vt []float64) error {
	return errors.New("lapack: SVD: no LAPACK in this build (tag openblas and cgo needed)")
}

// SVDLeading reports that this build has no LAPACK; callers check Available first.
func SVDLeading(m, n, k int, a, s, u, vt []float64) error {
	return errors.New("lapack: SVDLeading: no LAPACK in this build (tag openblas and cgo needed)")
}
