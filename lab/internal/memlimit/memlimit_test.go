package memlimit

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Setenv("LAB_MEMLIMIT_BYTES", "")
	if err := Check("op", "small", 8, 1000, 1000); err != nil {
		t.Errorf("8 MB: %v", err)
	}
	if err := Check("op", "nothing", 8, 0, 1<<62); err != nil {
		t.Errorf("zero count: %v", err)
	}
	for _, c := range []struct {
		name   string
		counts []int
		want   string
	}{
		{"over", []int{1 << 20, 1 << 20}, "8 TiB"},
		{"overflow", []int{1 << 40, 1 << 38}, "more than 2⁶⁴ bytes"},
		{"negative", []int{-1}, "negative size"},
	} {
		err := Check("op", "m", 8, c.counts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	t.Setenv("LAB_MEMLIMIT_BYTES", "1000")
	if Limit() != 1000 || Check("op", "m", 8, 200) == nil {
		t.Errorf("LAB_MEMLIMIT_BYTES=1000: limit %d, want 1000 and 1600 bytes refused", Limit())
	}
	t.Setenv("LAB_MEMLIMIT_BYTES", "junk")
	if Limit() != DefaultLimit {
		t.Errorf("LAB_MEMLIMIT_BYTES=junk: limit %d, want the default", Limit())
	}
}
