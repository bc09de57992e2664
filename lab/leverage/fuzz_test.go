package leverage

import (
	"testing"

	"github.com/fastkernels/kernellab/lab/internal/fuzzinput"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// FuzzExactBadInputs: on any matrix and any Gaussian bandwidth, polynomial degree and ridge,
// Exact returns an error or scores in [0, 1] whose sum d_eff is finite. (FuzzExactMatchesInverseForm
// checks the values on valid inputs.) The seeds are the inputs of issue 16; plain go test runs them.
func FuzzExactBadInputs(f *testing.F) {
	f.Add(uint8(0), uint8(8), uint8(1), fuzzinput.Bytes(1, 2, 3, 4, 5, 6, 7, 8), 1.0, 1.0)
	f.Add(uint8(1), uint8(8), uint8(1), fuzzinput.Bytes(1, 2, 3, 4, 5, 6, 7, 8), 10.0, 1.0)
	f.Add(uint8(0), uint8(2), uint8(1), fuzzinput.Bytes(1e200, 2e200), 1.0, 1e-3)
	f.Add(uint8(0), uint8(3), uint8(2), fuzzinput.Bytes(0.1, 5e-324, 1e-310, 2, 3, 0), 0.3, 5e-324)
	f.Add(uint8(1), uint8(4), uint8(1), fuzzinput.Bytes(1e100, -1e100, 0, 1), 1.0, 1e300)
	f.Fuzz(func(t *testing.T, which, rows, cols uint8, data []byte, p, lambda float64) {
		var k kernel.Kernel = kernel.Gaussian{Sigma: p}
		if which%2 == 1 {
			k = kernel.Polynomial{Degree: 1 + int(which)%1000, Scale: p, Offset: 1}
		}
		scores, deff, err := Exact(k, fuzzinput.Matrix(rows, cols, data), lambda, ExactOptions{})
		if err != nil {
			return
		}
		for i, s := range scores {
			if !(s >= 0 && s <= 1) {
				t.Fatalf("%s, λ = %g: score %d = %g with a nil error, want a value in [0, 1]", k.Name(), lambda, i, s)
			}
		}
		if deff-deff != 0 {
			t.Fatalf("%s, λ = %g: d_eff = %g with a nil error", k.Name(), lambda, deff)
		}
	})
}
