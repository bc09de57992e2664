package mmd

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Side-by-side comparison with scikit-learn (bench/compare_chapters.sh): the script's Python side
// draws two samples of 10⁴ points uniform on [0, 1)^54 into the folder named by compareDataEnv
// (raw little-endian float64, row major) and the MMD² its rbf_kernel block sums give on their
// first 2000 points; the test below checks that Exact gives the same value, the benchmark times
// Exact on the very samples Python times (σ = 3, as BenchmarkExact). Both skip when the
// variable is unset.
const (
	compareDataEnv            = "KERNELLAB_COMPARE_DATA"
	compareMMDN, compareSmall = 10000, 2000
)

// compareSamples returns the Points of the two comparison samples stacked (x first) and the
// folder they come from, or skips.
func compareSamples(tb testing.TB) (*Vectors, string) {
	tb.Helper()
	dir := os.Getenv(compareDataEnv)
	if dir == "" {
		tb.Skipf("%s is not set (bench/compare_chapters.sh sets it)", compareDataEnv)
	}
	x := mat.NewDense(compareMMDN, benchD, readFloats(tb, dir, "mmd_x.f64", compareMMDN*benchD))
	z := mat.NewDense(compareMMDN, benchD, readFloats(tb, dir, "mmd_z.f64", compareMMDN*benchD))
	return mustVectors(tb, mustGaussian(tb, benchSigma), stack(x, z)), dir
}

// readFloats reads the raw little-endian float64 file name of dir, which must hold n values.
func readFloats(tb testing.TB, dir, name string, n int) []float64 {
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

// TestExactAgreesWithSklearn: the exact MMD² of the first 2000 points of each sample equals the
// Python side's (checked there against the dense formula) to 1e-12.
func TestExactAgreesWithSklearn(t *testing.T) {
	p, dir := compareSamples(t)
	got, err := Exact{}.MMD2(context.Background(), nil, p, span(0, compareSmall), span(compareMMDN, compareMMDN+compareSmall))
	if err != nil {
		t.Fatal(err)
	}
	want := readFloats(t, dir, "mmd_small.f64", 1)[0]
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("MMD² = %.15g, scikit-learn %.15g", got, want)
	} else {
		t.Logf("MMD² = %.15g, scikit-learn %.15g", got, want)
	}
}

// BenchmarkCompareExactMMD times the exact MMD² at n = m = 10⁴ on the samples the Python side
// times.
func BenchmarkCompareExactMMD(b *testing.B) {
	p, _ := compareSamples(b)
	ctx := context.Background()
	x, z := span(0, compareMMDN), span(compareMMDN, 2*compareMMDN)
	b.ResetTimer()
	for range b.N {
		if _, err := (Exact{}).MMD2(ctx, nil, p, x, z); err != nil {
			b.Fatal(err)
		}
	}
}
