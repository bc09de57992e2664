package ctxcheck

import (
	"context"
	"errors"
	"testing"
)

func TestNotNil(t *testing.T) {
	var none context.Context
	if err := NotNil(none, "pkg: Op"); err == nil || err.Error() != "pkg: Op: nil context" {
		t.Errorf("NotNil(nil) = %v", err)
	}
	if err := NotNil(context.Background(), "pkg: Op"); err != nil {
		t.Errorf("NotNil(Background) = %v", err)
	}
}

func TestDone(t *testing.T) {
	if err := Done(context.Background(), "pkg: Op"); err != nil {
		t.Errorf("Done(Background) = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Done(ctx, "pkg: Op"); !errors.Is(err, context.Canceled) || err.Error() != "pkg: Op: context canceled" {
		t.Errorf("Done(cancelled) = %v", err)
	}
}

func TestCountdown(t *testing.T) {
	c := NewCountdown(2)
	for i, want := range []error{nil, nil, context.Canceled, context.Canceled} {
		if err := c.Err(); err != want {
			t.Errorf("call %d: Err = %v, want %v", i+1, err, want)
		}
	}
	if c.Calls() != 4 {
		t.Errorf("Calls = %d, want 4", c.Calls())
	}
	if err := Done(NewCountdown(0), "pkg: Op"); !errors.Is(err, context.Canceled) {
		t.Errorf("Done(Countdown(0)) = %v", err)
	}
}
