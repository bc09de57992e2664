package factor_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 2})
	pca, err := factor.FitPCA(X, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, pcaUnfitted := new(factor.PCA).Transform(X)
	_, kpcaUnfitted := new(factor.KernelPCA).Transform(X)
	_, ppcaUnfitted := new(factor.PPCA).Transform(X)
	_, nan := factor.FitKernelPCA(kernel.Gaussian{Sigma: 1}, mat.NewDense(2, 1, []float64{0, math.NaN()}), 1)
	_, shape := pca.Transform(mat.NewDense(1, 3, nil))
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{pcaUnfitted, factor.ErrNotFitted, "factor: PCA.Transform: the model is not fitted (make it with FitPCA)"},
		{kpcaUnfitted, factor.ErrNotFitted, "factor: KernelPCA.Transform: the model is not fitted (make it with FitKernelPCA)"},
		{ppcaUnfitted, factor.ErrNotFitted, "factor: PPCA.Transform: the model is not fitted (make it with FitPPCA)"},
		{nan, factor.ErrNonFinite, "factor: FitKernelPCA: X[1,0] = NaN, want finite values"},
		{shape, factor.ErrShape, "factor: PCA.Transform: X has 3 columns but the model was fitted on 2"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
