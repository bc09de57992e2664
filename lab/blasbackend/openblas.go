//go:build openblas && cgo

package blasbackend

/*
#cgo LDFLAGS: -lopenblas
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char* openblas_get_corename(void);
*/
import "C"

import (
	"os"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// init routes gonum's float64 BLAS to OpenBLAS (Debian's libopenblas-dev provides the library
// and the cblas symbols; CGO_LDFLAGS=-lopenblas is accepted but no longer needed).
//
// It also makes each OpenBLAS call single-threaded unless OPENBLAS_NUM_THREADS or
// OMP_NUM_THREADS says otherwise: the lab already runs GOMAXPROCS goroutines over row blocks
// (see lab/kernel), and OpenBLAS threads on top of those oversubscribe the cores, spin while
// waiting and serialise concurrent callers.
func init() {
	blas64.Use(netlib.Implementation{})
	backend = OpenBLAS
	if os.Getenv("OPENBLAS_NUM_THREADS") == "" && os.Getenv("OMP_NUM_THREADS") == "" {
		C.openblas_set_num_threads(1)
	}
}

// threads returns the number of threads OpenBLAS uses per call.
func threads() int { return int(C.openblas_get_num_threads()) }

// coreName returns the kernel set OpenBLAS chose (a static string inside the library).
func coreName() string { return C.GoString(C.openblas_get_corename()) }
