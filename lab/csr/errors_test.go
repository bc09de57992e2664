package csr_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
	"github.com/fastkernels/kernellab/lab/internal/lazymat"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	_, nan := csr.New(1, 2, []int{0, 1}, []int{1}, []float64{math.NaN()})
	_, shape := csr.New(2, 2, []int{0, 1}, []int{1}, []float64{1})
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{nan, csr.ErrNonFinite, "csr: New: entry [0,1] = NaN, want finite values"},
		{shape, csr.ErrShape, "csr: New: len(indptr) = 2, want rows+1 = 3"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}

// Huge shapes are refused with an error, never a crash (issue 34): rows = MaxInt overflowed
// rows+1 and panicked; 2⁴⁰ rows asked for an 8 TiB offset array; a matrix of 2⁴⁰ columns and two
// values (free to build) asked for as much when transposed for MulTransDense.
func TestHugeShapesAreRefused(t *testing.T) {
	t.Setenv("LAB_MEMLIMIT_BYTES", "1073741824")
	for _, rows := range []int{math.MaxInt, 1 << 40} {
		if _, err := csr.FromTriplets(rows, 2, []int{0}, []int{1}, []float64{1}); err == nil || !strings.Contains(err.Error(), "memlimit") {
			t.Errorf("FromTriplets with %d rows: %v, want a memlimit error", rows, err)
		}
	}
	wide, err := csr.FromTriplets(2, 1<<40, []int{0, 1}, []int{5, 1 << 39}, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wide.Transpose(); err == nil || !strings.Contains(err.Error(), "memlimit") {
		t.Errorf("Transpose of 2×2⁴⁰: %v, want a memlimit error", err)
	}
	var dst mat.Dense
	if err := wide.MulTransDense(&dst, mat.NewDense(2, 3, nil)); err == nil || !strings.Contains(err.Error(), "MulTransDense") {
		t.Errorf("MulTransDense of 2×2⁴⁰: %v, want an error", err)
	}
	// B, a lazy 2⁴⁰×3 matrix, is not densified.
	if err := wide.MulDense(&dst, lazymat.Ones{R: 1 << 40, C: 3}); err == nil || !strings.Contains(err.Error(), "memlimit") {
		t.Errorf("MulDense with a lazy 2⁴⁰×3 B: %v, want a memlimit error", err)
	}
}
