package lowrank

import (
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

func TestScratchGemm(t *testing.T) {
	for _, rows := range []int{524, 4194, 100000} {
		a := randomPoints(1, rows, 500)
		b := randomPoints(2, 500, 500)
		c := mat.NewDense(rows, 500, nil)
		best := time.Hour
		for range 3 {
			t0 := time.Now()
			for i0 := 0; i0 < 100000; i0 += rows {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a.RawMatrix(), b.RawMatrix(), 0, c.RawMatrix())
			}
			best = min(best, time.Since(t0))
		}
		t.Logf("rows %d: %v for 100000 rows, %.1f GFLOP/s", rows, best, 2*100000*500*500/best.Seconds()/1e9)
	}
}
