package learn_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/internal/comparedata"
	"github.com/fastkernels/kernellab/lab/learn"
)

// Side-by-side comparison with scikit-learn (bench/compare_slides.sh, the slides' library, issue
// 14). The script names a folder in comparedata.Env; TestWriteLearnCompareData fills it once with
// the data both sides time (raw little-endian float64, row major):
//   - knn_{train,query}_{x,y}.f64: the LFW faces of the data mirror (faces_lfw: 9,164 images of
//     1,680 people, 250 × 250 pixels averaged over 5 × 5 blocks to 50 × 50), split 80/20 into
//     training and query faces, centred on the training mean and projected on the 100 leading
//     right singular vectors of the centred training faces (factor.TruncatedSVD, the classic
//     SVD); labels are person numbers (people in name order).
//
// The Python side then writes the predictions of KNeighborsClassifier(algorithm="brute") with the
// same K (sklearn_knn_pred.f64) and TestKNNAgreesWithSklearn compares the lab's with them.
// BenchmarkCompareKNNPredict times the very problem the Python side times;
// BenchmarkCompareTopicModel (Go only) fits the topic model to the 20 Newsgroups bag of words
// that lab/factor's TestWriteFactorCompareData writes. All skip when comparedata.Env is unset.

const (
	// compareDownscale averages the LFW images over 5 × 5 pixel blocks (50 × 50 = 2500 pixels).
	compareDownscale = 5
	// compareComponents is the number of classic-SVD components the faces are projected on.
	compareComponents = 100
	// compareNeighbours is K, scikit-learn's default n_neighbors.
	compareNeighbours = 5
	// compareTopics is the number of topics T of issue 14.
	compareTopics = 30
	// compareSplitSeed seeds the 80/20 split of the faces.
	compareSplitSeed = 2014
)

// TestWriteLearnCompareData writes the comparison data (see above).
func TestWriteLearnCompareData(t *testing.T) {
	dir := comparedata.Dir(t)
	faces, err := dataset.DefaultSource().Faces(context.Background(), "faces_lfw", compareDownscale)
	if err != nil {
		t.Fatal(err)
	}
	n, d := faces.Pixels.Dims()
	people := slices.Compact(slices.Sorted(slices.Values(faces.Person)))
	parts, err := dataset.Split(rand.New(rand.NewPCG(compareSplitSeed, 0)), n, 0.8, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	pick := func(rows []int) (*mat.Dense, []float64) {
		x := mat.NewDense(len(rows), d, nil)
		y := make([]float64, len(rows))
		for k, i := range rows {
			x.SetRow(k, faces.Pixels.RawRowView(i))
			p, _ := slices.BinarySearch(people, faces.Person[i])
			y[k] = float64(p)
		}
		return x, y
	}
	trainX, trainY := pick(parts[0])
	queryX, queryY := pick(parts[1])
	mean := make([]float64, d)
	for i := range len(trainY) {
		for j, v := range trainX.RawRowView(i) {
			mean[j] += v / float64(len(trainY))
		}
	}
	for _, x := range []*mat.Dense{trainX, queryX} {
		r, _ := x.Dims()
		for i := range r {
			row := x.RawRowView(i)
			for j := range row {
				row[j] -= mean[j]
			}
		}
	}
	svd, err := factor.TruncatedSVD(trainX, compareComponents)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		prefix string
		x      *mat.Dense
		y      []float64
	}{{"knn_train", trainX, trainY}, {"knn_query", queryX, queryY}} {
		var proj mat.Dense
		proj.Mul(s.x, svd.V)
		comparedata.Write(t, dir, s.prefix+"_x.f64", proj.RawMatrix().Data)
		comparedata.Write(t, dir, s.prefix+"_y.f64", s.y)
	}
	t.Logf("LFW faces: %d people, %d training and %d query faces of %d pixels, projected on %d classic-SVD components",
		len(people), len(trainY), len(queryY), d, compareComponents)
}

// compareFaces returns the projected faces written by TestWriteLearnCompareData, or skips.
func compareFaces(tb testing.TB) (trainX *mat.Dense, trainY []float64, queryX *mat.Dense, queryY []float64) {
	tb.Helper()
	dir := comparedata.Dir(tb)
	trainX = comparedata.Matrix(tb, dir, "knn_train_x.f64", compareComponents)
	queryX = comparedata.Matrix(tb, dir, "knn_query_x.f64", compareComponents)
	n, _ := trainX.Dims()
	q, _ := queryX.Dims()
	return trainX, comparedata.Floats(tb, dir, "knn_train_y.f64", n), queryX, comparedata.Floats(tb, dir, "knn_query_y.f64", q)
}

// TestKNNAgreesWithSklearn: the lab's K-nearest-neighbour predictions of the query faces equal
// those of scikit-learn's KNeighborsClassifier(n_neighbors=5, algorithm="brute"), face by face.
func TestKNNAgreesWithSklearn(t *testing.T) {
	trainX, trainY, queryX, queryY := compareFaces(t)
	want := comparedata.Floats(t, comparedata.Dir(t), "sklearn_knn_pred.f64", len(queryY))
	m, err := learn.FitKNN(trainX, trainY, compareNeighbours)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := m.Predict(queryX)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pred {
		if p != want[i] {
			t.Fatalf("query face %d: lab predicts person %g, scikit-learn person %g", i, p, want[i])
		}
	}
	acc, err := learn.Accuracy(queryY, pred)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("KNN, K = %d: the same %d predictions as scikit-learn (accuracy %.4f)", compareNeighbours, len(pred), acc)
}

// BenchmarkCompareKNNPredict predicts the query faces with the K nearest training faces (the
// model fitted once, outside the timing, as on the Python side).
func BenchmarkCompareKNNPredict(b *testing.B) {
	trainX, trainY, queryX, _ := compareFaces(b)
	m, err := learn.FitKNN(trainX, trainY, compareNeighbours)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := m.Predict(queryX); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareTopicModel fits the T = 30 topic model to the 20 Newsgroups bag of words (one
// restart, hard EM to its fixed point or 100 iterations) and reports the documents processed per
// second per EM iteration (D × iterations / time; the time includes the copy of the rows and the
// seeding, so this slightly understates the rate of the iterations alone) and the iterations.
func BenchmarkCompareTopicModel(b *testing.B) {
	docs := comparedata.Sparse(b, comparedata.Dir(b), "bow")
	D, _ := docs.Dims()
	iterations := 0
	b.ResetTimer()
	for r := range b.N {
		m, err := learn.FitTopicModel(rand.New(rand.NewPCG(uint64(r), 2)), docs, compareTopics, learn.TopicModelOptions{})
		if err != nil {
			b.Fatal(err)
		}
		iterations += m.Iterations
	}
	b.ReportMetric(float64(D*iterations)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(iterations)/float64(b.N), "iterations")
}

// Side-by-side comparison of learn.Assignment with scipy's linear_sum_assignment
// (bench/compare_assignment.sh, issues 34 and 35). TestWriteAssignmentCompareData writes the cost
// matrices both sides solve (raw little-endian float64, row major): n × n for n = 500, 2000 and
// 3000 of three kinds,
//   - zeros: every assignment is optimal, ties everywhere (the earlier solver took 95 s at 3000,
//     scipy 0.12 s);
//   - ints: integer costs drawn uniformly from 0–4, many ties (25 s against 0.056 s at 2000);
//   - uniform: costs uniform on [0, 1), no ties,
//
// as assign_<kind>_<n>.f64. The Python side writes scipy's optimal totals
// (scipy_assign_totals.f64, in the order of assignmentCases), which TestAssignmentAgreesWithScipy
// compares with the lab's, and times linear_sum_assignment on each; BenchmarkCompareAssignment
// times the lab on the same matrices. All skip when comparedata.Env is unset.
var assignmentCases = func() []assignmentCase {
	kinds := []struct {
		name string
		cost func(rng *rand.Rand) float64
	}{
		{"zeros", func(*rand.Rand) float64 { return 0 }},
		{"ints", func(rng *rand.Rand) float64 { return float64(rng.IntN(5)) }},
		{"uniform", func(rng *rand.Rand) float64 { return rng.Float64() }},
	}
	var out []assignmentCase
	for _, k := range kinds {
		for _, n := range []int{500, 2000, 3000} {
			out = append(out, assignmentCase{fmt.Sprintf("%s_%d", k.name, n), n, k.cost})
		}
	}
	return out
}()

// assignmentCase is one cost matrix of the comparison: its name, order and entry distribution.
type assignmentCase struct {
	name string
	n    int
	cost func(rng *rand.Rand) float64
}

// TestWriteAssignmentCompareData writes the cost matrices (see above).
func TestWriteAssignmentCompareData(t *testing.T) {
	dir := comparedata.Dir(t)
	for k, c := range assignmentCases {
		rng := rand.New(rand.NewPCG(34, uint64(k)))
		v := make([]float64, c.n*c.n)
		for i := range v {
			v[i] = c.cost(rng)
		}
		comparedata.Write(t, dir, "assign_"+c.name+".f64", v)
	}
	t.Logf("assignment: %d cost matrices written (zeros, integers 0–4 and uniform costs at n = 500, 2000, 3000)", len(assignmentCases))
}

// compareCosts reads the cost matrix of case name written by TestWriteAssignmentCompareData.
func compareCosts(tb testing.TB, name string, n int) *mat.Dense {
	tb.Helper()
	return comparedata.Matrix(tb, comparedata.Dir(tb), "assign_"+name+".f64", n)
}

// TestAssignmentAgreesWithScipy: on every matrix the lab's optimal total equals scipy's, exactly
// for the integer costs and within 1e-12 relative for the uniform ones (sums of 1000 terms in
// another order), and the lab's columns are a permutation whose costs add up to its total.
func TestAssignmentAgreesWithScipy(t *testing.T) {
	want := comparedata.Floats(t, comparedata.Dir(t), "scipy_assign_totals.f64", len(assignmentCases))
	for k, c := range assignmentCases {
		C := compareCosts(t, c.name, c.n)
		cols, total, err := learn.Assignment(C)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, c.n)
		sum := 0.0
		for i, j := range cols {
			if seen[j] {
				t.Fatalf("%s: column %d assigned twice", c.name, j)
			}
			seen[j] = true
			sum += C.At(i, j)
		}
		tol := 0.0
		if strings.HasPrefix(c.name, "uniform") {
			tol = 1e-12 * want[k]
		}
		if math.Abs(total-want[k]) > tol || sum != total {
			t.Errorf("%s: lab total %.17g (columns sum to %.17g), scipy %.17g", c.name, total, sum, want[k])
		}
		t.Logf("assignment %s %d×%d: total %.10g, scipy's %.10g", c.name, c.n, c.n, total, want[k])
	}
}

// BenchmarkCompareAssignment solves each matrix (the copy of C into the solver's checked rows
// included: a *mat.Dense is used in place).
func BenchmarkCompareAssignment(b *testing.B) {
	for _, c := range assignmentCases {
		b.Run(c.name, func(b *testing.B) {
			C := compareCosts(b, c.name, c.n)
			b.ResetTimer()
			for range b.N {
				if _, _, err := learn.Assignment(C); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
