package leverage

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// randomPoints returns n seeded points uniform on [0, 1)^d.
func randomPoints(seed uint64, n, d int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.Float64())
		}
	}
	return x
}

// gaussian returns the Gaussian kernel of bandwidth sigma, failing the test on error.
func gaussian(t testing.TB, sigma float64) kernel.Gaussian {
	t.Helper()
	k, err := kernel.NewGaussian(sigma)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// bruteGram returns K by pair evaluations of k (independent of lab/kernel's GEMM route).
func bruteGram(k kernel.Kernel, x *mat.Dense) *mat.SymDense {
	n, _ := x.Dims()
	g := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			g.SetSym(i, j, k.Eval(x.RawRowView(i), x.RawRowView(j)))
		}
	}
	return g
}

// eigenScores is the reference of eq. 2.2, l_i = Σ_j ζ_j/(ζ_j + λ) U_ij², with its sum
// Σ_j ζ_j/(ζ_j + λ) (eq. 2.4 in the eigenbasis), from the symmetric eigendecomposition of K.
func eigenScores(t testing.TB, K *mat.SymDense, lambda float64) ([]float64, float64) {
	t.Helper()
	var eig mat.EigenSym
	if !eig.Factorize(K, true) {
		t.Fatal("eigendecomposition failed")
	}
	values := eig.Values(nil)
	var u mat.Dense
	eig.VectorsTo(&u)
	n := len(values)
	scores := make([]float64, n)
	var deff float64
	for j, z := range values {
		z = max(z, 0)
		f := z / (z + lambda)
		deff += f
		for i := range n {
			scores[i] += f * u.At(i, j) * u.At(i, j)
		}
	}
	return scores, deff
}

// inverseScores is the reference of eq. 2.3, l_i = 1 − λ[(K + λI)⁻¹]_ii, with a general (LU)
// inverse rather than Cholesky.
func inverseScores(t testing.TB, K *mat.SymDense, lambda float64) []float64 {
	t.Helper()
	n := K.SymmetricDim()
	a := mat.NewDense(n, n, nil)
	a.Copy(K)
	for i := range n {
		a.Set(i, i, a.At(i, i)+lambda)
	}
	var inv mat.Dense
	if err := inv.Inverse(a); err != nil {
		t.Fatal(err)
	}
	scores := make([]float64, n)
	for i := range n {
		scores[i] = 1 - lambda*inv.At(i, i)
	}
	return scores
}

// maxAbsDiff returns max_i |a_i − b_i|.
func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// sum returns Σ v_i.
func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}
