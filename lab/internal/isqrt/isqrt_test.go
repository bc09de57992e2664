package isqrt

import (
	"math"
	"testing"
)

func TestCeil(t *testing.T) {
	for n := 1; n <= 200000; n++ {
		if r := Ceil(n); r*r < n || (r-1)*(r-1) >= n {
			t.Fatalf("Ceil(%d) = %d", n, r)
		}
	}
}

// TestCeilLarge: near MaxInt, r·r overflowed and Ceil looped forever (issue 16).
func TestCeilLarge(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{math.MaxInt, 3037000500},
		{3037000499 * 3037000499, 3037000499},
		{3037000499*3037000499 + 1, 3037000500},
		{1 << 62, 1 << 31},
	} {
		if r := Ceil(c.n); r != c.want {
			t.Errorf("Ceil(%d) = %d, want %d", c.n, r, c.want)
		}
	}
}
