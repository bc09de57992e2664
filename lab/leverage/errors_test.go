package leverage_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
	"github.com/fastkernels/kernellab/lab/leverage"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own; a nil generator matches laberr.ErrNilRand.
func TestSentinelErrors(t *testing.T) {
	k := kernel.Gaussian{Sigma: 1}
	_, nan := leverage.DAC(rand.New(rand.NewPCG(1, 2)), k, mat.NewDense(2, 1, []float64{0, math.NaN()}), 0.1, leverage.DACOptions{})
	_, nilRand := leverage.Uniform(nil, k, mat.NewDense(2, 1, nil), 0.1, leverage.UniformOptions{})
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{nan, leverage.ErrNonFinite, "leverage: DAC: X[1,0] = NaN, want finite values"},
		{nilRand, laberr.ErrNilRand, "leverage: Uniform: nil *rand.Rand (pass an explicit generator, e.g. rand.New(rand.NewPCG(seed, stream)))"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
