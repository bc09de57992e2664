//go:build !(openblas && cgo)

package blasbackend

// threads is 0: gonum's pure-Go BLAS has no thread setting of its own.
func threads() int { return 0 }

// coreName is PureGoCore: gonum's kernels are chosen by the Go toolchain, not at run time.
func coreName() string { return PureGoCore }
