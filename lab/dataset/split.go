package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// Subsample returns k distinct indices from 0..n-1, drawn uniformly without replacement and
// sorted ascending (Floyd's algorithm: O(k) time and memory, whatever n).
func Subsample(rng *rand.Rand, n, k int) ([]int, error) {
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "dataset: Subsample: nil *rand.Rand")
	}
	if n < 0 || k < 0 || k > n {
		return nil, fmt.Errorf("dataset: Subsample: want 0 <= k <= n, got n = %d, k = %d", n, k)
	}
	chosen := make(map[int]bool, k)
	out := make([]int, 0, k)
	for j := n - k; j < n; j++ {
		t := rng.IntN(j + 1)
		if chosen[t] {
			t = j
		}
		chosen[t] = true
		out = append(out, t)
	}
	sort.Ints(out)
	return out, nil
}

// Split shuffles 0..n-1 and cuts it into parts of the given fractions (which must sum to 1
// within 1e-9); part sizes are ⌊f·n⌋ plus one for the parts with the largest remainders, so
// they add up to n. Every index is in exactly one part; each part is sorted ascending.
func Split(rng *rand.Rand, n int, fractions ...float64) ([][]int, error) {
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "dataset: Split: nil *rand.Rand")
	}
	if n < 0 {
		return nil, fmt.Errorf("dataset: Split: n = %d is negative", n)
	}
	if err := checkFractions(fractions); err != nil {
		return nil, fmt.Errorf("dataset: Split: %w", err)
	}
	perm := rng.Perm(n)
	parts := make([][]int, len(fractions))
	start := 0
	for p, size := range partSizes(n, fractions) {
		parts[p] = append([]int(nil), perm[start:start+size]...)
		sort.Ints(parts[p])
		start += size
	}
	return parts, nil
}

// StratifiedSplit is Split done within each class of labels (classes in increasing label
// order), so every part keeps the class proportions up to rounding: each class's part sizes
// follow Split's rule, hence overall part sizes may differ from Split's by the number of classes.
func StratifiedSplit(rng *rand.Rand, labels []float64, fractions ...float64) ([][]int, error) {
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "dataset: StratifiedSplit: nil *rand.Rand")
	}
	if err := checkFractions(fractions); err != nil {
		return nil, fmt.Errorf("dataset: StratifiedSplit: %w", err)
	}
	byClass := map[float64][]int{}
	for i, l := range labels {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return nil, fmt.Errorf("dataset: StratifiedSplit: label %d is %v", i, l)
		}
		byClass[l] = append(byClass[l], i)
	}
	classes := make([]float64, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Float64s(classes)
	parts := make([][]int, len(fractions))
	for _, c := range classes {
		idx := byClass[c]
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		start := 0
		for p, size := range partSizes(len(idx), fractions) {
			parts[p] = append(parts[p], idx[start:start+size]...)
			start += size
		}
	}
	for p := range parts {
		sort.Ints(parts[p])
	}
	return parts, nil
}

func checkFractions(fractions []float64) error {
	if len(fractions) == 0 {
		return fmt.Errorf("no fractions")
	}
	var sum float64
	for i, f := range fractions {
		if !(f >= 0 && f <= 1) {
			return fmt.Errorf("fraction %d is %v, want a value in [0, 1]", i, f)
		}
		sum += f
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("fractions sum to %v, want 1", sum)
	}
	return nil
}

// partSizes splits n by fractions with the largest-remainder rule (ties to the earlier part).
func partSizes(n int, fractions []float64) []int {
	sizes := make([]int, len(fractions))
	rem := make([]float64, len(fractions))
	left := n
	for i, f := range fractions {
		exact := f * float64(n)
		sizes[i] = min(int(math.Floor(exact)), left)
		rem[i] = exact - float64(sizes[i])
		left -= sizes[i]
	}
	order := make([]int, len(fractions))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for k := 0; left > 0; k = (k + 1) % len(order) {
		sizes[order[k]]++
		left--
	}
	return sizes
}
