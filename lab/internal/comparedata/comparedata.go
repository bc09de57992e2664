// Package comparedata reads the data files that bench/compare_chapters.sh and compare_forest.sh
// write once for both sides of a side-by-side timing (raw little-endian float64, row major), so
// that the lab's benchmarks and the Python ones time identical inputs.
// Only tests and benchmarks use it.
package comparedata

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Env names the folder of the data files; the script sets it.
const Env = "KERNELLAB_COMPARE_DATA"

// Dir returns the folder named by Env, and skips the test or benchmark when it is not set.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(Env)
	if dir == "" {
		tb.Skipf("%s is not set (bench/compare_chapters.sh and compare_forest.sh set it)", Env)
	}
	return dir
}

// Floats reads the file name of dir, which must hold exactly n float64 values.
func Floats(tb testing.TB, dir, name string, n int) []float64 {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	if len(raw) != 8*n {
		tb.Fatalf("%s: %d bytes, want %d float64 values", name, len(raw), n)
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return v
}
