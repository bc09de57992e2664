package forest

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// friedman1 draws n rows of Friedman's first regression problem (d = 5 uniform features,
// y = 10 sin(π x₀x₁) + 20 (x₂ − ½)² + 10 x₃ + 5 x₄) with Gaussian noise of standard deviation
// noise.
func friedman1(rng *rand.Rand, n int, noise float64) (*mat.Dense, []float64) {
	X := mat.NewDense(n, 5, nil)
	y := make([]float64, n)
	for i := range n {
		x := X.RawRowView(i)
		for j := range x {
			x[j] = rng.Float64()
		}
		y[i] = 10*math.Sin(math.Pi*x[0]*x[1]) + 20*(x[2]-0.5)*(x[2]-0.5) + 10*x[3] + 5*x[4] + noise*rng.NormFloat64()
	}
	return X, y
}

// signs returns the ±1 labels sign(v − threshold), 0 giving +1.
func signs(y []float64, threshold float64) []float64 {
	labels := make([]float64, len(y))
	for i, v := range y {
		labels[i] = 1
		if v < threshold {
			labels[i] = -1
		}
	}
	return labels
}

// fitPredictions fits a forest with a fresh generator seeded by seed and returns its tree
// predictions on X.
func fitPredictions(t *testing.T, seed uint64, task Task, X *mat.Dense, y []float64, opts Options) *mat.Dense {
	t.Helper()
	f, err := Fit(rand.New(rand.NewPCG(seed, 0)), task, X, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	P, err := f.TreePredictions(X)
	if err != nil {
		t.Fatal(err)
	}
	return P
}

// TestForestIsDeterministic checks that the seed alone fixes the forest: the same seed gives the
// same per-tree predictions with GOMAXPROCS 1 and 4, another seed different ones, and the
// bootstrap makes the trees differ from one another.
func TestForestIsDeterministic(t *testing.T) {
	X, y := friedman1(rand.New(rand.NewPCG(7, 7)), 300, 1)
	for _, c := range []struct {
		task Task
		y    []float64
	}{{Regression, y}, {Classification, signs(y, 14)}} {
		opts := Options{Trees: 12}
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		serial := fitPredictions(t, 42, c.task, X, c.y, opts)
		runtime.GOMAXPROCS(4)
		parallelRun := fitPredictions(t, 42, c.task, X, c.y, opts)
		again := fitPredictions(t, 42, c.task, X, c.y, opts)
		other := fitPredictions(t, 43, c.task, X, c.y, opts)
		if !mat.Equal(serial, parallelRun) || !mat.Equal(parallelRun, again) {
			t.Errorf("%v: the same seed gave different tree predictions (GOMAXPROCS 1 vs 4, or two runs)", c.task)
		}
		if mat.Equal(serial, other) {
			t.Errorf("%v: seeds 42 and 43 gave the same forest", c.task)
		}
		if mat.Equal(serial.ColView(0), serial.ColView(1)) {
			t.Errorf("%v: trees 0 and 1 agree on every training row despite different bootstrap samples", c.task)
		}
	}
}

// TestForestWithoutRandomnessRepeatsOneTree checks that without bootstrap and with MaxFeatures = d
// every tree is the plain CART tree. The feature order still breaks exact ties between features,
// and small nodes have them (two features isolating the same rows: 3 of 8 at depth 6 here), so
// the leaves keep at least 40 of the 2000 rows, where continuous data has none.
func TestForestWithoutRandomnessRepeatsOneTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	X, y := friedman1(rng, 2000, 1)
	test, _ := friedman1(rng, 500, 0)
	for _, c := range []struct {
		task Task
		y    []float64
	}{{Regression, y}, {Classification, signs(y, 14)}} {
		f, err := Fit(rng, c.task, X, c.y, Options{Trees: 6, MaxFeatures: 5, MinLeaf: 40, NoBootstrap: true})
		if err != nil {
			t.Fatal(err)
		}
		tree, err := FitTree(rng, c.task, X, c.y, TreeOptions{MinLeaf: 40})
		if err != nil {
			t.Fatal(err)
		}
		P, err := f.TreePredictions(test)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 500 {
			want, _ := tree.Predict(test.RawRowView(i))
			for j := range f.Size() {
				if P.At(i, j) != want {
					t.Fatalf("%v: tree %d predicts %v on test row %d, the single CART tree %v", c.task, j, P.At(i, j), i, want)
				}
			}
		}
	}
}

// TestPredictAggregatesTrees checks Predict against TreePredictions: the row means for
// Regression, their signs (0 → +1) for Classification; and that a matrix that is not a
// *mat.Dense gives the same results.
func TestPredictAggregatesTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	X, y := friedman1(rng, 300, 1)
	test, _ := friedman1(rng, 600, 0)
	for _, c := range []struct {
		task Task
		y    []float64
	}{{Regression, y}, {Classification, signs(y, 14)}} {
		f, err := Fit(rng, c.task, X, c.y, Options{Trees: 10})
		if err != nil {
			t.Fatal(err)
		}
		if f.Task() != c.task || f.Size() != 10 {
			t.Errorf("Task() = %v, Size() = %d; want %v and 10", f.Task(), f.Size(), c.task)
		}
		P, err := f.TreePredictions(test)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		transposed, err := f.Predict(mat.DenseCopyOf(test.T()).T())
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			mean := 0.0
			for j := range f.Size() {
				mean += P.At(i, j)
			}
			mean /= float64(f.Size())
			want := mean
			if c.task == Classification {
				want = math.Copysign(1, mean)
				if mean == 0 {
					want = 1
				}
			}
			if math.Abs(v-want) > 1e-12 || transposed[i] != v {
				t.Fatalf("%v: row %d predicted %v (%v through a transposed view), want %v", c.task, i, v, transposed[i], want)
			}
		}
	}
	// A tied vote gives +1: two single-leaf trees voting +1 and −1.
	tied := &Forest{task: Classification, d: 1, trees: []*Tree{
		{nodes: []node{{value: 1, feature: -1}}, d: 1, leaves: 1},
		{nodes: []node{{value: -1, feature: -1}}, d: 1, leaves: 1},
	}}
	if got, _ := tied.Predict(mat.NewDense(1, 1, []float64{0})); got[0] != 1 {
		t.Errorf("tied vote predicted %v, want +1", got[0])
	}
}

// TestForestBeatsTree checks the point of a forest: on noisy Friedman-1 data a 50-tree forest's
// test MSE is well below a single fully grown tree's (about a third of it with these seeds).
func TestForestBeatsTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	X, y := friedman1(rng, 500, 2)
	test, truth := friedman1(rng, 1000, 0)
	tree, err := FitTree(rng, Regression, X, y, TreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Fit(rng, Regression, X, y, Options{Trees: 50})
	if err != nil {
		t.Fatal(err)
	}
	forestPred, err := f.Predict(test)
	if err != nil {
		t.Fatal(err)
	}
	var treeMSE, forestMSE float64
	for i, want := range truth {
		p, _ := tree.Predict(test.RawRowView(i))
		treeMSE += (p - want) * (p - want) / float64(len(truth))
		forestMSE += (forestPred[i] - want) * (forestPred[i] - want) / float64(len(truth))
	}
	t.Logf("test MSE: tree %.3f, forest %.3f", treeMSE, forestMSE)
	if forestMSE > 0.5*treeMSE {
		t.Errorf("forest test MSE %.3f, want below half the single tree's %.3f", forestMSE, treeMSE)
	}
}

// TestForestDefaults checks the documented defaults: 100 trees, MaxFeatures ⌊√d⌋ for
// Classification (seen through the candidate count: with d = 9 and one informative feature, a
// stump whose 3 candidates miss it cannot split perfectly) and d for Regression.
func TestForestDefaults(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	const n, d = 60, 9
	X := mat.NewDense(n, d, nil)
	labels := make([]float64, n)
	for i := range n {
		for j := range d {
			X.Set(i, j, rng.Float64())
		}
		labels[i] = signs([]float64{X.At(i, 4)}, 0.5)[0]
	}
	for _, c := range []struct {
		task       Task
		wantMisses bool
	}{{Classification, true}, {Regression, false}} {
		f, err := Fit(rng, c.task, X, labels, Options{MaxDepth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if f.Size() != 100 {
			t.Errorf("%v: %d trees by default, want 100", c.task, f.Size())
		}
		// A stump that split on feature 4 has its root on feature 4; with 3 of 9 candidates,
		// P(miss) = (6·5·4)/(9·8·7) = 0.24, so about 24 of 100 stumps miss it.
		misses := 0
		for i := range f.Size() {
			if f.Tree(i).nodes[0].feature != 4 {
				misses++
			}
		}
		if got := misses > 5; got != c.wantMisses {
			t.Errorf("%v: %d of 100 stumps do not split on the informative feature", c.task, misses)
		}
	}
}

// TestDefaultMaxFeatures checks scikit-learn's defaults: ⌊√d⌋ (at least 1) for Classification,
// d for Regression.
func TestDefaultMaxFeatures(t *testing.T) {
	for _, c := range []struct{ d, classification int }{{1, 1}, {3, 1}, {4, 2}, {8, 2}, {9, 3}, {15, 3}, {16, 4}, {5828, 76}} {
		if got := defaultMaxFeatures(Classification, c.d); got != c.classification {
			t.Errorf("Classification, d = %d: %d candidates, want %d", c.d, got, c.classification)
		}
		if got := defaultMaxFeatures(Regression, c.d); got != c.d {
			t.Errorf("Regression, d = %d: %d candidates, want %d", c.d, got, c.d)
		}
	}
}
