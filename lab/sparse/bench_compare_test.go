package sparse

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Side-by-side comparison with scikit-learn (bench/compare_chapters.sh): the script's Python side
// draws the 2000 × 4000 unit-norm Gaussian dictionary and a Gaussian signal into the folder named
// by compareDataEnv (raw little-endian float64, row major) with the coefficients of
// OrthogonalMatchingPursuit(n_nonzero_coefs=50, fit_intercept=False); the test below checks that
// OrthogonalMatchingPursuit picks the same 50 atoms with the same coefficients, the benchmarks
// time it on the very problem Python times. All skip when the variable is unset.
const compareDataEnv = "KERNELLAB_COMPARE_DATA"

// compareProblem returns the comparison dictionary (d×n, atoms as columns), the signal and the
// folder they come from, or skips.
func compareProblem(tb testing.TB) (*mat.Dense, []float64, string) {
	tb.Helper()
	dir := os.Getenv(compareDataEnv)
	if dir == "" {
		tb.Skipf("%s is not set (bench/compare_chapters.sh sets it)", compareDataEnv)
	}
	m := mat.NewDense(benchOMPd, benchOMPn, readFloats(tb, dir, "omp_dictionary.f64", benchOMPd*benchOMPn))
	return m, readFloats(tb, dir, "omp_y.f64", benchOMPd), dir
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
	want := readFloats(t, dir, "omp_coef.f64", benchOMPn)
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
