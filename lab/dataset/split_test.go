package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 2024)) }

func TestSubsampleIsSortedDistinctAndUniform(t *testing.T) {
	const n, k, trials = 10, 3, 20000
	counts := make([]int, n)
	rng := newRNG(1)
	for range trials {
		idx, err := Subsample(rng, n, k)
		if err != nil {
			t.Fatal(err)
		}
		if len(idx) != k || !sort.IntsAreSorted(idx) {
			t.Fatalf("Subsample = %v", idx)
		}
		for i, v := range idx {
			if v < 0 || v >= n || i > 0 && idx[i-1] == v {
				t.Fatalf("Subsample = %v: out of range or repeated", idx)
			}
			counts[v]++
		}
	}
	// Each index is drawn with probability k/n: expected 6000, sd sqrt(20000·0.3·0.7) ≈ 65.
	for i, c := range counts {
		if math.Abs(float64(c)-trials*k/n) > 5*65 {
			t.Errorf("index %d drawn %d times, want about %d", i, c, trials*k/n)
		}
	}
	all, _ := Subsample(newRNG(2), 5, 5)
	if !slices.Equal(all, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("k = n gives %v", all)
	}
	a, _ := Subsample(newRNG(3), 1000, 20)
	b, _ := Subsample(newRNG(3), 1000, 20)
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different subsample")
	}
	for _, bad := range [][2]int{{5, 6}, {-1, 0}, {5, -1}} {
		if _, err := Subsample(newRNG(4), bad[0], bad[1]); err == nil {
			t.Errorf("n=%d k=%d accepted", bad[0], bad[1])
		}
	}
	if _, err := Subsample(nil, 5, 2); err == nil {
		t.Error("nil rng accepted")
	}
}

// checkPartition fails unless parts hold every index of 0..n-1 exactly once, each part sorted.
func checkPartition(t *testing.T, parts [][]int, n int) {
	t.Helper()
	seen := make([]bool, n)
	total := 0
	for p, part := range parts {
		if !sort.IntsAreSorted(part) {
			t.Fatalf("part %d not sorted", p)
		}
		for _, i := range part {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("index %d out of range or repeated", i)
			}
			seen[i] = true
			total++
		}
	}
	if total != n {
		t.Fatalf("%d indices in the parts, want %d", total, n)
	}
}

func TestSplitSizesAndPartition(t *testing.T) {
	cases := []struct {
		n         int
		fractions []float64
		sizes     []int
	}{
		{10, []float64{0.5, 0.3, 0.2}, []int{5, 3, 2}},
		{7, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, []int{3, 2, 2}},
		{11, []float64{0.25, 0.75}, []int{3, 8}}, // 2.75 and 8.25: the remainder goes to the first
		{4, []float64{1, 0}, []int{4, 0}},
		{0, []float64{0.5, 0.5}, []int{0, 0}},
	}
	for _, c := range cases {
		parts, err := Split(newRNG(5), c.n, c.fractions...)
		if err != nil {
			t.Fatal(err)
		}
		for p := range parts {
			if len(parts[p]) != c.sizes[p] {
				t.Errorf("n=%d %v: part sizes %d, want %v", c.n, c.fractions, len(parts[p]), c.sizes)
			}
		}
		checkPartition(t, parts, c.n)
	}
	a, _ := Split(newRNG(6), 100, 0.8, 0.2)
	b, _ := Split(newRNG(6), 100, 0.8, 0.2)
	c, _ := Split(newRNG(7), 100, 0.8, 0.2)
	if !slices.Equal(a[1], b[1]) || slices.Equal(a[1], c[1]) {
		t.Fatal("Split must depend on the seed only")
	}
	for _, bad := range [][]float64{{}, {0.5, 0.4}, {1.2, -0.2}, {math.NaN(), 1}} {
		if _, err := Split(newRNG(8), 10, bad...); err == nil {
			t.Errorf("fractions %v accepted", bad)
		}
	}
	if _, err := Split(newRNG(8), 10, 0.5, 0.5+1e-10); err != nil {
		t.Errorf("sum within 1e-9 of 1 rejected: %v", err)
	}
}

func TestStratifiedSplitKeepsClassProportions(t *testing.T) {
	labels := make([]float64, 100)
	for i := range labels {
		if i%5 < 2 {
			labels[i] = 1 // 40 of class 1, 60 of class 0, interleaved
		}
	}
	parts, err := StratifiedSplit(newRNG(9), labels, 0.5, 0.3, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	checkPartition(t, parts, 100)
	want := [][2]int{{30, 20}, {18, 12}, {12, 8}} // (class 0, class 1) per part
	for p, part := range parts {
		var ones int
		for _, i := range part {
			ones += int(labels[i])
		}
		if len(part)-ones != want[p][0] || ones != want[p][1] {
			t.Errorf("part %d: %d of class 0, %d of class 1, want %v", p, len(part)-ones, ones, want[p])
		}
	}
	if _, err := StratifiedSplit(newRNG(9), []float64{0, math.NaN()}, 1); err == nil {
		t.Error("NaN label accepted")
	}
}
