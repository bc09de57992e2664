package lowrank

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// UniformLandmarks draws s distinct indices from {0, …, n-1}, uniformly without replacement (as
// scikit-learn's Nystroem does), and returns them in the order drawn. It is a partial
// Fisher–Yates shuffle: O(s) time, and O(s) memory (only the displaced entries are remembered)
// unless s ≥ n/4, where a plain array of n indices is cheaper. Both give the same draws.
//
// Errors: nil rng, n < 1, s < 1 or s > n, memory above the allocation limit
// (lab/internal/memlimit: 8n bytes for the array, about 100 bytes per landmark for the map).
func UniformLandmarks(rng *rand.Rand, n, s int) ([]int, error) {
	const op = "lowrank: UniformLandmarks"
	if rng == nil {
		return nil, fmt.Errorf("%s: %w", op, laberr.ErrNilRand)
	}
	if n < 1 || s < 1 || s > n {
		return nil, fmt.Errorf("%s: %d landmarks out of %d points, want 1 ≤ s ≤ n", op, s, n)
	}
	if 4*s >= n {
		if err := memlimit.Check(op, fmt.Sprintf("a permutation of %d points", n), 8, n); err != nil {
			return nil, err
		}
		return shuffleDense(rng, n, s), nil
	}
	if err := memlimit.Check(op, fmt.Sprintf("%d landmarks", s), 100, s); err != nil {
		return nil, err
	}
	return shuffleSparse(rng, n, s), nil
}

// shuffleDense returns the first s entries of a Fisher–Yates shuffle of 0..n-1.
func shuffleDense(rng *rand.Rand, n, s int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := range s {
		j := i + rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm[:s:s]
}

// shuffleSparse is shuffleDense with the virtual permutation kept in a map of the positions a
// swap has touched (the others still hold their own index).
func shuffleSparse(rng *rand.Rand, n, s int) []int {
	displaced := make(map[int]int, 2*s)
	at := func(i int) int {
		if v, ok := displaced[i]; ok {
			return v
		}
		return i
	}
	out := make([]int, s)
	for i := range s {
		j := i + rng.IntN(n-i)
		out[i] = at(j)
		displaced[j] = at(i)
	}
	return out
}

// WeightedLandmarks draws s distinct indices without replacement with probabilities proportional
// to scores, by successive sampling: each draw picks index i with probability scores[i] divided
// by the sum of the scores not yet drawn (numpy's choice(replace=False, p=…), which the thesis's
// code uses). It is implemented with the exponential keys of Efraimidis and Spirakis: the s
// indices of smallest E_i / scores[i], E_i ~ Exp(1), in increasing order of key, which is the
// order of the successive draws. Ridge-leverage-score samplers plug in here.
//
// Cost: O(n log s) time, O(s) memory besides the scores. Errors: nil rng, s < 1, a NaN, infinite
// or negative score, or fewer than s positive scores (zero-score points are never drawn).
func WeightedLandmarks(rng *rand.Rand, scores []float64, s int) ([]int, error) {
	if rng == nil {
		return nil, fmt.Errorf("lowrank: WeightedLandmarks: %w", laberr.ErrNilRand)
	}
	if s < 1 {
		return nil, fmt.Errorf("lowrank: WeightedLandmarks: %d landmarks, want at least 1", s)
	}
	positive := 0
	for i, w := range scores {
		if !(w >= 0) || math.IsInf(w, 1) {
			return nil, fmt.Errorf("lowrank: WeightedLandmarks: scores[%d] = %g, want a finite value ≥ 0", i, w)
		}
		if w > 0 {
			positive++
		}
	}
	if positive < s {
		return nil, fmt.Errorf("lowrank: WeightedLandmarks: %d landmarks but only %d of %d scores are positive", s, positive, len(scores))
	}
	// heap is a max-heap (by key) of the s smallest keys seen so far.
	keys := make([]float64, 0, s)
	heap := make([]int, 0, s)
	for i, w := range scores {
		if w == 0 {
			continue
		}
		key := rng.ExpFloat64() / w
		if len(heap) < s {
			heap = append(heap, i)
			keys = append(keys, key)
			siftUp(heap, keys, len(heap)-1)
		} else if key < keys[0] {
			heap[0], keys[0] = i, key
			siftDown(heap, keys, 0, len(heap))
		}
	}
	// Heap sort in place: repeatedly move the largest key to the end, giving increasing keys.
	for end := len(heap) - 1; end > 0; end-- {
		heap[0], heap[end] = heap[end], heap[0]
		keys[0], keys[end] = keys[end], keys[0]
		siftDown(heap, keys, 0, end)
	}
	return heap, nil
}

// siftUp restores the max-heap order of keys (with heap moved alongside) after a push at i.
func siftUp(heap []int, keys []float64, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if keys[parent] >= keys[i] {
			return
		}
		heap[parent], heap[i] = heap[i], heap[parent]
		keys[parent], keys[i] = keys[i], keys[parent]
		i = parent
	}
}

// siftDown restores the max-heap order of keys[:size] (heap moved alongside) below position i.
func siftDown(heap []int, keys []float64, i, size int) {
	for {
		largest := i
		for _, child := range [2]int{2*i + 1, 2*i + 2} {
			if child < size && keys[child] > keys[largest] {
				largest = child
			}
		}
		if largest == i {
			return
		}
		heap[largest], heap[i] = heap[i], heap[largest]
		keys[largest], keys[i] = keys[i], keys[largest]
		i = largest
	}
}
