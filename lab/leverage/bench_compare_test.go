package leverage

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/internal/comparedata"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// Side-by-side comparison with numpy/scipy (bench/compare_chapters.sh): the script's Python side
// draws the data once into the folder named by comparedata.Env (raw little-endian float64, row
// major), with the scores its Gram + Cholesky route gives on the first 1000 rows; the test below
// checks that Exact gives the same scores, the benchmark times Exact on the very data Python
// times. Both skip when the variable is unset.
const (
	compareRLSN, compareSmall = 5000, 1000
)

// thesisKernel returns the Gaussian kernel and ridge of the thesis's rules for x.
func thesisKernel(tb testing.TB, x mat.Matrix) (kernel.Gaussian, float64, float64) {
	tb.Helper()
	sigma2, err := kernel.MeanSquaredDistance(x)
	if err != nil {
		tb.Fatal(err)
	}
	lambda, err := kernel.ThesisRidge(x)
	if err != nil {
		tb.Fatal(err)
	}
	return gaussian(tb, math.Sqrt(sigma2)), sigma2, lambda
}

// TestExactAgreesWithScipy: on the first 1000 rows of the comparison data, the thesis's σ² and λ
// and the exact scores equal those of the Python side (checked there against a general inverse).
func TestExactAgreesWithScipy(t *testing.T) {
	dir := comparedata.Dir(t)
	x := mat.NewDense(compareSmall, benchD, comparedata.Floats(t, dir, "rls_x.f64", compareRLSN*benchD)[:compareSmall*benchD])
	k, sigma2, lambda := thesisKernel(t, x)
	params := comparedata.Floats(t, dir, "rls_small_params.f64", 2)
	if math.Abs(sigma2-params[0]) > 1e-12*params[0] || math.Abs(lambda-params[1]) > 1e-12*params[1] {
		t.Fatalf("σ², λ = %v, %v; Python %v, %v", sigma2, lambda, params[0], params[1])
	}
	scores, _, err := Exact(k, x, lambda, ExactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := maxAbsDiff(scores, comparedata.Floats(t, dir, "rls_small_scores.f64", compareSmall)); diff > 1e-8 {
		t.Errorf("max |lab − scipy| = %.3g over %d scores, want ≤ 1e-8", diff, compareSmall)
	} else {
		t.Logf("max |lab − scipy| = %.3g over %d scores", diff, compareSmall)
	}
}

// BenchmarkCompareExactRLS times Exact at n = 5000 on the data the Python side times.
func BenchmarkCompareExactRLS(b *testing.B) {
	x := mat.NewDense(compareRLSN, benchD, comparedata.Floats(b, comparedata.Dir(b), "rls_x.f64", compareRLSN*benchD))
	k, _, lambda := thesisKernel(b, x)
	b.ResetTimer()
	for range b.N {
		if _, _, err := Exact(k, x, lambda, ExactOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// covtypeResampled returns the 31,220 Covertype rows of the data mirror (LAB_DATA_MIRROR, else
// /work/shared/datasets; no download), standardised, then resampled with replacement up to n rows.
func covtypeResampled(b *testing.B, rng *rand.Rand, n int) *mat.Dense {
	b.Helper()
	mirror := os.Getenv("LAB_DATA_MIRROR")
	if mirror == "" {
		mirror = "/work/shared/datasets"
	}
	if st, err := os.Stat(mirror); err != nil || !st.IsDir() {
		b.Skipf("no data mirror at %s (set LAB_DATA_MIRROR)", mirror)
	}
	table, err := dataset.Source{Mirror: mirror}.Table(context.Background(), "covtype", dataset.Variant("subset-31220"))
	if err != nil {
		b.Fatal(err)
	}
	rows, err := table.Matrix(dataset.Prep{Standardise: true})
	if err != nil {
		b.Fatal(err)
	}
	r, d := rows.Dims()
	x := mat.NewDense(n, d, nil)
	for i := range n {
		copy(x.RawRowView(i), rows.RawRowView(rng.IntN(r)))
	}
	b.Logf("covtype %s: %d standardised rows resampled with replacement to n = %d", table.Variant, r, n)
	return x
}

// vmHWM returns the peak resident set of the process (VmHWM of /proc/self/status) in bytes, or
// NaN where that file is missing.
func vmHWM() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return math.NaN()
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			var kB float64
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kB); err == nil {
				return kB * 1024
			}
		}
	}
	return math.NaN()
}

// BenchmarkDACCovtypeResampled is DAC (m = 762) at Covertype's full size, n = 581012, on the
// mirror's 31,220 real rows resampled with replacement (the mirror lacks the full file), with the
// thesis's σ² and λ of the resampled data. Target: under 30 s on the 2-core reference machine.
// Beyond benchScores's metrics it reports the process's peak resident set (VmHWM-MB), which
// includes the 251 MB of data and the loaded table.
func BenchmarkDACCovtypeResampled(b *testing.B) {
	if testing.Short() {
		b.Skip("581012 × 54 points (251 MB) and tens of seconds per run")
	}
	x := covtypeResampled(b, rand.New(rand.NewPCG(581012, 54)), benchCovertype)
	k, sigma2, lambda := thesisKernel(b, x)
	b.Logf("σ² = %.4g, λ = %.4g, GOMAXPROCS-wide DAC with blocks of at most 762 points", sigma2, lambda)
	benchScores(b, func(rng *rand.Rand) error { _, err := DAC(rng, k, x, lambda, DACOptions{BlockSize: 762}); return err })
	b.ReportMetric(vmHWM()/1e6, "VmHWM-MB")
}
