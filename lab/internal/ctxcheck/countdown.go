package ctxcheck

import (
	"context"
	"sync/atomic"
)

// Countdown is a context for the tests of the Context twins: its Err is nil for its first n calls
// and context.Canceled after, and it counts the calls, so that a test can stop a run after exactly
// n looks and see how often the run looked. Its Done channel is its parent's (a twin looks at Err,
// through [Done]).
type Countdown struct {
	context.Context
	n     int64
	calls atomic.Int64
}

// NewCountdown returns a Countdown on context.Background() that allows n looks.
func NewCountdown(n int) *Countdown {
	return &Countdown{Context: context.Background(), n: int64(n)}
}

// Err returns nil for the first n calls and context.Canceled after.
func (c *Countdown) Err() error {
	if c.calls.Add(1) > c.n {
		return context.Canceled
	}
	return nil
}

// Calls returns how many times Err was called.
func (c *Countdown) Calls() int { return int(c.calls.Load()) }
