package lowrank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestUniformLandmarksDistinctAndInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ n, s int }{{1, 1}, {10, 10}, {1000, 3}, {1000, 300}, {50, 49}} {
		got, err := UniformLandmarks(rng, c.n, c.s)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.s {
			t.Fatalf("n=%d s=%d: %d indices", c.n, c.s, len(got))
		}
		if err := checkIndices("test", "landmarks", got, c.n); err != nil {
			t.Fatalf("n=%d s=%d: %v", c.n, c.s, err)
		}
	}
}

func TestShuffleDenseAndSparseAgree(t *testing.T) {
	for _, c := range []struct{ n, s int }{{1, 1}, {7, 7}, {100, 30}, {1000, 5}} {
		dense := shuffleDense(rand.New(rand.NewPCG(9, uint64(c.n))), c.n, c.s)
		sparse := shuffleSparse(rand.New(rand.NewPCG(9, uint64(c.n))), c.n, c.s)
		if !slices.Equal(dense, sparse) {
			t.Errorf("n=%d s=%d: dense %v, sparse %v", c.n, c.s, dense, sparse)
		}
	}
}

// Every 2-subset of {0..4} has probability 1/10 and every index leads with probability 1/5.
// Tolerance: 5 binomial standard deviations, √(p(1−p)/N).
func TestUniformLandmarksIsUniform(t *testing.T) {
	const trials = 40000
	rng := rand.New(rand.NewPCG(5, 6))
	pairs := map[[2]int]int{}
	first := make([]int, 5)
	for range trials {
		got, err := UniformLandmarks(rng, 5, 2)
		if err != nil {
			t.Fatal(err)
		}
		first[got[0]]++
		pairs[[2]int{min(got[0], got[1]), max(got[0], got[1])}]++
	}
	check := func(what string, count int, p float64) {
		t.Helper()
		freq := float64(count) / trials
		if tol := 5 * math.Sqrt(p*(1-p)/trials); math.Abs(freq-p) > tol {
			t.Errorf("%s: frequency %.4f, want %.4f ± %.4f", what, freq, p, tol)
		}
	}
	if len(pairs) != 10 {
		t.Fatalf("%d distinct pairs, want 10", len(pairs))
	}
	for pair, count := range pairs {
		check(fmt.Sprint("pair ", pair), count, 0.1)
	}
	for i, count := range first {
		check(fmt.Sprint("first index ", i), count, 0.2)
	}
}

// Successive sampling from weights p = (1, 2, 3, 0)/6 with s = 2: the ordered pair (i, j) has
// probability p_i·p_j/(1 − p_i); index 3 (score 0) never appears.
func TestWeightedLandmarksSuccessiveSampling(t *testing.T) {
	const trials = 60000
	scores := []float64{1, 2, 3, 0}
	p := []float64{1.0 / 6, 2.0 / 6, 3.0 / 6, 0}
	rng := rand.New(rand.NewPCG(7, 8))
	counts := map[[2]int]int{}
	for range trials {
		got, err := WeightedLandmarks(rng, scores, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got[0] == got[1] || slices.Contains(got, 3) {
			t.Fatalf("draw %v: want two distinct indices among 0, 1, 2", got)
		}
		counts[[2]int{got[0], got[1]}]++
	}
	for i := range 3 {
		for j := range 3 {
			if i == j {
				continue
			}
			want := p[i] * p[j] / (1 - p[i])
			freq := float64(counts[[2]int{i, j}]) / trials
			if tol := 5 * math.Sqrt(want*(1-want)/trials); math.Abs(freq-want) > tol {
				t.Errorf("ordered pair (%d, %d): frequency %.4f, want %.4f ± %.4f", i, j, freq, want, tol)
			}
		}
	}
}

func TestWeightedLandmarksTakesAllPositiveWhenSEqualsThem(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	got, err := WeightedLandmarks(rng, []float64{0, 5, 0, 1e-300, 2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, []int{1, 3, 4}) {
		t.Errorf("got %v, want the three positive-score indices [1 3 4]", got)
	}
}

func TestLandmarkErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	_, err := UniformLandmarks(nil, 5, 2)
	wantError(t, "nil rng", err)
	_, err = UniformLandmarks(rng, 5, 6)
	wantError(t, "s > n", err)
	_, err = UniformLandmarks(rng, 5, 0)
	wantError(t, "s = 0", err)
	_, err = UniformLandmarks(rng, 0, 0)
	wantError(t, "n = 0", err)
	_, err = WeightedLandmarks(nil, []float64{1}, 1)
	wantError(t, "weighted nil rng", err)
	_, err = WeightedLandmarks(rng, []float64{1, math.NaN()}, 1)
	wantError(t, "NaN score", err)
	_, err = WeightedLandmarks(rng, []float64{1, math.Inf(1)}, 1)
	wantError(t, "infinite score", err)
	_, err = WeightedLandmarks(rng, []float64{1, -1}, 1)
	wantError(t, "negative score", err)
	_, err = WeightedLandmarks(rng, []float64{1, 0, 2}, 3)
	wantError(t, "fewer positive scores than s", err)
	_, err = WeightedLandmarks(rng, []float64{1}, 0)
	wantError(t, "s = 0", err)
}
