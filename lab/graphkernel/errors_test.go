package graphkernel_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fastkernels/kernellab/lab/graphkernel"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	one := graphkernel.Histogram{Paths: []graphkernel.Triple{{Start: 0, End: 0, Length: 1}}, Counts: []float64{1}}
	_, shape := graphkernel.Histogram{Paths: one.Paths}.Dot(one)
	huge := graphkernel.Histogram{Paths: one.Paths, Counts: []float64{math.MaxFloat64}}
	_, overflow := huge.Dot(huge)
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{shape, graphkernel.ErrShape, "graphkernel: Histogram.Dot: h has 1 paths but 0 counts, want one count per path"},
		{overflow, graphkernel.ErrNonFinite, "graphkernel: Histogram.Dot: the sum overflows"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
