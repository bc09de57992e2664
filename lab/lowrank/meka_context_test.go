package lowrank

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// FitMEKAContext looks at its context once per block, the 4 clusters then the 6 kept pairs:
// with a live context it returns FitMEKA's fit bit for bit, a context done before the start or
// after k looks (in the clusters or in the pairs) stops it with the context's error and no fit,
// and a nil context is an error.
func TestFitMEKAContext(t *testing.T) {
	x, labels := clusteredPoints(65, [][]float64{{0, 0}, {2, 0}, {0, 2}, {2, 2}}, 40, 0.5)
	g := gaussianFor(t, 0.5)
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(5, 5)) }
	opts := MEKAOptions{}
	const blocks = 4 + 6 // η = 0.1 drops ⌊0.6⌋ = 0 of the 6 pairs
	want, err := FitMEKA(seed(), g, x, labels, 8, opts)
	if err != nil {
		t.Fatal(err)
	}
	wantW, wantL := want.Factors()
	same := func(got *MEKA) bool {
		if got == nil {
			return false
		}
		w, l := got.Factors()
		return mat.Equal(w, wantW) && mat.Equal(l, wantL) &&
			slices.EqualFunc(got.Landmarks(), want.Landmarks(), slices.Equal)
	}
	if got, err := FitMEKAContext(context.Background(), seed(), g, x, labels, 8, opts); err != nil || !same(got) {
		t.Errorf("FitMEKAContext(Background) differs from FitMEKA (%v)", err)
	}
	all := ctxcheck.NewCountdown(math.MaxInt)
	if got, err := FitMEKAContext(all, seed(), g, x, labels, 8, opts); err != nil || !same(got) {
		t.Errorf("FitMEKAContext allowed every look differs from FitMEKA (%v)", err)
	}
	if all.Calls() != blocks {
		t.Errorf("Err called %d times, want %d (once per cluster and per kept pair)", all.Calls(), blocks)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := FitMEKAContext(cancelled, seed(), g, x, labels, 8, opts); got != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: %v, %v; want no fit and context.Canceled", got, err)
	}
	for _, k := range []int{0, 2, 5} {
		ctx := ctxcheck.NewCountdown(k)
		if got, err := FitMEKAContext(ctx, seed(), g, x, labels, 8, opts); got != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d looks: %v, %v; want no fit and context.Canceled", k, got, err)
		}
		if ctx.Calls() != k+1 {
			t.Errorf("cancelled after %d looks: Err called %d times, want %d (stop at the first error)", k, ctx.Calls(), k+1)
		}
	}
	var none context.Context
	if _, err := FitMEKAContext(none, seed(), g, x, labels, 8, opts); err == nil {
		t.Error("nil ctx: no error")
	}
}
