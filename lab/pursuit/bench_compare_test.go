package pursuit

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/comparedata"
)

// Side-by-side comparison with scikit-learn (bench/compare_chapters.sh): the script's Python side
// draws the 2000 × 4000 unit-norm Gaussian dictionary and a Gaussian signal into the folder named
// by comparedata.Env (raw little-endian float64, row major) with the coefficients of
// OrthogonalMatchingPursuit(n_nonzero_coefs=50, fit_intercept=False); the test below checks that
// OrthogonalMatchingPursuit picks the same 50 atoms with the same coefficients, the benchmarks
// time it on the very problem Python times. All skip when the variable is unset.

// compareProblem returns the comparison dictionary (d×n, atoms as columns), the signal and the
// folder they come from, or skips.
func compareProblem(tb testing.TB) (*mat.Dense, []float64, string) {
	tb.Helper()
	dir := comparedata.Dir(tb)
	m := mat.NewDense(benchOMPd, benchOMPn, comparedata.Floats(tb, dir, "omp_dictionary.f64", benchOMPd*benchOMPn))
	return m, comparedata.Floats(tb, dir, "omp_y.f64", benchOMPd), dir
}

// TestOMPAgreesWithSklearn: same support as scikit-learn, coefficients equal to 1e-8.
func TestOMPAgreesWithSklearn(t *testing.T) {
	m, y, dir := compareProblem(t)
	dd, err := NewDenseDictionary(m)
	if err != nil {
		t.Fatal(err)
	}
	res, err := OrthogonalMatchingPursuit(dd, y, Options{MaxAtoms: benchOMPAtoms})
	if err != nil {
		t.Fatal(err)
	}
	want := comparedata.Floats(t, dir, "omp_coef.f64", benchOMPn)
	var wantSupport []int
	for j, c := range want {
		if c != 0 {
			wantSupport = append(wantSupport, j)
		}
	}
	support := slices.Sorted(slices.Values(res.Atoms))
	if !slices.Equal(support, wantSupport) {
		t.Fatalf("support %v, scikit-learn %v", support, wantSupport)
	}
	var diff float64
	for j, c := range res.Vector() {
		diff = max(diff, math.Abs(c-want[j]))
	}
	if diff > 1e-8 {
		t.Errorf("max |lab − scikit-learn| coefficient = %.3g, want ≤ 1e-8", diff)
	} else {
		t.Logf("same %d atoms as scikit-learn; max coefficient difference %.3g", len(support), diff)
	}
}

// BenchmarkCompareOMP is the solve alone on a DenseDictionary built beforehand (no copy of the
// dictionary inside the timing).
func BenchmarkCompareOMP(b *testing.B) {
	m, y, _ := compareProblem(b)
	dd, err := NewDenseDictionary(m)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if res, err := OrthogonalMatchingPursuit(dd, y, Options{MaxAtoms: benchOMPAtoms}); err != nil || len(res.Atoms) != benchOMPAtoms {
			b.Fatal(err, len(res.Atoms))
		}
	}
}

// BenchmarkCompareOMPWithSetup adds NewDenseDictionary (a transposed copy of the dictionary and
// its 8-bit screen) to every solve, as scikit-learn's fit copies the dictionary.
func BenchmarkCompareOMPWithSetup(b *testing.B) {
	m, y, _ := compareProblem(b)
	b.ResetTimer()
	for range b.N {
		dd, err := NewDenseDictionary(m)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := OrthogonalMatchingPursuit(dd, y, Options{MaxAtoms: benchOMPAtoms}); err != nil {
			b.Fatal(err)
		}
	}
}
