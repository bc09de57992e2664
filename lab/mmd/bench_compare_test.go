package mmd

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/comparedata"
)

// Side-by-side comparison with scikit-learn (bench/compare_chapters.sh): the script's Python side
// draws two samples of 10⁴ points uniform on [0, 1)^54 into the folder named by comparedata.Env
// (raw little-endian float64, row major) and the MMD² its rbf_kernel block sums give on their
// first 2000 points; the test below checks that Exact gives the same value, the benchmark times
// Exact on the very samples Python times (σ = 3, as BenchmarkExact). Both skip when the
// variable is unset.
const (
	compareMMDN, compareSmall = 10000, 2000
)

// compareSamples returns the Points of the two comparison samples stacked (x first) and the
// folder they come from, or skips.
func compareSamples(tb testing.TB) (*Vectors, string) {
	tb.Helper()
	dir := comparedata.Dir(tb)
	x := mat.NewDense(compareMMDN, benchD, comparedata.Floats(tb, dir, "mmd_x.f64", compareMMDN*benchD))
	z := mat.NewDense(compareMMDN, benchD, comparedata.Floats(tb, dir, "mmd_z.f64", compareMMDN*benchD))
	return mustVectors(tb, mustGaussian(tb, benchSigma), stack(x, z)), dir
}

// TestExactAgreesWithSklearn: the exact MMD² of the first 2000 points of each sample equals the
// Python side's (checked there against the dense formula) to 1e-12.
func TestExactAgreesWithSklearn(t *testing.T) {
	p, dir := compareSamples(t)
	got, err := Exact{}.MMD2(context.Background(), nil, p, span(0, compareSmall), span(compareMMDN, compareMMDN+compareSmall))
	if err != nil {
		t.Fatal(err)
	}
	want := comparedata.Floats(t, dir, "mmd_small.f64", 1)[0]
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
