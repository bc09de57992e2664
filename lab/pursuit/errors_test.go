package pursuit_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/pursuit"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	dict, err := pursuit.NewDenseDictionary(mat.NewDense(2, 2, []float64{1, 0, 0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	_, nan := pursuit.NewDenseDictionary(mat.NewDense(2, 1, []float64{1, math.NaN()}))
	_, signal := pursuit.OrthogonalMatchingPursuit(dict, []float64{1, math.Inf(1)}, pursuit.Options{})
	_, shape := pursuit.OrthogonalMatchingPursuit(dict, []float64{1, 2, 3}, pursuit.Options{})
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{nan, pursuit.ErrNonFinite, "pursuit: NewDenseDictionary: entry [1,0] = NaN, want finite values"},
		{signal, pursuit.ErrNonFinite, "pursuit: OrthogonalMatchingPursuit: y[1] = +Inf, want finite values"},
		{shape, pursuit.ErrShape, "pursuit: OrthogonalMatchingPursuit: len(y) = 3, want the signal dimension d = 2"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
