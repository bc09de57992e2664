package forest_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/forest"
	"github.com/fastkernels/kernellab/lab/internal/comparedata"
)

// Side-by-side comparison with scikit-learn (bench/compare_forest.sh, chapter 6, issue 13). The
// script names a folder in comparedata.Env; TestWriteForestCompareData fills it once with the
// data both sides time (raw little-endian float64, row major):
//   - california_{train,val}_{x,y}.f64: data set "houses" (20,640 × 8), the training (60%,
//     12,384 rows) and validation (20%) parts of dataset.Split under compareSplitSeed;
//   - spambase_{train,val}_{x,y}.f64: Spambase (4,601 × 57) split the same way, labels ±1
//     (+1: spam);
//   - prune_p.f64, prune_y.f64: the n × 1000 per-tree predictions of a 1000-tree forest grown on
//     California's training part, on its training and validation rows (n = 16,512), and their
//     targets: the matrix the thesis's pruning works on.
//
// The Python side then writes the order in which scikit-learn's orthogonal_mp picks the trees on
// the unit-norm columns (sklearn_omp_order.f64) and TestPruneOMPAgreesWithSklearn compares
// PruneOMP with it; the Compare benchmarks time the very problems the Python side times. All
// skip when comparedata.Env is unset.

const (
	// compareTrees is the forest size of the thesis's chapter 6.
	compareTrees = 1000
	// comparePruneMax is the largest pruned size: 30% of the forest.
	comparePruneMax = 300
	// compareSplitSeed seeds the 60/20/20 splits; compareForestSeed the forest of prune_p.f64.
	compareSplitSeed  = 2024
	compareForestSeed = 13
)

// compareSets are the data sets of the forest timings: file prefix, lab data set, task.
var compareSets = []struct {
	prefix, name string
	task         forest.Task
}{
	{"california", "houses", forest.Regression},
	{"spambase", "spambase", forest.Classification},
}

// compareSplit loads data set name from the mirror (dataset.DefaultSource) and returns the rows
// of its training and validation parts: raw features, and targets as values (Regression) or ±1
// labels (Classification, class code 1 → +1).
func compareSplit(tb testing.TB, name string, task forest.Task) (trainX *mat.Dense, trainY []float64, valX *mat.Dense, valY []float64) {
	tb.Helper()
	table, err := dataset.DefaultSource().Table(context.Background(), name)
	if err != nil {
		tb.Fatal(err)
	}
	X, err := table.Matrix(dataset.Prep{})
	if err != nil {
		tb.Fatal(err)
	}
	y := slices.Clone(table.Target.Values)
	if task == forest.Classification {
		for i, code := range y {
			y[i] = 2*code - 1
		}
	}
	parts, err := dataset.Split(rand.New(rand.NewPCG(compareSplitSeed, 0)), len(y), 0.6, 0.2, 0.2)
	if err != nil {
		tb.Fatal(err)
	}
	pick := func(rows []int) (*mat.Dense, []float64) {
		_, d := X.Dims()
		sub := mat.NewDense(len(rows), d, nil)
		ys := make([]float64, len(rows))
		for k, i := range rows {
			sub.SetRow(k, X.RawRowView(i))
			ys[k] = y[i]
		}
		return sub, ys
	}
	trainX, trainY = pick(parts[0])
	valX, valY = pick(parts[1])
	return trainX, trainY, valX, valY
}

// compareData returns the training and validation parts of set prefix written by
// TestWriteForestCompareData, or skips.
func compareData(tb testing.TB, prefix string, d int) (trainX *mat.Dense, trainY []float64, valX *mat.Dense, valY []float64) {
	tb.Helper()
	dir := comparedata.Dir(tb)
	trainX = comparedata.Matrix(tb, dir, prefix+"_train_x.f64", d)
	valX = comparedata.Matrix(tb, dir, prefix+"_val_x.f64", d)
	n, _ := trainX.Dims()
	m, _ := valX.Dims()
	return trainX, comparedata.Floats(tb, dir, prefix+"_train_y.f64", n), valX, comparedata.Floats(tb, dir, prefix+"_val_y.f64", m)
}

// compareFeatures is the number of columns of each comparison set.
var compareFeatures = map[string]int{"california": 8, "spambase": 57}

// TestWriteForestCompareData writes the comparison data (see above); it logs the validation
// score of the 1000-tree California forest, to set beside scikit-learn's.
func TestWriteForestCompareData(t *testing.T) {
	dir := comparedata.Dir(t)
	var calX *mat.Dense
	var calY []float64
	var valRows *mat.Dense
	var valY []float64
	for _, s := range compareSets {
		trainX, trainY, vX, vY := compareSplit(t, s.name, s.task)
		comparedata.Write(t, dir, s.prefix+"_train_x.f64", trainX.RawMatrix().Data)
		comparedata.Write(t, dir, s.prefix+"_train_y.f64", trainY)
		comparedata.Write(t, dir, s.prefix+"_val_x.f64", vX.RawMatrix().Data)
		comparedata.Write(t, dir, s.prefix+"_val_y.f64", vY)
		n, d := trainX.Dims()
		t.Logf("%s: %d training × %d features, %d validation rows", s.prefix, n, d, len(vY))
		if s.task == forest.Regression {
			calX, calY, valRows, valY = trainX, trainY, vX, vY
		}
	}
	f, err := forest.Fit(rand.New(rand.NewPCG(compareForestSeed, 0)), forest.Regression, calX, calY, forest.Options{Trees: compareTrees})
	if err != nil {
		t.Fatal(err)
	}
	var rows mat.Dense
	rows.Stack(calX, valRows)
	P, err := f.TreePredictions(&rows)
	if err != nil {
		t.Fatal(err)
	}
	comparedata.Write(t, dir, "prune_p.f64", P.RawMatrix().Data)
	comparedata.Write(t, dir, "prune_y.f64", append(slices.Clone(calY), valY...))
	pred, err := f.Predict(valRows)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("california: 1000-tree forest, validation MSE %.4f; prediction matrix %d × %d", mse(pred, valY), rows.RawMatrix().Rows, compareTrees)
}

// mse is the mean squared difference of pred and y.
func mse(pred, y []float64) float64 {
	var s float64
	for i, p := range pred {
		s += (p - y[i]) * (p - y[i])
	}
	return s / float64(len(y))
}

// accuracy is the fraction of pred equal to y.
func accuracy(pred, y []float64) float64 {
	hits := 0
	for i, p := range pred {
		if p == y[i] {
			hits++
		}
	}
	return float64(hits) / float64(len(y))
}

// comparePruning returns the prediction matrix and targets written by
// TestWriteForestCompareData, and the folder, or skips.
func comparePruning(tb testing.TB) (*mat.Dense, []float64, string) {
	tb.Helper()
	dir := comparedata.Dir(tb)
	P := comparedata.Matrix(tb, dir, "prune_p.f64", compareTrees)
	n, _ := P.Dims()
	return P, comparedata.Floats(tb, dir, "prune_y.f64", n), dir
}

// pruneSizes is every size from 1 to comparePruneMax.
func pruneSizes() []int {
	sizes := make([]int, comparePruneMax)
	for k := range sizes {
		sizes[k] = k + 1
	}
	return sizes
}

// TestPruneOMPAgreesWithSklearn: PruneOMP picks the trees in the order scikit-learn's
// orthogonal_mp picks them on the unit-norm columns (return_path=True), at every step up to
// 300, and the weights of size 300 on the raw columns agree to 1e-10 relative to the largest.
func TestPruneOMPAgreesWithSklearn(t *testing.T) {
	P, y, dir := comparePruning(t)
	pr, err := forest.PruneOMP(P, y, []int{comparePruneMax}, forest.PruneOptions{Task: forest.Regression})
	if err != nil {
		t.Fatal(err)
	}
	order := comparedata.Floats(t, dir, "sklearn_omp_order.f64", comparePruneMax)
	weights := comparedata.Floats(t, dir, "sklearn_omp_weights.f64", comparePruneMax)
	sel := pr.Selections[0]
	if len(sel.Trees) != comparePruneMax {
		t.Fatalf("PruneOMP kept %d trees (stopped at %d), want %d", len(sel.Trees), pr.Stopped, comparePruneMax)
	}
	var diff, largest float64
	for k, tree := range sel.Trees {
		if float64(tree) != order[k] {
			t.Fatalf("step %d: PruneOMP picks tree %d, scikit-learn tree %g", k+1, tree, order[k])
		}
		diff = max(diff, math.Abs(sel.Weights[k]-weights[k]))
		largest = max(largest, math.Abs(weights[k]))
	}
	if diff > 1e-10*largest {
		t.Fatalf("max |lab − scikit-learn| weight = %.3g, want ≤ 1e-10 × %.3g", diff, largest)
	}
	t.Logf("same %d trees in the same order as scikit-learn's orthogonal_mp path; max weight difference %.3g (largest weight %.3g)", comparePruneMax, diff, largest)
}

// BenchmarkCompareForestFit grows 1000 fully grown trees with bootstrap on each comparison set
// (MaxFeatures: d for California, ⌊√d⌋ for Spambase, the defaults), on all cores, and reports
// the validation MSE or accuracy beside the time.
func BenchmarkCompareForestFit(b *testing.B) {
	for _, s := range compareSets {
		b.Run(s.prefix, func(b *testing.B) {
			X, y, valX, valY := compareData(b, s.prefix, compareFeatures[s.prefix])
			var f *forest.Forest
			var err error
			b.ResetTimer()
			for r := range b.N {
				if f, err = forest.Fit(rand.New(rand.NewPCG(uint64(r), 0)), s.task, X, y, forest.Options{Trees: compareTrees}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			pred, err := f.Predict(valX)
			if err != nil {
				b.Fatal(err)
			}
			if s.task == forest.Regression {
				b.ReportMetric(mse(pred, valY), "val-MSE")
			} else {
				b.ReportMetric(accuracy(pred, valY), "val-accuracy")
			}
		})
	}
}

// BenchmarkComparePruneOMP prunes the comparison prediction matrix with OMP at every size from 1
// to 300 (one path, as PruneOMP does).
func BenchmarkComparePruneOMP(b *testing.B) {
	P, y, _ := comparePruning(b)
	sizes := pruneSizes()
	b.ResetTimer()
	for range b.N {
		if _, err := forest.PruneOMP(P, y, sizes, forest.PruneOptions{Task: forest.Regression}); err != nil {
			b.Fatal(err)
		}
	}
}
