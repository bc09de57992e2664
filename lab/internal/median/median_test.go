package median

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		in := append([]float64(nil), c.in...)
		if got := Of(c.in); got != c.want {
			t.Errorf("Of(%v) = %g, want %g", in, got, c.want)
		}
		for i := range in {
			if in[i] != c.in[i] {
				t.Errorf("Of modified its argument: %v, was %v", c.in, in)
			}
		}
	}
}
