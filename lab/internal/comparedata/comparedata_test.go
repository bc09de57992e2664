package comparedata

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
)

func TestFloatsReadsLittleEndian(t *testing.T) {
	dir := t.TempDir()
	want := []float64{1.5, -2, math.Inf(1)}
	raw := make([]byte, 8*len(want))
	for i, v := range want {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(v))
	}
	if err := os.WriteFile(filepath.Join(dir, "x.f64"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	got := Floats(t, dir, "x.f64", 3)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("value %d: %g, want %g", i, got[i], want[i])
		}
	}
}

func TestDirSkipsWithoutEnv(t *testing.T) {
	t.Setenv(Env, "")
	ran := false
	t.Run("inner", func(t *testing.T) {
		Dir(t)
		ran = true
	})
	if ran {
		t.Fatal("Dir did not skip with the variable unset")
	}
}

func TestWriteMatrixRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := []float64{1, 2, 3, 4, 5, 6}
	Write(t, dir, "m.f64", want)
	m := Matrix(t, dir, "m.f64", 3)
	if r, c := m.Dims(); r != 2 || c != 3 {
		t.Fatalf("shape %d×%d, want 2×3", r, c)
	}
	if got := m.At(1, 0); got != 4 {
		t.Fatalf("m[1,0] = %g, want 4", got)
	}
}

func TestSparseRoundTrip(t *testing.T) {
	dir := t.TempDir()
	// The 3×4 matrix [[0 1 0 2] [0 0 0 0] [3 0 0 0]]: an empty row and an empty last column.
	want, err := csr.New(3, 4, []int{0, 2, 2, 3}, []int{1, 3, 0}, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	WriteSparse(t, dir, "s", want)
	if got := Floats(t, dir, "s_i.f64", 3); got[0] != 0 || got[1] != 0 || got[2] != 2 {
		t.Fatalf("row indices %v, want [0 0 2]", got)
	}
	got := Sparse(t, dir, "s")
	if r, c := got.Dims(); r != 3 || c != 4 {
		t.Fatalf("shape %d×%d, want 3×4", r, c)
	}
	if !mat.Equal(got, want) {
		t.Fatalf("read back %v, want %v", mat.Formatted(got), mat.Formatted(want))
	}
}
