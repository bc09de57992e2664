package factor

import (
	"math"
	"strings"
	"testing"
)

func TestComponentsForMass(t *testing.T) {
	for _, c := range []struct {
		values   []float64
		fraction float64
		want     int
	}{
		{[]float64{5, 3, 2}, 0.7, 2},       // 5 < 7 ≤ 8
		{[]float64{7, 2, 1}, 0.7, 1},       // 7 ≥ 0.7·10 exactly
		{[]float64{1, 1, 1, 1}, 0.7, 3},    // 2 < 2.8 ≤ 3
		{[]float64{1, 1, 1, 1}, 1, 4},      // all of it
		{[]float64{3, 0, 0}, 0.7, 1},       // zeros after the mass
		{[]float64{4, 3, 2, 1}, 0.05, 1},   // any positive fraction keeps one
		{[]float64{0.4, 0.3, 0.3}, 0.7, 2}, // 0.7 reached by a rounded sum
		// Issue 34: subnormal values kept their proportions badly (the answer was 1), huge ones
		// overflowed the total.
		{[]float64{5e-324, 5e-324}, 0.7, 2},
		{[]float64{math.MaxFloat64, math.MaxFloat64, math.MaxFloat64}, 0.7, 3},
	} {
		got, err := ComponentsForMass(c.values, c.fraction)
		if err != nil || got != c.want {
			t.Errorf("ComponentsForMass(%v, %g) = %d, %v; want %d", c.values, c.fraction, got, err, c.want)
		}
	}
	for _, c := range []struct {
		values   []float64
		fraction float64
		want     string
	}{
		{nil, 0.7, "no singular values"},
		{[]float64{1}, 0, "fraction = 0"},
		{[]float64{1}, 1.5, "fraction = 1.5"},
		{[]float64{1, math.NaN()}, 0.7, "values[1] = NaN"},
		{[]float64{1, -1}, 0.7, "values[1] = -1"},
		{[]float64{1, 2}, 0.7, "decreasing"},
		{[]float64{0, 0}, 0.7, "all 2 singular values are zero"},
	} {
		if _, err := ComponentsForMass(c.values, c.fraction); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ComponentsForMass(%v, %g): error %v, want one mentioning %q", c.values, c.fraction, err, c.want)
		}
	}
}
