package blas

// Names returned by Backend.
const (
	// PureGo names gonum's own BLAS, written in Go (with a little assembly).
	PureGo = "gonum (pure Go)"
	// OpenBLAS names OpenBLAS reached through cgo and gonum.org/v1/netlib.
	OpenBLAS = "OpenBLAS (cgo)"
)

// backend is replaced by openblas.go's init when the openblas build tag is set.
var backend = PureGo

// Backend reports the BLAS implementation that gonum's blas64 uses in this build: PureGo or
// OpenBLAS. Record it next to timings, which differ by an order of magnitude between the two.
func Backend() string { return backend }
