package lowrank

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestBKAOneClusterIsK(t *testing.T) {
	k := withSpectrum(51, []float64{4, 3, 2, 1, 0.5})
	got, err := BKA(k, []int{7, 7, 7, 7, 7})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, k) {
		t.Error("BKA with one cluster differs from K")
	}
}

// Labels (0, 1, 0): only the entries between points 0 and 2 (and the diagonal) survive.
func TestBKAByHand(t *testing.T) {
	k := mat.NewSymDense(3, []float64{1, 2, 3, 2, 4, 5, 3, 5, 6})
	got, err := BKA(k, []int{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewSymDense(3, []float64{1, 0, 3, 0, 4, 0, 3, 0, 6})
	if !mat.Equal(got, want) {
		t.Errorf("BKA = %v, want %v", mat.Formatted(got), mat.Formatted(want))
	}
}

func TestBKAErrors(t *testing.T) {
	k := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	_, err := BKA(k, []int{0})
	wantError(t, "too few labels", err)
	_, err = BKA(k, []int{0, -1})
	wantError(t, "negative label", err)
	_, err = BKA(nil, []int{0, 0})
	wantError(t, "nil K", err)
}
