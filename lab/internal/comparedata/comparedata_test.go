package comparedata

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
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
