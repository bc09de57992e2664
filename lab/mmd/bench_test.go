package mmd

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/blasbackend"
)

// The sizes of the performance goals of issue 5: d = 54 (covertype's features), each estimator
// at n = m = 10⁵, the exact MMD at 10⁴, Nyström and RFF at 10⁶ points per sample. The data are
// uniform on [0, 1)^54, whose mean squared distance is 54/6 = 9, hence σ = 3; s is the default
// log n.
const (
	benchD     = 54
	benchSigma = 3
)

// uniformRows returns n seeded points of [0, 1)^d.
func uniformRows(seed uint64, n, d int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	data := make([]float64, n*d)
	for i := range data {
		data[i] = rng.Float64()
	}
	return mat.NewDense(n, d, data)
}

var (
	bench2e5 = sync.OnceValue(func() *mat.Dense { return uniformRows(1, 200000, benchD) })
	bench2e6 = sync.OnceValue(func() *mat.Dense { return uniformRows(2, 2000000, benchD) })
)

func benchEstimator(b *testing.B, est Estimator, p Points, x, z []int) {
	b.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if _, err := est.MMD2(ctx, rng, p, x, z); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEstimators runs every approximation at n = m = 10⁵ (s = 12), the samples being the two
// halves of one 2·10⁵ × 54 matrix.
func BenchmarkEstimators(b *testing.B) {
	p := mustVectors(b, mustGaussian(b, benchSigma), bench2e5())
	x, z := span(0, 100000), span(100000, 200000)
	b.Logf("BLAS: %s", blasbackend.Backend())
	for _, est := range []Estimator{Linear{}, Block{}, RFF{}, Nystrom{Lambda: 1e-3}} {
		b.Run(fmt.Sprintf("%s/n=1e5", est.Name()), func(b *testing.B) { benchEstimator(b, est, p, x, z) })
	}
}

// BenchmarkExact is the exact MMD² at n = m = 10⁴ (3·10⁸ kernel values, of which 2·10⁸ computed).
func BenchmarkExact(b *testing.B) {
	p := mustVectors(b, mustGaussian(b, benchSigma), bench2e5())
	b.Logf("BLAS: %s", blasbackend.Backend())
	benchEstimator(b, Exact{}, p, span(0, 10000), span(10000, 20000))
}

// BenchmarkMillion runs Nyström and RFF at n = m = 10⁶ (s = 14): "contiguous" on the two halves
// of a 2·10⁶ × 54 matrix (860 MB), "resampled" on 10⁶ indices per sample drawn with replacement
// from the 2·10⁵ rows of the smaller matrix (rows gathered on the fly, as when a data set is
// resampled up to n).
func BenchmarkMillion(b *testing.B) {
	k := mustGaussian(b, benchSigma)
	rng := rand.New(rand.NewPCG(3, 3))
	rx, rz := make([]int, 1000000), make([]int, 1000000)
	for i := range rx {
		rx[i], rz[i] = rng.IntN(200000), rng.IntN(200000)
	}
	for _, est := range []Estimator{RFF{}, Nystrom{Lambda: 1e-3}} {
		b.Run(est.Name()+"/resampled", func(b *testing.B) {
			benchEstimator(b, est, mustVectors(b, k, bench2e5()), rx, rz)
		})
		b.Run(est.Name()+"/contiguous", func(b *testing.B) {
			benchEstimator(b, est, mustVectors(b, k, bench2e6()), span(0, 1000000), span(1000000, 2000000))
		})
	}
}
