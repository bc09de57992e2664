package run

import (
	"errors"
	"testing"
)

func TestTimeMedian(t *testing.T) {
	calls := 0
	s, err := TimeMedian(5, func() error { calls++; return nil })
	if err != nil || calls != 6 || s < 0 {
		t.Errorf("%g %v after %d calls, want 6 (one warm-up)", s, err, calls)
	}
	boom := errors.New("boom")
	if _, err := TimeMedian(3, func() error { return boom }); !errors.Is(err, boom) {
		t.Error(err)
	}
	if _, err := TimeMedian(0, func() error { return nil }); err == nil {
		t.Error("0 calls accepted")
	}
	calls = 0
	if s, err := TimeMedianCold(3, func() error { calls++; return nil }); err != nil || calls != 3 || s < 0 {
		t.Errorf("cold: %g %v after %d calls, want 3 (no warm-up)", s, err, calls)
	}
	if _, err := TimeMedianCold(0, func() error { return nil }); err == nil {
		t.Error("cold: 0 calls accepted")
	}
	// Issue 34's sweep: 2⁴⁰ calls allocated 8 TiB of times, a fatal out-of-memory crash.
	calls = 0
	if _, err := TimeMedian(1<<40, func() error { calls++; return nil }); err == nil || calls != 0 {
		t.Errorf("2⁴⁰ calls: %v after %d calls, want an error before any", err, calls)
	}
}
