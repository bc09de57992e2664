package kit

import (
	"math"
	"testing"
)

func TestLogLogSlope(t *testing.T) {
	x := []float64{10, 100, 1000, 10000}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = 3 / math.Sqrt(v)
	}
	slope, err := LogLogSlope(x, y)
	if err != nil || math.Abs(slope+0.5) > 1e-12 {
		t.Errorf("slope of 3/√x: %v, %v; want −0.5", slope, err)
	}
	for _, bad := range [][2][]float64{
		{{1}, {1}}, {{1, 2}, {1}}, {{1, 1}, {1, 2}}, {{1, 2}, {0, 1}}, {{-1, 2}, {1, 1}}, {{1, math.Inf(1)}, {1, 1}},
	} {
		if _, err := LogLogSlope(bad[0], bad[1]); err == nil {
			t.Errorf("logLogSlope(%v, %v): want an error", bad[0], bad[1])
		}
	}
}
