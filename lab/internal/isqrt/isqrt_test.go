package isqrt

import "testing"

func TestCeil(t *testing.T) {
	for n := 1; n <= 200000; n++ {
		if r := Ceil(n); r*r < n || (r-1)*(r-1) >= n {
			t.Fatalf("Ceil(%d) = %d", n, r)
		}
	}
}
