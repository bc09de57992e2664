package kernel_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	k := kernel.Gaussian{Sigma: 1}
	_, nan := kernel.Gram(k, mat.NewDense(2, 1, []float64{0, math.NaN()}))
	_, shape := kernel.Cross(k, mat.NewDense(2, 1, nil), mat.NewDense(2, 2, nil))
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{nan, kernel.ErrNonFinite, "kernel: Gram: X[1,0] = NaN, want finite values"},
		{shape, kernel.ErrShape, "kernel: Cross: X has 1 columns but Z has 2"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
