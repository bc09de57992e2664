package lowrank

import (
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// The sizes of the performance goals of issue 3: n = 100000 points in d = 54 dimensions (the size
// of covertype's features), s = 500 landmarks or D = 500 random features. The data are uniform on
// [0, 1)^54, whose mean squared distance is 54/6 = 9, hence σ = 3.
const (
	benchN     = 100000
	benchD     = 54
	benchS     = 500
	benchSigma = 3
)

var benchData = sync.OnceValue(func() *mat.Dense { return randomPoints(2024, benchN, benchD) })

// BenchmarkNystromFitTransform is scikit-learn's Nystroem(n_components=500).fit_transform(X):
// uniform landmarks, W and its eigendecomposition, then the n×s features.
func BenchmarkNystromFitTransform(b *testing.B) {
	x := benchData()
	k, err := kernel.NewGaussian(benchSigma)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("BLAS: %s", blasbackend.Backend())
	rng := rand.New(rand.NewPCG(1, 1))
	b.ResetTimer()
	for range b.N {
		landmarks, err := UniformLandmarks(rng, benchN, benchS)
		if err != nil {
			b.Fatal(err)
		}
		m, err := FitNystrom(k, x, landmarks, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Transform(x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNystromFit is the fit alone: the s×s kernel matrix and its eigendecomposition.
func BenchmarkNystromFit(b *testing.B) {
	x, k, landmarks := benchNystromInputs(b)
	for b.Loop() {
		if _, err := FitNystrom(k, x, landmarks, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// benchNystromInputs returns the benchmark data, the Gaussian kernel and s uniform landmarks.
func benchNystromInputs(b *testing.B) (*mat.Dense, kernel.Gaussian, []int) {
	k, err := kernel.NewGaussian(benchSigma)
	if err != nil {
		b.Fatal(err)
	}
	landmarks, err := UniformLandmarks(rand.New(rand.NewPCG(1, 1)), benchN, benchS)
	if err != nil {
		b.Fatal(err)
	}
	return benchData(), k, landmarks
}

// BenchmarkNystromMapGEMM times the product stage of Nystrom.Transform alone, the
// (n×s)·(s×k) GEMM run in the same row blocks on the same goroutines, from a precomputed K(X, S),
// and reports its rate in GFLOP/s (2·n·s·k flops) for comparison with the machine's DGEMM rate
// (bench/compare_sklearn.sh).
func BenchmarkNystromMapGEMM(b *testing.B) {
	x, k, landmarks := benchNystromInputs(b)
	m, err := FitNystrom(k, x, landmarks, 0)
	if err != nil {
		b.Fatal(err)
	}
	cross, err := kernel.Cross(k, x, m.points)
	if err != nil {
		b.Fatal(err)
	}
	// Touch the destination once outside the timing: first touches of fresh memory are slow.
	dst := mat.NewDense(benchN, m.Components(), nil)
	c, out := cross.RawMatrix(), dst.RawMatrix()
	product := func() {
		_ = parallel.Blocks(benchN, nystromBlockRows(benchN, benchS), func(_, i0, i1 int) error {
			m.project(rowBlock(out, i0, i1), rowBlock(c, i0, i1))
			return nil
		})
	}
	product()
	b.Logf("BLAS: %s", blasbackend.Backend())
	for b.Loop() {
		product()
	}
	flops := 2 * float64(benchN) * benchS * float64(m.Components())
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkRFFTransform is scikit-learn's RBFSampler(n_components=500).fit_transform(X).
func BenchmarkRFFTransform(b *testing.B) {
	x := benchData()
	rng := rand.New(rand.NewPCG(1, 1))
	b.Logf("BLAS: %s", blasbackend.Backend())
	b.ResetTimer()
	for range b.N {
		r, err := NewRFFGaussian(rng, benchD, benchS, benchSigma)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Transform(x); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRFFTransformCosSin is the cos/sin map with 500 frequencies (1000 columns).
func BenchmarkRFFTransformCosSin(b *testing.B) {
	x := benchData()
	r, err := NewRFFGaussian(rand.New(rand.NewPCG(1, 1)), benchD, benchS, benchSigma)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := r.TransformCosSin(x); err != nil {
			b.Fatal(err)
		}
	}
}

func gaussianKernelForBench() (kernel.Gaussian, error) { return kernel.NewGaussian(benchSigma) }

// bruteSymmetric returns the Gram matrix of k on the rows of x.
func bruteSymmetric(x *mat.Dense, k kernel.Kernel) *mat.SymDense {
	n, _ := x.Dims()
	out := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			out.SetSym(i, j, k.Eval(x.RawRowView(i), x.RawRowView(j)))
		}
	}
	return out
}
