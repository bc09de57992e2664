package factor_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/internal/comparedata"
	"github.com/fastkernels/kernellab/lab/text"
)

// Side-by-side comparison with scikit-learn and numpy (bench/compare_slides.sh, the slides'
// library, issue 14). The script names a folder in comparedata.Env; TestWriteFactorCompareData
// fills it once with the data both sides time (raw little-endian float64, row major):
//   - rsvd_dense.f64: a 20,000 × 1000 matrix P·diag(s)·Vᵀ with P and V orthonormal (the Q factors
//     of Gaussian matrices) and s_i = exp(−i/compareDecay), so its singular values are known in
//     closed form (rsvd_dense_values.f64, the first compareK);
//   - bow_{shape,i,j,v}.f64: the 20 Newsgroups bag of words (lab/text's defaults: English stop
//     words removed, every other word kept) as COO triplets (comparedata.WriteSparse);
//   - svd_dense.f64: a 2000 × 1000 standard Gaussian matrix for the classic SVD.
//
// The Python side then writes scikit-learn's randomized_svd values on both matrices
// (sklearn_rsvd_{dense,sparse}_values.f64), scipy's svds values on the bag of words (the
// reference there, svds_sparse_values.f64) and numpy's SVD values of svd_dense.f64
// (numpy_svd_values.f64), and the *AgreesWith* tests compare the lab with them; the Compare
// benchmarks time the very problems the Python side times. All skip when comparedata.Env is
// unset. lab/learn's compare benchmarks read the bag of words too.

const (
	// compareRows × compareCols is the dense randomized-SVD matrix of issue 14.
	compareRows, compareCols = 20000, 1000
	// compareK, compareOversample and comparePower are the k, p and q.
	compareK, compareOversample, comparePower = 50, 10, 4
	// compareDecay sets the dense matrix's spectrum s_i = exp(−i/compareDecay): σ_61/σ_50 = 1/3,
	// so four power iterations resolve all 50 values (to about 1e-8 relative).
	compareDecay = 10
	// compareSVDRows × compareCols is the classic-SVD matrix.
	compareSVDRows = 2000
	// compareDataSeed seeds the drawn matrices; compareRSVDSeed the lab's test matrices Ω.
	compareDataSeed = 2014
	compareRSVDSeed = 14
)

// compareOptions are the randomized-SVD options of issue 14.
var compareOptions = factor.RandomizedSVDOptions{Oversample: compareOversample, PowerIterations: comparePower}

// orthonormalColumns returns the thin Q factor (r×c, r ≥ c) of an r×c standard Gaussian matrix,
// from LAPACK's Householder QR as gonum implements it (independent of lab/factor's CholeskyQR).
func orthonormalColumns(rng *rand.Rand, r, c int) *mat.Dense {
	q := gaussian(rng, r, c)
	g := q.RawMatrix()
	tau := make([]float64, c)
	work := make([]float64, 1)
	lapack64.Geqrf(g, tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	lapack64.Geqrf(g, tau, work, len(work))
	lapack64.Orgqr(g, tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	lapack64.Orgqr(g, tau, work, len(work))
	return q
}

// gaussian returns an r×c matrix of standard normal draws from rng, row by row.
func gaussian(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	raw := m.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.NormFloat64()
	}
	return m
}

// newsgroupsBagOfWords returns the 20 Newsgroups bag of words (lab/text's defaults) from the data
// mirror as a CSR matrix of counts.
func newsgroupsBagOfWords(tb testing.TB) *csr.Matrix {
	tb.Helper()
	corpus, err := dataset.DefaultSource().Corpus(context.Background(), "corpus_20newsgroups", 0)
	if err != nil {
		tb.Fatal(err)
	}
	bow, err := text.FromCorpus(corpus, text.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	docs, words := bow.Dims()
	indptr := make([]int, 1, docs+1)
	indices := make([]int, 0, bow.NNZ())
	counts := make([]float64, 0, bow.NNZ())
	for d := range docs {
		idx, c := bow.Row(d)
		indices, counts = append(indices, idx...), append(counts, c...)
		indptr = append(indptr, len(indices))
	}
	m, err := csr.New(docs, words, indptr, indices, counts)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestWriteFactorCompareData writes the comparison data (see above).
func TestWriteFactorCompareData(t *testing.T) {
	dir := comparedata.Dir(t)
	rng := rand.New(rand.NewPCG(compareDataSeed, 0))
	p := orthonormalColumns(rng, compareRows, compareCols)
	v := orthonormalColumns(rng, compareCols, compareCols)
	s := make([]float64, compareCols)
	for i := range s {
		s[i] = math.Exp(-float64(i) / compareDecay)
	}
	for i := range compareRows {
		row := p.RawRowView(i)
		for j := range row {
			row[j] *= s[j]
		}
	}
	var a mat.Dense
	a.Mul(p, v.T())
	comparedata.Write(t, dir, "rsvd_dense.f64", a.RawMatrix().Data)
	comparedata.Write(t, dir, "rsvd_dense_values.f64", s[:compareK])

	bow := newsgroupsBagOfWords(t)
	comparedata.WriteSparse(t, dir, "bow", bow)
	docs, words := bow.Dims()
	t.Logf("20 Newsgroups bag of words: %d documents × %d words, %d stored counts", docs, words, bow.NNZ())

	comparedata.Write(t, dir, "svd_dense.f64", gaussian(rng, compareSVDRows, compareCols).RawMatrix().Data)
}

// compareMatrix returns the randomized-SVD matrix of kind "dense" or "sparse" written by
// TestWriteFactorCompareData, or skips.
func compareMatrix(tb testing.TB, kind string) mat.Matrix {
	tb.Helper()
	dir := comparedata.Dir(tb)
	if kind == "sparse" {
		return comparedata.Sparse(tb, dir, "bow")
	}
	return comparedata.Matrix(tb, dir, "rsvd_dense.f64", compareCols)
}

// maxRelativeError returns max_i |got_i − want_i| / want_i.
func maxRelativeError(got, want []float64) float64 {
	var e float64
	for i, w := range want {
		e = max(e, math.Abs(got[i]-w)/w)
	}
	return e
}

// TestRandomizedSVDAgreesWithSklearn: on the dense matrix, the lab's 50 values are within 1e-6
// (relative) of the closed form, as scikit-learn's randomized_svd's are (the Python side checks
// its own); on the bag of words, within 5e-2 of scipy's svds (ARPACK, to machine precision), as
// scikit-learn's are (its spectrum decays slowly, so four power iterations leave errors of 1–2%
// on the last values, on both sides). Both routes then solve the same problem to about the same
// accuracy.
func TestRandomizedSVDAgreesWithSklearn(t *testing.T) {
	for _, c := range []struct {
		kind, reference string
		tol             float64
	}{
		{"dense", "rsvd_dense_values.f64", 1e-6},
		{"sparse", "svds_sparse_values.f64", 5e-2},
	} {
		t.Run(c.kind, func(t *testing.T) {
			a := compareMatrix(t, c.kind)
			dir := comparedata.Dir(t)
			want := comparedata.Floats(t, dir, c.reference, compareK)
			sklearn := comparedata.Floats(t, dir, "sklearn_rsvd_"+c.kind+"_values.f64", compareK)
			svd, err := factor.RandomizedSVD(rand.New(rand.NewPCG(compareRSVDSeed, 0)), a, compareK, compareOptions)
			if err != nil {
				t.Fatal(err)
			}
			lab, skl := maxRelativeError(svd.Values, want), maxRelativeError(sklearn, want)
			if lab > c.tol || skl > c.tol {
				t.Fatalf("largest relative error of the %d values: lab %.3g, scikit-learn %.3g, want both ≤ %g", compareK, lab, skl, c.tol)
			}
			t.Logf("randomized SVD, %s: largest relative error of the %d values against %s: lab %.3g, scikit-learn %.3g; lab against scikit-learn %.3g",
				c.kind, compareK, c.reference, lab, skl, maxRelativeError(svd.Values, sklearn))
		})
	}
}

// TestTruncatedSVDAgreesWithNumpy: the lab's classic SVD gives numpy.linalg.svd's leading 50
// singular values to 1e-10 relative to the largest.
func TestTruncatedSVDAgreesWithNumpy(t *testing.T) {
	dir := comparedata.Dir(t)
	a := comparedata.Matrix(t, dir, "svd_dense.f64", compareCols)
	want := comparedata.Floats(t, dir, "numpy_svd_values.f64", compareK)
	svd, err := factor.TruncatedSVD(a, compareK)
	if err != nil {
		t.Fatal(err)
	}
	var diff float64
	for i, w := range want {
		diff = max(diff, math.Abs(svd.Values[i]-w))
	}
	if diff > 1e-10*want[0] {
		t.Fatalf("max |lab − numpy| singular value = %.3g, want ≤ 1e-10 × %.6g", diff, want[0])
	}
	t.Logf("classic SVD: the %d leading values agree with numpy's to %.3g (largest %.6g)", compareK, diff, want[0])
}

// BenchmarkCompareRandomizedSVD runs RandomizedSVD (k = 50, p = 10, q = 4) on the dense matrix and
// on the bag of words, a new Ω per call.
func BenchmarkCompareRandomizedSVD(b *testing.B) {
	for _, kind := range []string{"dense", "sparse"} {
		b.Run(kind, func(b *testing.B) {
			a := compareMatrix(b, kind)
			b.ResetTimer()
			for r := range b.N {
				if _, err := factor.RandomizedSVD(rand.New(rand.NewPCG(uint64(r), 1)), a, compareK, compareOptions); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompareTruncatedSVD runs the classic SVD of the 2000 × 1000 matrix (the 50 leading
// triplets of its full thin SVD).
func BenchmarkCompareTruncatedSVD(b *testing.B) {
	a := comparedata.Matrix(b, comparedata.Dir(b), "svd_dense.f64", compareCols)
	b.ResetTimer()
	for range b.N {
		if _, err := factor.TruncatedSVD(a, compareK); err != nil {
			b.Fatal(err)
		}
	}
}
