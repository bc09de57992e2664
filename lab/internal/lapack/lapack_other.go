//go:build !(openblas && cgo)

package lapack

import "errors"

// Available reports whether [EigenSym] and [EigenValuesSym] run LAPACK in this build: not in this one (build with the
// tag openblas and cgo to link OpenBLAS's LAPACK).
const Available = false

// EigenSym reports that this build has no LAPACK; callers check Available first.
func EigenSym(n int, a, values []float64) error {
	return errors.New("lapack: EigenSym: no LAPACK in this build (tag openblas and cgo needed)")
}

// EigenValuesSym reports that this build has no LAPACK; callers check Available first.
func EigenValuesSym(n int, a, values []float64) error {
	return errors.New("lapack: EigenValuesSym: no LAPACK in this build (tag openblas and cgo needed)")
}
