package mmd_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/mmd"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	_, nan := mmd.NewPrecomputed(mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}))
	_, vectors := mmd.NewVectors(kernel.Gaussian{Sigma: 1}, mat.NewDense(2, 1, []float64{0, math.Inf(-1)}))
	p, err := mmd.NewPrecomputed(mat.NewSymDense(2, []float64{1, 0, 0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	shape := p.Block(mat.NewDense(1, 1, nil), []int{0, 1}, []int{0})
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{nan, mmd.ErrNonFinite, "mmd: NewPrecomputed: K[0,1] = NaN, want finite values"},
		{vectors, mmd.ErrNonFinite, "mmd: NewVectors: kernel: Diagonal: X[1,0] = -Inf, want finite values"},
		{shape, mmd.ErrShape, "mmd: Precomputed.Block: destination is 1×1, want 2×1"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
