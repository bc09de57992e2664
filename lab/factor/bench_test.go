package factor

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/blasbackend"
)

// The sizes of issue 14: randomized SVD of a 20000×1000 matrix with k = 50, p = 10 and q = 4, dense
// and sparse (density 0.5%), and the classic truncated SVD of a 2000×1000 matrix.
const (
	benchRows, benchCols = 20000, 1000
	benchK               = 50
	benchDensity         = 0.005
)

var benchOptions = RandomizedSVDOptions{Oversample: 10, PowerIterations: 4}

func benchRandomizedSVD(b *testing.B, a mat.Matrix) {
	b.Logf("BLAS: %s", blasbackend.Backend())
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		if _, err := RandomizedSVD(rng, a, benchK, benchOptions); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomizedSVDDense(b *testing.B) {
	a := mat.NewDense(benchRows, benchCols, nil)
	fillGaussian(rand.New(rand.NewPCG(2, 2)), a)
	benchRandomizedSVD(b, a)
}

func BenchmarkRandomizedSVDSparse(b *testing.B) {
	benchRandomizedSVD(b, sparseOf(b, randomSparse(rand.New(rand.NewPCG(3, 3)), benchRows, benchCols, benchDensity)))
}

func BenchmarkTruncatedSVD(b *testing.B) {
	b.Logf("BLAS: %s", blasbackend.Backend())
	a := mat.NewDense(2000, 1000, nil)
	fillGaussian(rand.New(rand.NewPCG(4, 4)), a)
	for b.Loop() {
		if _, err := TruncatedSVD(a, benchK); err != nil {
			b.Fatal(err)
		}
	}
}
