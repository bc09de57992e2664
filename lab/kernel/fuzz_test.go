package kernel

import (
	"math"
	"testing"

	"github.com/fastkernels/kernellab/lab/internal/fuzzinput"
)

// fuzzKernel picks one of the package's kernels from a byte, with fuzzed parameters (possibly
// invalid: Gram must then return an error).
func fuzzKernel(which, degree uint8, p, q float64) Kernel {
	switch which % 4 {
	case 0:
		return Gaussian{Sigma: p}
	case 1:
		return Laplace{Sigma: p}
	case 2:
		return Polynomial{Degree: int(degree % 16), Scale: p, Offset: q}
	}
	return Linear{}
}

// FuzzGram: on any matrix (NaN, ±Inf, subnormal and huge entries included) and any kernel
// parameters, Gram and Diagonal return an error or finite values, Gram is symmetric, the
// Gaussian and Laplace values lie in [0, 1] with ones on the diagonal, and Cross(X, X) equals Gram.
// The seeds are the inputs of issue 16; plain go test runs them.
func FuzzGram(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(2), uint8(1), fuzzinput.Bytes(1e200, 2e200), 1.0, 0.0)
	f.Add(uint8(1), uint8(0), uint8(2), uint8(1), fuzzinput.Bytes(0, 1), 5e-324, 0.0)
	f.Add(uint8(2), uint8(232), uint8(8), uint8(1), fuzzinput.Bytes(1, 2, 3, 4, 5, 6, 7, 8), 10.0, 1.0)
	f.Add(uint8(3), uint8(0), uint8(2), uint8(2), fuzzinput.Bytes(1e300, 1e300, -1e300, 1e300), 0.0, 0.0)
	f.Add(uint8(0), uint8(0), uint8(3), uint8(2), fuzzinput.Bytes(0.5, -1, 2, math.NaN(), 3, 1), 0.7, 0.0)
	f.Add(uint8(0), uint8(0), uint8(3), uint8(1), fuzzinput.Bytes(0, 1e100, -1e100), 1e-150, 0.0)
	f.Add(uint8(2), uint8(3), uint8(4), uint8(2), fuzzinput.Bytes(0.1, 0.2, 0.3, -0.4, 1e-310, 2, 1, 1), 0.5, 1.0)
	f.Fuzz(func(t *testing.T, which, degree, rows, cols uint8, data []byte, p, q float64) {
		k := fuzzKernel(which, degree, p, q)
		X := fuzzinput.Matrix(rows, cols, data)
		g, err := Gram(k, X)
		if err != nil {
			return
		}
		n := g.SymmetricDim()
		for i := range n {
			for j := range n {
				v := g.At(i, j)
				if v-v != 0 {
					t.Fatalf("%s: K[%d,%d] = %g with a nil error", k.Name(), i, j, v)
				}
				switch k.(type) {
				case Gaussian, Laplace:
					if v < 0 || v > 1 || (i == j && v != 1) {
						t.Fatalf("%s: K[%d,%d] = %g, want a value in [0, 1] (1 on the diagonal)", k.Name(), i, j, v)
					}
				}
			}
		}
		c, err := Cross(k, X, X)
		if err != nil {
			t.Fatalf("%s: Gram succeeded but Cross(X, X) failed: %v", k.Name(), err)
		}
		for i := range n {
			for j := range n {
				if c.At(i, j) != g.At(i, j) {
					t.Fatalf("%s: Cross(X, X)[%d,%d] = %g ≠ Gram %g", k.Name(), i, j, c.At(i, j), g.At(i, j))
				}
			}
		}
		if d, err := Diagonal(k, X); err == nil && !fuzzinput.Finite(d) {
			t.Fatalf("%s: Diagonal = %v with a nil error", k.Name(), d)
		}
	})
}
