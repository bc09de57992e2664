package lowrank

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomPoints returns an n×d matrix of uniform [0, 1) entries from a fixed seed.
func randomPoints(seed uint64, n, d int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 99))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.Float64())
		}
	}
	return x
}

// bruteGaussian is exp(−||x−z||²/(2σ²)) by a plain loop, independent of package kernel.
func bruteGaussian(x, z []float64, sigma float64) float64 {
	var d2 float64
	for i := range x {
		d2 += (x[i] - z[i]) * (x[i] - z[i])
	}
	return math.Exp(-d2 / (2 * sigma * sigma))
}

// bruteLaplace is exp(−||x−z||₁/σ) by a plain loop.
func bruteLaplace(x, z []float64, sigma float64) float64 {
	var d1 float64
	for i := range x {
		d1 += math.Abs(x[i] - z[i])
	}
	return math.Exp(-d1 / sigma)
}

// bruteCross returns the matrix of f(x_i, z_j) by plain loops.
func bruteCross(X, Z *mat.Dense, f func(x, z []float64) float64) *mat.Dense {
	n, _ := X.Dims()
	m, _ := Z.Dims()
	out := mat.NewDense(n, m, nil)
	for i := range n {
		for j := range m {
			out.Set(i, j, f(X.RawRowView(i), Z.RawRowView(j)))
		}
	}
	return out
}

// relativeDifference returns ||a − b||_F / ||b||_F.
func relativeDifference(a, b mat.Matrix) float64 {
	var diff mat.Dense
	diff.Sub(a, b)
	return mat.Norm(&diff, 2) / mat.Norm(b, 2)
}

// assertClose fails when ||got − want||_F > tol·||want||_F.
func assertClose(t *testing.T, what string, got, want mat.Matrix, tol float64) {
	t.Helper()
	gr, gc := got.Dims()
	wr, wc := want.Dims()
	if gr != wr || gc != wc {
		t.Fatalf("%s: got %d×%d, want %d×%d", what, gr, gc, wr, wc)
	}
	if e := relativeDifference(got, want); !(e <= tol) {
		t.Fatalf("%s: relative difference %g > %g", what, e, tol)
	}
}

// wantError fails unless err is non-nil.
func wantError(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: got no error, want one", what)
	}
}
