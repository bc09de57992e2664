package fuzzinput

import (
	"math"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	want := []float64{1, math.NaN(), math.Inf(-1), 5e-324, -0.5}
	got := Floats(Bytes(want...), 7)
	for i, w := range append(want, want[0], want[1]) {
		if math.Float64bits(got[i]) != math.Float64bits(w) {
			t.Errorf("value %d = %g, want %g", i, got[i], w)
		}
	}
	if Finite(got) || !Finite([]float64{1, 2}) {
		t.Error("Finite is wrong")
	}
	if m := Matrix(0, 255, nil); m.At(0, 0) != 0 {
		t.Error("empty data should give zeros")
	}
	if r, c := Matrix(11, 12, nil).Dims(); r != 12 || c != 1 {
		t.Errorf("Matrix(11, 12) is %d×%d, want 12×1", r, c)
	}
}
