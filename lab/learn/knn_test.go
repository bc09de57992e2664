package learn

import (
	"cmp"
	"container/heap"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// integerPoints returns an n×d matrix of small integers, so that squared distances are exact
// whatever the order of the sums, and ties are common.
func integerPoints(rng *rand.Rand, n, d int) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, float64(rng.IntN(5)-2))
		}
	}
	return x
}

// bruteNeighbours sorts all training points by (squared distance, index) for each query.
func bruteNeighbours(X, Q *mat.Dense, k int) [][]int {
	n, _ := X.Dims()
	nq, _ := Q.Dims()
	out := make([][]int, nq)
	for i := range nq {
		idx := make([]int, n)
		for j := range idx {
			idx[j] = j
		}
		d2 := func(j int) float64 { return sqDist(Q.RawRowView(i), X.RawRowView(j)) }
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(d2(a), d2(b)) })
		out[i] = idx[:k]
	}
	return out
}

func TestKNNNeighboursAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 20 {
		n, d, nq := 1+rng.IntN(80), 1+rng.IntN(6), 1+rng.IntN(40)
		X, Q := integerPoints(rng, n, d), integerPoints(rng, nq, d)
		m, err := FitKNN(X, make([]float64, n), 1)
		if err != nil {
			t.Fatal(err)
		}
		k := 1 + rng.IntN(n)
		got, err := m.Neighbours(Q, k)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteNeighbours(X, Q, k)
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("trial %d query %d: neighbours %v, brute force %v", trial, i, got[i], want[i])
			}
		}
	}
}

// More than one block of queries (n·rows > 2^18): the result is the same on one goroutine.
func TestKNNWorkerCountIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	X, Q := mat.NewDense(3000, 5, nil), mat.NewDense(400, 5, nil)
	for _, m := range []*mat.Dense{X, Q} {
		raw := m.RawMatrix().Data
		for i := range raw {
			raw[i] = rng.NormFloat64()
		}
	}
	y := make([]float64, 3000)
	for i := range y {
		y[i] = float64(i % 3)
	}
	m, err := FitKNN(X, y, 5)
	if err != nil {
		t.Fatal(err)
	}
	many, err := m.Predict(Q)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one, err := m.Predict(Q)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(many, one) {
		t.Error("Predict differs between GOMAXPROCS(1) and the default")
	}
}

func TestKNNPredictAndScores(t *testing.T) {
	// Points on a line with labels; the query at 2.4 has neighbours 2 (label 1), 3 (label 0),
	// 1 (label 1), 4 (label 0) in that order.
	X := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 4})
	y := []float64{1, 1, 1, 0, 0}
	Q := mat.NewDense(1, 1, []float64{2.4})
	for _, c := range []struct {
		k     int
		pred  float64
		score float64
	}{
		{1, 1, 1},
		{2, 0, 0.5}, // a 1–1 tie goes to the smallest label
		{3, 1, 2.0 / 3},
		{4, 0, 0.5},
	} {
		m, err := FitKNN(X, y, c.k)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(Q)
		if err != nil || pred[0] != c.pred {
			t.Errorf("K = %d: Predict = %v, %v; want %g", c.k, pred, err, c.pred)
		}
		s, err := m.Scores(Q, 1)
		if err != nil || math.Abs(s[0]-c.score) > 1e-15 {
			t.Errorf("K = %d: Scores = %v, %v; want %g", c.k, s, err, c.score)
		}
	}
}

// TuneKNN agrees with fitting and scoring each K of the grid separately.
func TestTuneKNNAgainstSeparateFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X, V := integerPoints(rng, 120, 3), integerPoints(rng, 50, 3)
	label := func(m *mat.Dense) []float64 {
		r, _ := m.Dims()
		y := make([]float64, r)
		for i := range y {
			if m.At(i, 0)+m.At(i, 1) > 0 {
				y[i] = 1
			}
			if rng.IntN(5) == 0 { // label noise, so that K matters
				y[i] = 1 - y[i]
			}
		}
		return y
	}
	y, yv := label(X), label(V)
	ks := []int{9, 1, 3, 5, 7, 15}
	tun, err := TuneKNN(X, y, V, yv, ks)
	if err != nil {
		t.Fatal(err)
	}
	bestK, bestAcc := 0, -1.0
	for i, k := range ks {
		m, err := FitKNN(X, y, k)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(V)
		if err != nil {
			t.Fatal(err)
		}
		acc, _ := Accuracy(yv, pred)
		if acc != tun.Accuracy[i] {
			t.Errorf("K = %d: TuneKNN accuracy %g, separate fit %g", k, tun.Accuracy[i], acc)
		}
		if acc > bestAcc || acc == bestAcc && k < bestK {
			bestK, bestAcc = k, acc
		}
	}
	if tun.K != bestK || tun.Model.K() != bestK {
		t.Errorf("TuneKNN K = %d (model %d), want %d", tun.K, tun.Model.K(), bestK)
	}
}

func TestKNNErrors(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 2, 2})
	y := []float64{0, 1, 1}
	if _, err := FitKNN(X, y[:2], 1); err == nil {
		t.Error("FitKNN: short y: nil error")
	}
	if _, err := FitKNN(X, y, 4); err == nil {
		t.Error("FitKNN: k > n: nil error")
	}
	if _, err := FitKNN(X, []float64{0, math.NaN(), 1}, 1); err == nil {
		t.Error("FitKNN: NaN label: nil error")
	}
	if _, err := FitKNN(mat.NewDense(1, 1, []float64{1e300}), []float64{0}, 1); err == nil {
		t.Error("FitKNN: overflowing norm: nil error")
	}
	m, _ := FitKNN(X, y, 2)
	if _, err := m.Predict(mat.NewDense(1, 3, nil)); err == nil {
		t.Error("Predict: wrong column count: nil error")
	}
	if _, err := m.Predict(mat.NewDense(1, 2, []float64{math.Inf(1), 0})); err == nil {
		t.Error("Predict: Inf query: nil error")
	}
	if _, err := m.Scores(X, 7); err == nil {
		t.Error("Scores: unknown positive label: nil error")
	}
	if _, err := new(KNN).Predict(X); err == nil {
		t.Error("zero KNN: nil error")
	}
	if _, err := m.Neighbours(X, 0); err == nil {
		t.Error("Neighbours: k = 0: nil error")
	}
	for name, ks := range map[string][]int{"empty grid": nil, "K = 0": {0, 1}, "K > n": {1, 4}} {
		if _, err := TuneKNN(X, y, X, y, ks); err == nil {
			t.Errorf("TuneKNN: %s: nil error", name)
		}
	}
	if _, err := TuneKNN(X, y, X, y[:1], []int{1}); err == nil {
		t.Error("TuneKNN: short yval: nil error")
	}
}

func BenchmarkKNNNeighbours(b *testing.B) {
	// The deck's experiment 1 at a reduced size: 2,000 training and 500 query faces of 100
	// components.
	rng := rand.New(rand.NewPCG(1, 1))
	X, Q := mat.NewDense(2000, 100, nil), mat.NewDense(500, 100, nil)
	for _, m := range []*mat.Dense{X, Q} {
		raw := m.RawMatrix().Data
		for i := range raw {
			raw[i] = rng.NormFloat64()
		}
	}
	m, err := FitKNN(X, make([]float64, 2000), 5)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := m.Neighbours(Q, 15); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(500*float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}

// unscreenedNeighbours is nearest without the screen: every training point's expanded distance
// max(0, ‖q‖² + ‖x‖² − 2⟨q, x⟩) offered to the heap, with one product for all queries.
func unscreenedNeighbours(m *KNN, q *mat.Dense, k int) []int {
	nq, _ := q.Dims()
	qn, _ := rowSqNorms("test", "Q", q)
	var prod mat.Dense
	prod.Mul(q, m.train.T())
	out := make([]int, nq*k)
	for i := range nq {
		g := prod.RawRowView(i)
		h := neighbourHeap{}
		for j, gj := range g {
			d2 := max(0, qn[i]+m.sqNorms[j]-2*gj)
			switch {
			case len(h) < k:
				heap.Push(&h, neighbour{d2, j})
			case d2 < h[0].d2:
				h[0] = neighbour{d2, j}
				heap.Fix(&h, 0)
			}
		}
		slices.SortFunc(h, neighbour.compare)
		for r, nb := range h {
			out[i*k+r] = nb.j
		}
	}
	return out
}

// TestKNNScreenKeepsEveryCandidate: the screen of nearest, a bound on ‖x‖² − 2⟨q, x⟩ with a
// rounding slack, must not change a single neighbour against offering every point to the heap,
// on real-valued data at scales 10⁻⁶…10⁵ with near-duplicate points and queries on top of them
// (distances that differ in the last bits, where the slack matters).
func TestKNNScreenKeepsEveryCandidate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n, d, nq := 2+rng.IntN(300), 1+rng.IntN(20), 1+rng.IntN(50)
		X := mat.NewDense(n, d, nil)
		scale := math.Pow(10, float64(rng.IntN(12)-6))
		for i := range n {
			for j := range d {
				if i > 0 && rng.IntN(3) == 0 { // near duplicates of the previous row
					X.Set(i, j, X.At(i-1, j)*(1+1e-15*rng.NormFloat64()))
				} else {
					X.Set(i, j, scale*(100+rng.NormFloat64()))
				}
			}
		}
		Q := mat.NewDense(nq, d, nil)
		for i := range nq {
			r := rng.IntN(n)
			for j := range d {
				Q.Set(i, j, X.At(r, j)*(1+1e-16*float64(rng.IntN(3)-1)))
			}
		}
		m, err := FitKNN(X, make([]float64, n), 1)
		if err != nil {
			t.Fatal(err)
		}
		k := 1 + rng.IntN(min(n, 10))
		got, err := m.nearest("test", Q, k)
		if err != nil {
			t.Fatal(err)
		}
		if want := unscreenedNeighbours(m, Q, k); !slices.Equal(got, want) {
			t.Fatalf("trial %d: neighbours %v, without the screen %v", trial, got, want)
		}
	}
}
