// Package blasbackend chooses the BLAS implementation behind gonum for the whole program (its
// name keeps it apart from gonum's blas packages, which it configures).
//
// By default gonum's pure-Go BLAS is used (about 9 GFLOP/s per core for DGEMM on the reference
// machine). Built with the tag openblas and cgo enabled, importing this package switches gonum's
// blas64 (and therefore gonum/mat) to OpenBLAS through gonum.org/v1/netlib, which is an order of
// magnitude faster on the matrix products that dominate kernel methods:
//
//	CGO_LDFLAGS=-lopenblas go build -tags openblas ./...
//
// (CGO_LDFLAGS=-lopenblas is optional: the package links the library itself.) OpenBLAS then runs
// each call on the calling thread, unless OPENBLAS_NUM_THREADS or OMP_NUM_THREADS is set: the lab
// parallelises over row blocks with GOMAXPROCS goroutines, so split large products into blocks
// rather than relying on threads inside the BLAS.
//
// A package that wants OpenBLAS when it is available imports this one for its side effect:
//
//	import _ "github.com/fastkernels/kernellab/lab/blasbackend"
//
// With the same tag the lab also calls OpenBLAS's LAPACK where gonum's pure-Go one is slow (the
// symmetric eigendecomposition, see lab/internal/lapack).
//
// Backend reports which implementation is in use, so results and benchmarks can record it.
package blasbackend
