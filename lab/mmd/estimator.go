package mmd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Estimator estimates the squared MMD between two samples. All the estimators of the package
// implement it, so that the three-sample harness, the experiments and the notebooks swap them
// freely: Exact, Linear, Block, RFF and Nystrom.
type Estimator interface {
	// MMD2 returns the estimate of MMD²(X, Z) for the samples X = {p_i : i in x} and
	// Z = {p_j : j in z} (indices into p; repeats allowed, each occurrence weighing 1/len).
	// Randomised estimators draw from rng only, so equal seeds give equal results whatever the
	// number of goroutines; Exact ignores rng. ctx cancels long computations.
	MMD2(ctx context.Context, rng *rand.Rand, p Points, x, z []int) (float64, error)
	// Name is a short lower-case name for results tables and legends: "exact", "linear",
	// "block", "rff" or "nystrom".
	Name() string
}

// DefaultSize returns the size s used by Block, RFF and Nystrom when theirs is 0: s = log n
// (natural logarithm, rounded), as in thesis §4.6.1, where it makes the three O(ns) methods as
// cheap as the O(n) linear MMD up to a log factor; at least 2. The estimators pass n = the size
// of the smaller sample.
func DefaultSize(n int) int {
	if n < 8 {
		return 2
	}
	return max(2, int(math.Round(math.Log(float64(n)))))
}

// checkSamples checks the common arguments of the estimators.
func checkSamples(op string, ctx context.Context, p Points, x, z []int) error {
	if err := ctxcheck.NotNil(ctx, "mmd: "+op); err != nil {
		return err
	}
	if isNil(p) {
		return fmt.Errorf("mmd: %s: nil points", op)
	}
	n := p.Len()
	if n < 1 {
		return fmt.Errorf("mmd: %s: no points", op)
	}
	if len(x) == 0 || len(z) == 0 {
		return fmt.Errorf("mmd: %s: samples of %d and %d points, want at least one each", op, len(x), len(z))
	}
	if err := checkIndices(op, "x", x, n); err != nil {
		return err
	}
	return checkIndices(op, "z", z, n)
}

// finiteEstimate returns v, or an error when it is NaN or ±Inf: possible only when the Points
// give non-finite kernel values (a user implementation) or the values overflow when summed.
func finiteEstimate(op string, v float64) (float64, error) {
	if v-v != 0 {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "mmd: %s: the estimate is %g: the kernel values of the points are not finite or overflow when summed", op, v)
	}
	return v, nil
}

// checkRNG reports a nil rng as an error.
func checkRNG(op string, rng *rand.Rand) error {
	if rng == nil {
		return laberr.Errorf(laberr.ErrNilRand, "mmd: %s: nil rng (this estimator is randomised)", op)
	}
	return nil
}

// forEach runs the bodies returned by newWorker for the indices 0..n-1, on min(n, GOMAXPROCS)
// goroutines that each call newWorker once (so that each has its own buffers) and take indices
// in turn. It stops early and returns an error when a body fails or ctx is cancelled.
func forEach(ctx context.Context, n int, newWorker func() func(i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	stop := func(err error) { once.Do(func() { firstErr = err; next.Store(int64(n)) }) }
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			body := newWorker()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if err := ctx.Err(); err != nil {
					stop(err)
					return
				}
				if err := body(i); err != nil {
					stop(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return firstErr
}
