package lowrank_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	k := kernel.Gaussian{Sigma: 1}
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
	fit, err := lowrank.FitNystrom(k, X, []int{0, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, unfitted := new(lowrank.Nystrom).Transform(X)
	_, meka := new(lowrank.MEKA).Approximation()
	_, rff := new(lowrank.RFF).Transform(X)
	_, nan := lowrank.FitNystrom(k, mat.NewDense(2, 1, []float64{math.Inf(1), 0}), []int{0}, 0)
	_, shape := fit.Transform(mat.NewDense(1, 3, nil))
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{unfitted, lowrank.ErrNotFitted, "lowrank: Nystrom.Transform: the approximation is not fitted"},
		{meka, lowrank.ErrNotFitted, "lowrank: MEKA not fitted (make it with FitMEKA)"},
		{rff, lowrank.ErrNotFitted, "lowrank: RFF.Transform: no frequencies drawn (make the RFF with NewRFF, NewRFFGaussian or NewRFFLaplace)"},
		{nan, lowrank.ErrNonFinite, "lowrank: Nystrom.Fit: X[0,0] = +Inf, want finite values"},
		{shape, lowrank.ErrShape, "lowrank: Nystrom.Transform: X has 3 columns, want 2 like the landmarks"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
