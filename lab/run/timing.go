package run

import (
	"errors"
	"fmt"
	"time"

	"github.com/fastkernels/kernellab/lab/internal/median"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
)

// TimeMedian times f the way a timing claim needs it: one untimed warm-up call (caches, page
// faults, lazily built tables), then calls timed calls, and returns the median in seconds, which
// one slow call (a garbage collection, another process) cannot move. calls must be at least 1, and
// its times must fit memlimit (8 bytes a call); the first error of f is returned.
func TimeMedian(calls int, f func() error) (float64, error) {
	return timeMedian(true, calls, f)
}

// TimeMedianCold is [TimeMedian] without the warm-up call, for calls that take minutes (a full SVD
// of a corpus): what a warm-up absorbs is then a negligible part of a call, and it would double
// the experiment's cost.
func TimeMedianCold(calls int, f func() error) (float64, error) {
	return timeMedian(false, calls, f)
}

func timeMedian(warmUp bool, calls int, f func() error) (float64, error) {
	if calls < 1 {
		return 0, errors.New("run: TimeMedian needs at least one timed call")
	}
	if f == nil {
		return 0, errors.New("run: TimeMedian: nil function")
	}
	if err := memlimit.Check("run: TimeMedian", fmt.Sprintf("the times of %d calls", calls), 8, calls); err != nil {
		return 0, err
	}
	if warmUp {
		if err := f(); err != nil {
			return 0, err
		}
	}
	times := make([]float64, calls)
	for i := range times {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		times[i] = time.Since(start).Seconds()
	}
	return median.Of(times), nil
}
