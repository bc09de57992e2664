package forest

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/pursuit"
)

// randomPredictions returns an n×T matrix of per-tree predictions and targets: Gaussian for
// Regression, ±1 votes (each tree right with probability 0.7) for Classification.
func randomPredictions(rng *rand.Rand, task Task, n, T int) (*mat.Dense, []float64) {
	P := mat.NewDense(n, T, nil)
	y := make([]float64, n)
	for i := range n {
		if task == Classification {
			y[i] = 1
			if rng.IntN(2) == 0 {
				y[i] = -1
			}
			for t := range T {
				v := y[i]
				if rng.Float64() < 0.3 {
					v = -v
				}
				P.Set(i, t, v)
			}
			continue
		}
		y[i] = rng.NormFloat64()
		for t := range T {
			P.Set(i, t, y[i]+rng.NormFloat64())
		}
	}
	return P, y
}

// column returns column t of P.
func column(P mat.Matrix, t int) []float64 {
	n, _ := P.Dims()
	c := make([]float64, n)
	for i := range c {
		c[i] = P.At(i, t)
	}
	return c
}

// metric is the reference score of the weighted ensemble Σ w_t·P[:, t] (weights by tree):
// mean squared error of Σ w t / Σ w for Regression, error rate of its sign for Classification.
func metric(task Task, P mat.Matrix, y []float64, w map[int]float64) float64 {
	var e, total float64
	for _, v := range w {
		total += v
	}
	for i := range y {
		var s float64
		for t, v := range w {
			s += v * P.At(i, t)
		}
		if task == Classification {
			if (s >= 0) != (y[i] > 0) {
				e++
			}
			continue
		}
		d := s/total - y[i]
		e += d * d
	}
	return e / float64(len(y))
}

func TestPruneOMPPathEqualsOMPPerSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, task := range []Task{Regression, Classification} {
		P, y := randomPredictions(rng, task, 40, 15)
		sizes := []int{6, 1, 3, 10}
		got, err := PruneOMP(P, y, sizes, PruneOptions{Task: task})
		if err != nil {
			t.Fatal(err)
		}
		// Reference: OMP fitted once per size on the unit-norm columns, weights rescaled back.
		unit := mat.DenseCopyOf(P)
		norms := make([]float64, 15)
		for j := range norms {
			norms[j] = mat.Norm(unit.ColView(j), 2)
			for i := range 40 {
				unit.Set(i, j, unit.At(i, j)/norms[j])
			}
		}
		dict, _ := pursuit.NewDenseDictionary(unit)
		for k, m := range sizes {
			ref, err := pursuit.OrthogonalMatchingPursuit(dict, y, pursuit.Options{MaxAtoms: m})
			if err != nil {
				t.Fatal(err)
			}
			sel := got.Selections[k]
			if !slices.Equal(sel.Trees, ref.Atoms) {
				t.Fatalf("%v size %d: trees %v, OMP per size %v", task, m, sel.Trees, ref.Atoms)
			}
			for i, j := range ref.Atoms {
				want := ref.Coefficients[i] / norms[j]
				if math.Abs(sel.Weights[i]-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("%v size %d: weight of tree %d = %g, want %g", task, m, j, sel.Weights[i], want)
				}
			}
		}
		// Size 1 is the single tree most collinear with y (brute force).
		best, bestScore := -1, -1.0
		for j := range 15 {
			c := column(P, j)
			s := math.Abs(dotF(c, y)) / math.Sqrt(dotF(c, c))
			if s > bestScore+1e-12 {
				best, bestScore = j, s
			}
		}
		if got.Selections[1].Trees[0] != best {
			t.Fatalf("%v: size 1 keeps tree %d, brute force %d", task, got.Selections[1].Trees[0], best)
		}
		// Size 1's weight is the closed form ⟨t, y⟩/‖t‖².
		c := column(P, best)
		if w := got.Selections[1].Weights[0]; math.Abs(w-dotF(c, y)/dotF(c, c)) > 1e-12 {
			t.Fatalf("%v: size-1 weight %g, want %g", task, w, dotF(c, y)/dotF(c, c))
		}
		noW, _ := PruneOMP(P, y, sizes, PruneOptions{Task: task, NoWeights: true})
		for k, m := range sizes {
			if !slices.Equal(noW.Selections[k].Trees, got.Selections[k].Trees) {
				t.Fatalf("NoWeights changed the trees")
			}
			for _, w := range noW.Selections[k].Weights {
				if w != 1/float64(m) {
					t.Fatalf("NoWeights: weight %g, want 1/%d", w, m)
				}
			}
		}
	}
}

func dotF(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func TestPruneOMPStopsOnDuplicateTrees(t *testing.T) {
	// Three distinct ±1 trees and two copies: OMP cannot keep more than 3 independent trees.
	P := mat.NewDense(6, 5, []float64{
		1, 1, 1, 1, -1,
		1, -1, 1, 1, 1,
		-1, 1, -1, -1, 1,
		1, 1, 1, 1, -1,
		-1, -1, -1, -1, -1,
		1, 1, 1, 1, 1,
	})
	y := []float64{1, 1, -1, -1, -1, 1}
	got, err := PruneOMP(P, y, []int{5}, PruneOptions{Task: Classification})
	if err != nil {
		t.Fatal(err)
	}
	if got.Stopped == 0 || got.Stopped > 3 || len(got.Selections[0].Trees) != got.Stopped {
		t.Fatalf("Stopped = %d with %d trees, want 1..3 (three distinct columns)", got.Stopped, len(got.Selections[0].Trees))
	}
}

func TestPruneNNOMP(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	P, y := randomPredictions(rng, Regression, 50, 30)
	for i := range 50 { // some trees anti-correlated with y, which NN-OMP must never keep
		for j := 20; j < 30; j++ {
			P.Set(i, j, -P.At(i, j))
		}
	}
	got, err := PruneNNOMP(P, y, []int{2, 30}, PruneOptions{Task: Regression})
	if err != nil {
		t.Fatal(err)
	}
	if got.Stopped < 2 || got.Stopped >= 30 {
		t.Fatalf("Stopped = %d, want NN-OMP to stop by itself between 2 and 29 trees", got.Stopped)
	}
	final := got.Selections[1]
	if len(final.Trees) != got.Stopped {
		t.Fatalf("size 30 holds %d trees, want the %d where NN-OMP stopped", len(final.Trees), got.Stopped)
	}
	r := slices.Clone(y)
	for k, j := range final.Trees {
		if final.Weights[k] < 0 {
			t.Fatalf("weight of tree %d = %g < 0", j, final.Weights[k])
		}
		for i := range r {
			r[i] -= final.Weights[k] * P.At(i, j)
		}
	}
	// Stopping rule: no tree is positively correlated with the residual (KKT of NNLS on all
	// trees, to rounding).
	for j := range 30 {
		c := column(P, j)
		if corr := dotF(c, r) / math.Sqrt(dotF(c, c)); corr > 1e-8*math.Sqrt(dotF(y, y)) {
			t.Fatalf("tree %d has correlation %g > 0 with the residual at the stop", j, corr)
		}
	}
	// The residual reached is NNLS on the kept trees, no better than NNLS on all trees.
	x, err := pursuit.NonNegativeLeastSquares(P, y)
	if err != nil {
		t.Fatal(err)
	}
	rAll := slices.Clone(y)
	for j, v := range x {
		for i := range rAll {
			rAll[i] -= v * P.At(i, j)
		}
	}
	if a, b := math.Sqrt(dotF(r, r)), math.Sqrt(dotF(rAll, rAll)); a > b*(1+1e-8)+1e-12 {
		t.Fatalf("NN-OMP residual %g above the NNLS residual on all trees %g", a, b)
	}
	for _, j := range final.Trees {
		if j >= 20 {
			t.Fatalf("NN-OMP kept the anti-correlated tree %d", j)
		}
	}
	noW, _ := PruneNNOMP(P, y, []int{30}, PruneOptions{Task: Regression, NoWeights: true})
	if noW.Stopped != got.Stopped || noW.Selections[0].Weights[0] != 1/float64(got.Stopped) {
		t.Fatalf("NN-OMP w/o weights: stopped %d, weight %g", noW.Stopped, noW.Selections[0].Weights[0])
	}
}

// naiveEnsemble is Caruana's forward selection with replacement, recomputing every candidate
// ensemble from its counts.
func naiveEnsemble(task Task, P mat.Matrix, y []float64, steps int) map[int]float64 {
	_, T := P.Dims()
	counts := map[int]float64{}
	for range steps {
		best, bestErr := -1, math.Inf(1)
		for c := range T {
			w := map[int]float64{}
			for k, v := range counts {
				w[k] = v
			}
			w[c]++
			if e := metric(task, P, y, w); e < bestErr-1e-12 {
				best, bestErr = c, e
			}
		}
		counts[best]++
	}
	return counts
}

func TestPruneEnsembleAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, c := range []struct {
		task Task
		n    int
	}{{Regression, 25}, {Classification, 25}, {Regression, 600}, {Classification, 600}} { // 600: three row blocks
		task := c.task
		P, y := randomPredictions(rng, task, c.n, 8)
		sizes := []int{1, 4, 8, 7}
		got, err := PruneEnsemble(P, y, sizes, PruneOptions{Task: task})
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range sizes {
			want := naiveEnsemble(task, P, y, m)
			sel := got.Selections[k]
			if len(sel.Trees) != len(want) {
				t.Fatalf("%v size %d: %v, naive counts %v", task, m, sel, want)
			}
			var total float64
			for i, j := range sel.Trees {
				total += sel.Weights[i]
				if math.Abs(sel.Weights[i]-want[j]/float64(m)) > 1e-15 {
					t.Fatalf("%v size %d: tree %d weight %g, naive %g/%d", task, m, j, sel.Weights[i], want[j], m)
				}
			}
			if math.Abs(total-1) > 1e-12 {
				t.Fatalf("weights sum to %g", total)
			}
		}
	}
}

// naiveBackward removes trees one at a time, choosing by score(remaining, candidate) (lowest
// wins, lowest index on ties), every candidate recomputed from scratch.
func naiveBackward(T, m int, score func(remaining []int, cand int) float64) []int {
	remaining := make([]int, T)
	for i := range remaining {
		remaining[i] = i
	}
	for len(remaining) > m {
		best, bestScore := -1, math.Inf(1)
		for _, c := range remaining {
			if s := score(remaining, c); s < bestScore-1e-12 {
				best, bestScore = c, s
			}
		}
		remaining = slices.DeleteFunc(remaining, func(t int) bool { return t == best })
	}
	return remaining
}

func TestPruneZhangPredictionsAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, task := range []Task{Regression, Classification} {
		P, y := randomPredictions(rng, task, 21, 9)
		sizes := []int{9, 1, 5, 3}
		got, err := PruneZhangPredictions(P, y, sizes, PruneOptions{Task: task})
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range sizes {
			// Each greedy step tries every subset of the current forest with one tree less.
			want := naiveBackward(9, m, func(remaining []int, cand int) float64 {
				w := map[int]float64{}
				for _, t := range remaining {
					if t != cand {
						w[t] = 1
					}
				}
				return metric(task, P, y, w)
			})
			if !slices.Equal(got.Selections[k].Trees, want) {
				t.Fatalf("%v size %d: %v, naive %v", task, m, got.Selections[k].Trees, want)
			}
		}
	}
}

func TestPruneZhangSimilarityAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, task := range []Task{Regression, Classification} {
		P, y := randomPredictions(rng, task, 130, 10) // 130 rows: three packed words
		sizes := []int{1, 2, 6}
		got, err := PruneZhangSimilarity(P, y, sizes, PruneOptions{Task: task})
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range sizes {
			want := naiveBackward(10, m, func(remaining []int, cand int) float64 {
				var s float64
				for _, t := range remaining {
					if t != cand {
						s += dotF(column(P, cand), column(P, t))
					}
				}
				return -s / float64(len(remaining)-1) // largest mean similarity goes first
			})
			if !slices.Equal(got.Selections[k].Trees, want) {
				t.Fatalf("%v size %d: %v, naive %v", task, m, got.Selections[k].Trees, want)
			}
		}
	}
}

func TestPruneRandom(t *testing.T) {
	P, y := randomPredictions(rand.New(rand.NewPCG(6, 6)), Regression, 5, 20)
	a, err := PruneRandom(rand.New(rand.NewPCG(7, 7)), P, y, []int{3, 20, 8}, PruneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PruneRandom(rand.New(rand.NewPCG(7, 7)), P, y, []int{3, 20, 8}, PruneOptions{})
	for k, m := range a.Sizes {
		s := a.Selections[k]
		if !slices.Equal(s.Trees, b.Selections[k].Trees) {
			t.Fatal("same seed, different trees")
		}
		if len(s.Trees) != m || len(slices.Compact(slices.Sorted(slices.Values(s.Trees)))) != m {
			t.Fatalf("size %d: %v, want %d distinct trees", m, s.Trees, m)
		}
		if !slices.Equal(s.Trees, a.Selections[1].Trees[:m]) {
			t.Fatal("sizes are not nested")
		}
	}
}

func TestPruneKMeansKeepsBestTreePerCluster(t *testing.T) {
	// Three well separated groups of 4 trees; k-means with 3 clusters must find the groups and
	// keep each group's best tree.
	rng := rand.New(rand.NewPCG(8, 8))
	const n, T = 10, 12
	y := make([]float64, n)
	P := mat.NewDense(n, T, nil)
	for i := range n {
		y[i] = rng.NormFloat64()
		for j := range T {
			P.Set(i, j, 100*float64(j/4)+0.5*rng.NormFloat64())
		}
	}
	got, err := PruneKMeans(rand.New(rand.NewPCG(9, 9)), P, y, []int{3, 1}, PruneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for g := range 3 {
		best, bestErr := -1, math.Inf(1)
		for j := 4 * g; j < 4*g+4; j++ {
			if e := metric(Regression, P, y, map[int]float64{j: 1}); e < bestErr {
				best, bestErr = j, e
			}
		}
		want = append(want, best)
	}
	if g := slices.Sorted(slices.Values(got.Selections[0].Trees)); !slices.Equal(g, want) {
		t.Fatalf("size 3 keeps %v, want the best of each group %v", g, want)
	}
	if got.Selections[1].Trees[0] != want[0] { // one cluster: the best tree overall (group 0, near y)
		t.Fatalf("size 1 keeps %v, want %d", got.Selections[1].Trees, want[0])
	}
}

func TestPrunedForestPredict(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for _, task := range []Task{Regression, Classification} {
		X := mat.NewDense(60, 3, nil)
		y := make([]float64, 60)
		for i := range 60 {
			for j := range 3 {
				X.Set(i, j, rng.Float64())
			}
			y[i] = X.At(i, 0) - X.At(i, 1) + 0.3*rng.NormFloat64()
			if task == Classification {
				y[i] = math.Copysign(1, y[i])
			}
		}
		f, err := Fit(rng, task, X, y, Options{Trees: 10, MaxDepth: 3})
		if err != nil {
			t.Fatal(err)
		}
		all := uniform([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
		pf, err := NewPrunedForest(f, all)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := pf.Predict(X)
		want, _ := f.Predict(X)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("%v: all trees with equal weights: row %d = %g, forest %g", task, i, got[i], want[i])
			}
		}
		// An OMP-pruned forest predicts Σ w t(x) (or its sign) from its kept trees only.
		P, _ := f.TreePredictions(X)
		pr, err := PruneOMP(P, y, []int{4}, PruneOptions{Task: task})
		if err != nil {
			t.Fatal(err)
		}
		pf, _ = NewPrunedForest(f, pr.Selections[0])
		if pf.Size() != len(pr.Selections[0].Trees) || !slices.Equal(pf.Selection().Weights, pr.Selections[0].Weights) {
			t.Fatal("Size or Selection differ from the selection given")
		}
		got, _ = pf.Predict(X)
		for i := range got {
			var s float64
			for k, j := range pr.Selections[0].Trees {
				s += pr.Selections[0].Weights[k] * P.At(i, j)
			}
			if task == Classification {
				s = math.Copysign(1, s)
			}
			if math.Abs(got[i]-s) > 1e-12 {
				t.Fatalf("%v: pruned prediction %g, want %g", task, got[i], s)
			}
		}
	}
}

func TestPruneRejectsBadInput(t *testing.T) {
	P, y := randomPredictions(rand.New(rand.NewPCG(11, 11)), Regression, 4, 3)
	nan := mat.DenseCopyOf(P)
	nan.Set(1, 1, math.NaN())
	rng := rand.New(rand.NewPCG(1, 1))
	type call func(P mat.Matrix, y []float64, sizes []int, o PruneOptions) (*Pruning, error)
	methods := map[string]call{
		"OMP": PruneOMP, "NNOMP": PruneNNOMP, "Ensemble": PruneEnsemble,
		"ZhangP": PruneZhangPredictions, "ZhangS": PruneZhangSimilarity,
		"Random": func(P mat.Matrix, y []float64, s []int, o PruneOptions) (*Pruning, error) {
			return PruneRandom(rng, P, y, s, o)
		},
		"KMeans": func(P mat.Matrix, y []float64, s []int, o PruneOptions) (*Pruning, error) {
			return PruneKMeans(rng, P, y, s, o)
		},
	}
	cases := []struct {
		name  string
		P     mat.Matrix
		y     []float64
		sizes []int
		opts  PruneOptions
	}{
		{"nil P", nil, y, []int{1}, PruneOptions{}},
		{"short y", P, y[:3], []int{1}, PruneOptions{}},
		{"NaN in P", nan, y, []int{1}, PruneOptions{}},
		{"NaN in y", P, []float64{0, math.NaN(), 0, 0}, []int{1}, PruneOptions{}},
		{"no sizes", P, y, nil, PruneOptions{}},
		{"size 0", P, y, []int{0}, PruneOptions{}},
		{"size > T", P, y, []int{4}, PruneOptions{}},
		{"labels not ±1", P, y, []int{1}, PruneOptions{Task: Classification}},
		{"unknown task", P, y, []int{1}, PruneOptions{Task: Task(7)}},
	}
	for name, m := range methods {
		for _, c := range cases {
			if _, err := m(c.P, c.y, c.sizes, c.opts); err == nil {
				t.Errorf("%s: %s: no error", name, c.name)
			}
		}
	}
	if _, err := PruneRandom(nil, P, y, []int{1}, PruneOptions{}); err == nil {
		t.Error("PruneRandom: nil rng accepted")
	}
	if _, err := PruneKMeans(nil, P, y, []int{1}, PruneOptions{}); err == nil {
		t.Error("PruneKMeans: nil rng accepted")
	}
	if _, err := PruneOMP(mat.NewDense(4, 3, nil), y, []int{1}, PruneOptions{}); err == nil {
		t.Error("PruneOMP: all-zero predictions accepted")
	}
	f, _ := Fit(rng, Regression, mat.NewDense(4, 1, []float64{1, 2, 3, 4}), y, Options{Trees: 2})
	for _, sel := range []Selection{{}, {Trees: []int{2}, Weights: []float64{1}}, {Trees: []int{0}}, {Trees: []int{0}, Weights: []float64{math.Inf(1)}}} {
		if _, err := NewPrunedForest(f, sel); err == nil {
			t.Errorf("NewPrunedForest(%v): no error", sel)
		}
	}
	if _, err := NewPrunedForest(nil, Selection{Trees: []int{0}, Weights: []float64{1}}); err == nil {
		t.Error("NewPrunedForest(nil forest): no error")
	}
	var pf *PrunedForest
	if _, err := pf.Predict(mat.NewDense(1, 1, nil)); err == nil {
		t.Error("nil PrunedForest.Predict: no error")
	}
}

func TestPruneInputStorage(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	P, y := randomPredictions(rng, Classification, 9, 4)
	in, err := newPruneInput(context.Background(), "test", Classification, P, y, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if in.dense != nil || len(in.votes) != 9*4 {
		t.Fatalf("Classification predictions not stored as n·T one-byte votes (dense %v, %d votes)", in.dense != nil, len(in.votes))
	}
	for i := range 9 {
		for j := range 4 {
			if in.at(i, j) != P.At(i, j) {
				t.Fatalf("vote [%d, %d] = %g, want %g", i, j, in.at(i, j), P.At(i, j))
			}
		}
	}
	// Regression reads the caller's matrix and never writes it.
	R, yr := randomPredictions(rng, Regression, 9, 4)
	before := mat.DenseCopyOf(R)
	for _, f := range []func(mat.Matrix, []float64, []int, PruneOptions) (*Pruning, error){PruneOMP, PruneNNOMP, PruneEnsemble, PruneZhangPredictions, PruneZhangSimilarity} {
		if _, err := f(R, yr, []int{2, 3}, PruneOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if !mat.Equal(R, before) {
		t.Fatal("a pruning method modified the prediction matrix")
	}
}

func TestPruneDuplicateTrees(t *testing.T) {
	// Two distinct ±1 trees, three copies each: no method fails, none keeps more trees than
	// asked, and OMP / NN-OMP stop at the independent trees.
	P := mat.NewDense(3, 6, []float64{1, 1, 1, -1, -1, -1, 1, 1, 1, 1, 1, 1, -1, -1, -1, 1, 1, 1})
	y := []float64{1, 1, -1}
	sizes := []int{1, 2, 4, 6}
	opts := PruneOptions{Task: Classification}
	rng := rand.New(rand.NewPCG(13, 13))
	for name, f := range map[string]func() (*Pruning, error){
		"OMP":      func() (*Pruning, error) { return PruneOMP(P, y, sizes, opts) },
		"NNOMP":    func() (*Pruning, error) { return PruneNNOMP(P, y, sizes, opts) },
		"Ensemble": func() (*Pruning, error) { return PruneEnsemble(P, y, sizes, opts) },
		"ZhangP":   func() (*Pruning, error) { return PruneZhangPredictions(P, y, sizes, opts) },
		"ZhangS":   func() (*Pruning, error) { return PruneZhangSimilarity(P, y, sizes, opts) },
		"Random":   func() (*Pruning, error) { return PruneRandom(rng, P, y, sizes, opts) },
		"KMeans":   func() (*Pruning, error) { return PruneKMeans(rng, P, y, sizes, opts) },
	} {
		got, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k, m := range sizes {
			sel := got.Selections[k]
			if len(sel.Trees) == 0 || len(sel.Trees) > m || len(sel.Weights) != len(sel.Trees) {
				t.Fatalf("%s size %d: %v", name, m, sel)
			}
		}
		if (name == "OMP" || name == "NNOMP") && (got.Stopped < 1 || got.Stopped > 2) {
			t.Fatalf("%s: Stopped = %d, want 1 or 2 (two distinct trees)", name, got.Stopped)
		}
	}
}

func TestPruneIndependentOfGOMAXPROCS(t *testing.T) {
	P, y := randomPredictions(rand.New(rand.NewPCG(14, 14)), Regression, 1000, 20)
	run := func() []*Pruning {
		a, _ := PruneEnsemble(P, y, []int{5, 20}, PruneOptions{})
		b, _ := PruneZhangPredictions(P, y, []int{1, 7}, PruneOptions{})
		return []*Pruning{a, b}
	}
	prev := runtime.GOMAXPROCS(1)
	one := run()
	runtime.GOMAXPROCS(4)
	four := run()
	runtime.GOMAXPROCS(prev)
	for k := range one {
		for s := range one[k].Selections {
			if !slices.Equal(one[k].Selections[s].Trees, four[k].Selections[s].Trees) ||
				!slices.Equal(one[k].Selections[s].Weights, four[k].Selections[s].Weights) {
				t.Fatalf("method %d size %d: GOMAXPROCS 1 and 4 differ", k, one[k].Sizes[s])
			}
		}
	}
}
