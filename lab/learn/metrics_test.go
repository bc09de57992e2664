package learn

import (
	"math"
	"testing"
)

func TestMSE(t *testing.T) {
	got, err := MSE([]float64{1, 2, 3}, []float64{1, 0, 6})
	if err != nil {
		t.Fatal(err)
	}
	if want := 13.0 / 3; math.Abs(got-want) > 1e-15 {
		t.Errorf("MSE = %v, want (0 + 4 + 9)/3", got)
	}
}

func TestAccuracy(t *testing.T) {
	got, err := Accuracy([]float64{1, -1, 1, 1}, []float64{1, 1, 1, -1})
	if err != nil {
		t.Fatal(err)
	}
	if got != 0.5 {
		t.Errorf("Accuracy = %v, want 2/4", got)
	}
}

func TestMetricErrors(t *testing.T) {
	bad := [][2][]float64{
		{nil, nil},
		{{1, 2}, {1}},
		{{math.NaN()}, {1}},
		{{1}, {math.Inf(-1)}},
	}
	for _, c := range bad {
		if _, err := MSE(c[0], c[1]); err == nil {
			t.Errorf("MSE(%v, %v): no error", c[0], c[1])
		}
		if _, err := Accuracy(c[0], c[1]); err == nil {
			t.Errorf("Accuracy(%v, %v): no error", c[0], c[1])
		}
	}
}
