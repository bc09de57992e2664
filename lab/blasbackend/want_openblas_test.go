//go:build openblas && cgo

package blasbackend

import (
	"os"
	"testing"
)

const wantBackend = OpenBLAS

func TestOpenBLASSingleThreadedByDefault(t *testing.T) {
	if os.Getenv("OPENBLAS_NUM_THREADS") != "" || os.Getenv("OMP_NUM_THREADS") != "" {
		t.Skip("thread count chosen through the environment")
	}
	if n := threads(); n != 1 {
		t.Fatalf("OpenBLAS uses %d threads per call, want 1", n)
	}
}
