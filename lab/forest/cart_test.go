package forest

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// impurity is the split criterion computed directly: the sum of squared errors around the mean
// (Regression) or n·Gini = n·(1 − p₊² − p₋²) (Classification) of the targets ys.
func impurity(task Task, ys []float64) float64 {
	n := float64(len(ys))
	if task == Regression {
		mean := 0.0
		for _, v := range ys {
			mean += v
		}
		mean /= n
		sse := 0.0
		for _, v := range ys {
			sse += (v - mean) * (v - mean)
		}
		return sse
	}
	pos := 0.0
	for _, v := range ys {
		if v > 0 {
			pos++
		}
	}
	p, q := pos/n, 1-pos/n
	return n * (1 - p*p - q*q)
}

// leafValue is the leaf value of the targets ys computed directly: the mean, or the majority
// label with a tie giving +1.
func leafValue(task Task, ys []float64) float64 {
	sum := 0.0
	for _, v := range ys {
		sum += v
	}
	if task == Regression {
		return sum / float64(len(ys))
	}
	if sum >= 0 {
		return 1
	}
	return -1
}

// splitRows returns the targets of the rows of X going left (x[f] <= threshold) and right.
func splitRows(X *mat.Dense, y []float64, f int, threshold float64) (left, right []float64) {
	for i, v := range y {
		if X.At(i, f) <= threshold {
			left = append(left, v)
		} else {
			right = append(right, v)
		}
	}
	return left, right
}

// randomProblem draws an n×d data set; features with an odd index are rounded to one decimal
// so that they repeat values. Classification targets are random ±1.
func randomProblem(rng *rand.Rand, task Task, n, d int) (*mat.Dense, []float64) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			v := rng.Float64()
			if j%2 == 1 {
				v = math.Round(v*10) / 10
			}
			X.Set(i, j, v)
		}
		if task == Regression {
			y[i] = rng.NormFloat64()
		} else if rng.IntN(2) == 0 {
			y[i] = -1
		} else {
			y[i] = 1
		}
	}
	return X, y
}

// TestStumpIsExhaustiveBestSplit checks depth-1 trees against a brute force over every feature
// and every midpoint between consecutive distinct values: the tree's split must reach the
// smallest criterion among the splits leaving MinLeaf rows on each side, its leaves must hold
// the mean / majority of their rows, and when the optimum is unique it must be that split.
func TestStumpIsExhaustiveBestSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, task := range []Task{Regression, Classification} {
		for trial := range 200 {
			n := 2 + rng.IntN(30)
			d := 1 + rng.IntN(4)
			minLeaf := 1 + rng.IntN(4)
			X, y := randomProblem(rng, task, n, d)

			bestCrit, secondCrit := math.Inf(1), math.Inf(1)
			bestF, bestThreshold := -1, 0.0
			for f := range d {
				values := slices.Compact(slices.Sorted(slices.Values(mat.Col(nil, f, X))))
				for k := 0; k+1 < len(values); k++ {
					threshold := (values[k] + values[k+1]) / 2
					left, right := splitRows(X, y, f, threshold)
					if len(left) < minLeaf || len(right) < minLeaf {
						continue
					}
					crit := impurity(task, left) + impurity(task, right)
					switch {
					case crit < bestCrit:
						secondCrit, bestCrit, bestF, bestThreshold = bestCrit, crit, f, threshold
					case crit < secondCrit:
						secondCrit = crit
					}
				}
			}
			pure := !slices.ContainsFunc(y, func(v float64) bool { return v != y[0] })

			tree, err := FitTree(rng, task, X, y, TreeOptions{MaxDepth: 1, MinLeaf: minLeaf})
			if err != nil {
				t.Fatal(err)
			}
			root := tree.nodes[0]
			if pure || bestF < 0 {
				if tree.Leaves() != 1 || tree.Depth() != 0 || root.value != leafValue(task, y) {
					t.Errorf("%v trial %d: want a single leaf %v, got %d leaves, depth %d, root %+v",
						task, trial, leafValue(task, y), tree.Leaves(), tree.Depth(), root)
				}
				continue
			}
			if tree.Leaves() != 2 || tree.Depth() != 1 {
				t.Fatalf("%v trial %d: %d leaves and depth %d, want a stump", task, trial, tree.Leaves(), tree.Depth())
			}
			f, threshold := int(root.feature), root.value
			left, right := splitRows(X, y, f, threshold)
			if len(left) < minLeaf || len(right) < minLeaf {
				t.Fatalf("%v trial %d: split leaves %d and %d rows, want ≥ %d", task, trial, len(left), len(right), minLeaf)
			}
			crit := impurity(task, left) + impurity(task, right)
			if math.Abs(crit-bestCrit) > 1e-9*(1+bestCrit) {
				t.Errorf("%v trial %d: split criterion %v, brute-force minimum %v", task, trial, crit, bestCrit)
			}
			for _, leaf := range []struct {
				id int32
				ys []float64
			}{{root.left, left}, {root.left + 1, right}} {
				if got, want := tree.nodes[leaf.id].value, leafValue(task, leaf.ys); math.Abs(got-want) > 1e-12 {
					t.Errorf("%v trial %d: leaf %d = %v, want %v", task, trial, leaf.id, got, want)
				}
			}
			if secondCrit-bestCrit > 1e-9*(1+bestCrit) && (f != bestF || math.Abs(threshold-bestThreshold) > 1e-15) {
				t.Errorf("%v trial %d: split x[%d] <= %v, want the unique optimum x[%d] <= %v",
					task, trial, f, threshold, bestF, bestThreshold)
			}
		}
	}
}

// TestTieBreaking checks hand-computed ties: thresholds ascending (first found wins) and a leaf
// with as many +1 as −1 labels giving +1.
func TestTieBreaking(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	// x = 1..4, labels + − − +: the thresholds 1.5 and 3.5 both give n·Gini = 4/3 (2.5 gives 2);
	// 1.5 comes first, so the left leaf is {+} and the right one {− − +} → −1.
	X := mat.NewDense(4, 1, []float64{1, 2, 3, 4})
	tree, err := FitTree(rng, Classification, X, []float64{1, -1, -1, 1}, TreeOptions{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if root := tree.nodes[0]; root.feature != 0 || root.value != 1.5 {
		t.Errorf("root %+v, want the split x[0] <= 1.5", root)
	}
	for x, want := range map[float64]float64{1: 1, 2: -1, 4: -1} {
		if got, _ := tree.Predict([]float64{x}); got != want {
			t.Errorf("Predict(%v) = %v, want %v", x, got, want)
		}
	}
	// Two rows with MinLeaf 2: fewer than 2·MinLeaf rows, a single leaf; majority tie → +1.
	tree, err = FitTree(rng, Classification, mat.NewDense(2, 1, []float64{1, 2}), []float64{-1, 1}, TreeOptions{MinLeaf: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tree.Predict([]float64{1}); got != 1 || tree.Leaves() != 1 {
		t.Errorf("tied leaf predicts %v with %d leaves, want +1 and a single leaf", got, tree.Leaves())
	}
}

// TestMidpoint checks scikit-learn's threshold convention, including adjacent floats where the
// midpoint rounds up to b and must fall back to a.
func TestMidpoint(t *testing.T) {
	next := math.Nextafter(1, 2)
	for _, c := range []struct{ a, b, want float64 }{
		{1, 2, 1.5}, {-3, -1, -2}, {-1, 1, 0}, {1, next, 1}, {0, 5e-324, 0},
		{math.MaxFloat64 / 2, math.MaxFloat64, 0.75 * math.MaxFloat64},
	} {
		if got := midpoint(c.a, c.b); got != c.want {
			t.Errorf("midpoint(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// distinctProblem draws n rows of d uniform features and distinct continuous targets.
func distinctProblem(rng *rand.Rand, n, d int) (*mat.Dense, []float64) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			X.Set(i, j, rng.Float64())
		}
		y[i] = rng.NormFloat64()
	}
	return X, y
}

// TestFullyGrownTreeInterpolates checks that a fully grown tree without feature subsampling on
// distinct points reproduces its training targets exactly, with one leaf per row for distinct
// regression targets.
func TestFullyGrownTreeInterpolates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const n, d = 64, 3
	X, y := distinctProblem(rng, n, d)
	labels := make([]float64, n)
	for i, v := range y {
		labels[i] = math.Copysign(1, v)
	}
	for _, c := range []struct {
		task Task
		y    []float64
	}{{Regression, y}, {Classification, labels}} {
		tree, err := FitTree(rng, c.task, X, c.y, TreeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if got, _ := tree.Predict(X.RawRowView(i)); got != c.y[i] {
				t.Errorf("%v: row %d predicted %v, want its target %v", c.task, i, got, c.y[i])
			}
		}
		// A binary tree with L leaves has depth between ⌈log₂ L⌉ and L − 1.
		L := tree.Leaves()
		if c.task == Regression && L != n {
			t.Errorf("Regression: %d leaves, want one per row (%d)", L, n)
		}
		if c.task == Classification && (L < 2 || L > n) {
			t.Errorf("Classification: %d leaves, want between 2 and %d", L, n)
		}
		if D := tree.Depth(); D < int(math.Ceil(math.Log2(float64(L)))) || D > L-1 {
			t.Errorf("%v: depth %d with %d leaves, want within [⌈log₂ L⌉, L − 1]", c.task, D, L)
		}
		if len(tree.nodes) != 2*L-1 {
			t.Errorf("%v: %d nodes for %d leaves, want 2L − 1", c.task, len(tree.nodes), L)
		}
	}
}

// TestGrowthLimits checks MaxDepth and MinLeaf on a noisy problem: no leaf deeper than MaxDepth,
// at most 2^MaxDepth leaves, and at least MinLeaf training rows in every leaf.
func TestGrowthLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	X, y := distinctProblem(rng, 200, 4)
	for _, opts := range []TreeOptions{{MaxDepth: 3}, {MinLeaf: 7}, {MaxDepth: 5, MinLeaf: 3, MaxFeatures: 2}} {
		tree, err := FitTree(rng, Regression, X, y, opts)
		if err != nil {
			t.Fatal(err)
		}
		if opts.MaxDepth > 0 && (tree.Depth() != opts.MaxDepth || tree.Leaves() > 1<<opts.MaxDepth) {
			t.Errorf("%+v: depth %d and %d leaves, want depth %d and at most %d leaves",
				opts, tree.Depth(), tree.Leaves(), opts.MaxDepth, 1<<opts.MaxDepth)
		}
		rowsPerLeaf := map[*node]int{}
		for i := range 200 {
			rowsPerLeaf[leafOf(tree, X.RawRowView(i))]++
		}
		if len(rowsPerLeaf) != tree.Leaves() {
			t.Errorf("%+v: training rows reach %d leaves of %d", opts, len(rowsPerLeaf), tree.Leaves())
		}
		for _, count := range rowsPerLeaf {
			if count < max(1, opts.MinLeaf) {
				t.Errorf("%+v: a leaf holds %d training rows, want ≥ %d", opts, count, opts.MinLeaf)
			}
		}
	}
}

// leafOf returns the leaf node x falls in.
func leafOf(tree *Tree, x []float64) *node {
	nd := &tree.nodes[0]
	for nd.feature >= 0 {
		if x[nd.feature] <= nd.value {
			nd = &tree.nodes[nd.left]
		} else {
			nd = &tree.nodes[nd.left+1]
		}
	}
	return nd
}

// TestConstantFeaturesAreSkipped checks scikit-learn's drawing rule: with MaxFeatures = 1 and
// two of three features constant, the drawing goes on until the informative feature turns up,
// so the fully grown tree still interpolates, whatever the seed.
func TestConstantFeaturesAreSkipped(t *testing.T) {
	const n = 30
	X := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range n {
		X.Set(i, 0, 7)
		X.Set(i, 1, float64(i))
		X.Set(i, 2, -2)
		y[i] = float64(i * i % 17)
	}
	for seed := range uint64(10) {
		tree, err := FitTree(rand.New(rand.NewPCG(seed, 5)), Regression, X, y, TreeOptions{MaxFeatures: 1})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if got, _ := tree.Predict(X.RawRowView(i)); got != y[i] {
				t.Fatalf("seed %d: row %d predicted %v, want %v", seed, i, got, y[i])
			}
		}
	}
}

// sklearnPoint is the reference data set's formula, written identically in the Python snippet
// of TestScikitLearnReference: frac((i+1)·√p + (i+1)²·√q) for each pair (p, q).
func sklearnPoint(i int, pairs [][2]float64) []float64 {
	row := make([]float64, len(pairs))
	for j, pq := range pairs {
		v := float64(i+1)*math.Sqrt(pq[0]) + float64((i+1)*(i+1))*math.Sqrt(pq[1])
		row[j] = v - math.Floor(v)
	}
	return row
}

// TestScikitLearnReference compares depth-3 trees with scikit-learn 1.2.1 (Debian's
// python3-sklearn) on a 120×3 data set without ties, where all of 40 random_state values give
// the same trees (so feature order does not matter). The reference values come from:
//
//	import math
//	import numpy as np
//	from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
//
//	def frac(v):
//	    return v - math.floor(v)
//
//	def point(i, pairs):
//	    return [frac((i + 1) * math.sqrt(p) + (i + 1) * (i + 1) * math.sqrt(q)) for p, q in pairs]
//
//	X = np.array([point(i, ((2, 7), (3, 11), (5, 13))) for i in range(120)])
//	y = np.array([4 * (r[0] - 0.5) * (r[0] - 0.5) + r[1] * r[2] - 0.5 * r[2] for r in X])
//	labels = np.where(y > 0.3, 1.0, -1.0)
//	T = np.array([[frac((k + 1) * math.sqrt(q)) for q in (17, 19, 23)] for k in range(10)])
//	reg = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
//	clf = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, labels)
//	print(", ".join(repr(v) for v in reg.predict(T)))
//	print(", ".join(repr(v) for v in clf.predict(T)))
//
// The labels' smallest margin |y − 0.3| is 1.8e-3 and the test points lie at least 2.4e-3 from
// every threshold, so rounding differences between Go and Python cannot move them.
func TestScikitLearnReference(t *testing.T) {
	wantRegression := []float64{0.5791105616715274, 0.20944940333628523, -0.020917814285915704,
		-0.020917814285915704, 0.20944940333628523, -0.020917814285915704, 0.41889153140708035,
		0.8726506829033323, 0.5791105616715274, 0.20944940333628523}
	wantClassification := []float64{1, -1, -1, -1, -1, -1, 1, 1, 1, -1}

	const n = 120
	X := mat.NewDense(n, 3, nil)
	y, labels := make([]float64, n), make([]float64, n)
	for i := range n {
		r := sklearnPoint(i, [][2]float64{{2, 7}, {3, 11}, {5, 13}})
		X.SetRow(i, r)
		y[i] = 4*(r[0]-0.5)*(r[0]-0.5) + r[1]*r[2] - 0.5*r[2]
		labels[i] = -1
		if y[i] > 0.3 {
			labels[i] = 1
		}
	}
	rng := rand.New(rand.NewPCG(6, 6))
	reg, err := FitTree(rng, Regression, X, y, TreeOptions{MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	clf, err := FitTree(rng, Classification, X, labels, TreeOptions{MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	for k := range wantRegression {
		x := make([]float64, 3)
		for j, q := range []float64{17, 19, 23} {
			v := float64(k+1) * math.Sqrt(q)
			x[j] = v - math.Floor(v)
		}
		if got, _ := reg.Predict(x); math.Abs(got-wantRegression[k]) > 1e-12 {
			t.Errorf("regression tree, test point %d: %v, scikit-learn %v", k, got, wantRegression[k])
		}
		if got, _ := clf.Predict(x); got != wantClassification[k] {
			t.Errorf("classification tree, test point %d: %v, scikit-learn %v", k, got, wantClassification[k])
		}
	}
}

// TestSortKeys checks both branches of sortKeys against slices.Sort on keys built as the split
// search builds them: increasing rows, ranks in a range, with repeats.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	for _, m := range []int{1, 2, 5, radixMinKeys - 1, radixMinKeys, 1000, 5000} {
		for _, span := range []uint32{1, 3, 255, 256, 70000} {
			minRank := uint32(rng.IntN(1000))
			keys := make([]uint64, m)
			row := uint64(0)
			for k := range keys {
				row += 1 + uint64(rng.IntN(3))
				keys[k] = uint64(minRank+uint32(rng.IntN(int(span))))<<32 | row
			}
			keys[0] = uint64(minRank)<<32 | keys[0]&math.MaxUint32
			want := slices.Sorted(slices.Values(keys))
			maxRank := uint32(want[m-1] >> 32)
			if got := sortKeys(keys, make([]uint64, m), minRank, maxRank); !slices.Equal(got, want) {
				t.Errorf("m = %d, span %d: sortKeys differs from slices.Sort", m, span)
			}
		}
	}
}

// TestFeatureTiesGoToFirstDrawn checks the tie rule across features: with three identical
// columns every split ties exactly (the rows are scanned in the same canonical order), so the
// root must split on the feature drawn first, which replaying the generator tells.
func TestFeatureTiesGoToFirstDrawn(t *testing.T) {
	const n = 20
	X := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := range n {
		v := float64((i * 7) % n)
		X.SetRow(i, []float64{v, v, v})
		y[i] = math.Sin(v)
	}
	seen := map[int]bool{}
	for seed := range uint64(12) {
		tree, err := FitTree(rand.New(rand.NewPCG(seed, 9)), Regression, X, y, TreeOptions{MaxDepth: 1})
		if err != nil {
			t.Fatal(err)
		}
		first := rand.New(rand.NewPCG(seed, 9)).IntN(3)
		if got := int(tree.nodes[0].feature); got != first {
			t.Errorf("seed %d: root splits on feature %d, want the first drawn, %d", seed, got, first)
		}
		seen[first] = true
	}
	if len(seen) != 3 {
		t.Errorf("the first draws covered features %v, want all three (pick other seeds)", seen)
	}
}

// TestPartitionIsStable checks that partition keeps both sides in increasing row order, which
// sortKeys's radix branch needs to produce the (rank, row) order.
func TestPartitionIsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	X, y := randomProblem(rng, Regression, 300, 2)
	set, err := newTrainingSet("test", Regression, X, y)
	if err != nil {
		t.Fatal(err)
	}
	b := newBuilder(set, Regression, 2, 0, 1)
	b.useAllRows()
	mid := b.partition(0, 300, 1, 4) // feature 1 has values k/10: rank 4 is 0.4
	left, right := b.samples[:mid], b.samples[mid:]
	if !slices.IsSorted(left) || !slices.IsSorted(right) {
		t.Errorf("partition reordered rows within a side")
	}
	for _, i := range left {
		if X.At(int(i), 1) > 0.4 {
			t.Fatalf("row %d with x = %v went left of 0.4", i, X.At(int(i), 1))
		}
	}
	for _, i := range right {
		if X.At(int(i), 1) <= 0.4 {
			t.Fatalf("row %d with x = %v went right of 0.4", i, X.At(int(i), 1))
		}
	}
}
