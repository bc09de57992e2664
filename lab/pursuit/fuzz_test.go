package pursuit

import (
	"testing"

	"github.com/fastkernels/kernellab/lab/internal/fuzzinput"
)

// FuzzOMP: on any dictionary, signal and options, OMP and NN-OMP return an error or finite
// results (coefficients, residual norms) whose residual norm does not exceed ‖y‖ by more than
// rounding (both start from α = 0 and only decrease it). The seeds are the inputs of issue 16;
// plain go test runs them.
func FuzzOMP(f *testing.F) {
	f.Add(uint8(4), uint8(6), fuzzinput.Bytes(1, 0, 0, 0, 0, 1, 0, 0, 0.5, 0.5, 0.5, 0.5), fuzzinput.Bytes(1, 2, 0, 0), uint8(2), 0.0)
	f.Add(uint8(2), uint8(2), fuzzinput.Bytes(1e-310, 1e-310, 1e-310, 2e-310), fuzzinput.Bytes(1, 1), uint8(0), 0.0)
	f.Add(uint8(3), uint8(3), fuzzinput.Bytes(1e200, -1e200, 1, 0, 1e-300, 3), fuzzinput.Bytes(1e300, -1e300, 1), uint8(3), 1e-9)
	f.Add(uint8(1), uint8(5), fuzzinput.Bytes(1, 1, 1, 1, 1), fuzzinput.Bytes(5e-324), uint8(1), 0.0)
	f.Fuzz(func(t *testing.T, rows, cols uint8, atoms, signal []byte, maxAtoms uint8, tol float64) {
		dict, err := NewDenseDictionary(fuzzinput.Matrix(rows, cols, atoms))
		if err != nil {
			return
		}
		d, _ := dict.Dims()
		y := fuzzinput.Floats(signal, d)
		opts := Options{MaxAtoms: int(maxAtoms % 8), Tolerance: tol}
		for name, solve := range map[string]func(Dictionary, []float64, Options) (*Result, error){
			"OMP": OrthogonalMatchingPursuit, "NN-OMP": NonNegativeOMP,
		} {
			res, err := solve(dict, y, opts)
			if err != nil {
				continue
			}
			if !fuzzinput.Finite(res.Coefficients) || !fuzzinput.Finite(res.ResidualNorms()) || !fuzzinput.Finite(res.Vector()) {
				t.Fatalf("%s: coefficients %v, residual norms %v with a nil error", name, res.Coefficients, res.ResidualNorms())
			}
			if r := res.ResidualNorm(); r > res.SignalNorm*(1+1e-9)+1e-300 {
				t.Fatalf("%s: residual norm %g above ‖y‖ = %g", name, r, res.SignalNorm)
			}
		}
	})
}
