package csr_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fastkernels/kernellab/lab/csr"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	_, nan := csr.New(1, 2, []int{0, 1}, []int{1}, []float64{math.NaN()})
	_, shape := csr.New(2, 2, []int{0, 1}, []int{1}, []float64{1})
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{nan, csr.ErrNonFinite, "csr: New: entry [0,1] = NaN, want finite values"},
		{shape, csr.ErrShape, "csr: New: len(indptr) = 2, want rows+1 = 3"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
