package lowrank

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func BenchmarkScratchRFFInto(b *testing.B) {
	x := benchData()
	r, _ := NewRFFGaussian(rand.New(rand.NewPCG(1, 1)), benchD, benchS, benchSigma)
	dst := mat.NewDense(benchN, benchS, nil)
	b.ResetTimer()
	for range b.N {
		if err := r.TransformInto(dst, x); err != nil {
			b.Fatal(err)
		}
	}
}
