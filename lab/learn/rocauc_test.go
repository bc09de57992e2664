package learn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pairAUC counts, over all (positive, negative) pairs, 1 when the positive scores higher and ½ on
// a tie: the definition of the AUC as a probability, O(n₊n₋).
func pairAUC(y, s []float64, positive float64) float64 {
	var sum float64
	var pairs int
	for i := range y {
		if y[i] != positive {
			continue
		}
		for j := range y {
			if y[j] == positive {
				continue
			}
			pairs++
			switch {
			case s[i] > s[j]:
				sum++
			case s[i] == s[j]:
				sum += 0.5
			}
		}
	}
	return sum / float64(pairs)
}

func TestROCAUCByHand(t *testing.T) {
	for _, c := range []struct {
		y, s []float64
		want float64
	}{
		// scikit-learn's roc_auc_score documentation example: 0.75.
		{[]float64{0, 0, 1, 1}, []float64{0.1, 0.4, 0.35, 0.8}, 0.75},
		// Pairs (0.9,0.1) 1, (0.9,0.4) 1, (0.4,0.1) 1, (0.4,0.4) ½: 3.5/4.
		{[]float64{1, 0, 1, 0}, []float64{0.9, 0.1, 0.4, 0.4}, 0.875},
		{[]float64{1, 0}, []float64{0, 1}, 0},
		{[]float64{1, 1, 0}, []float64{2, 2, 2}, 0.5},
	} {
		got, err := ROCAUC(c.y, c.s, 1)
		if err != nil || got != c.want {
			t.Errorf("ROCAUC(%v, %v) = %g, %v; want %g", c.y, c.s, got, err, c.want)
		}
	}
}

func TestROCAUCAgainstPairCounting(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n := 2 + rng.IntN(60)
		y, s := make([]float64, n), make([]float64, n)
		for i := range y {
			y[i] = float64(rng.IntN(3)) // label 2 is the positive class, 0 and 1 negatives
			s[i] = float64(rng.IntN(1 + trial%7))
		}
		y[0], y[1] = 2, 0
		got, err := ROCAUC(y, s, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := pairAUC(y, s, 2); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: ROCAUC = %g, pair counting %g", trial, got, want)
		}
	}
}

func TestROCAUCErrors(t *testing.T) {
	for name, c := range map[string][2][]float64{
		"empty":       {nil, nil},
		"lengths":     {{1, 0}, {1}},
		"NaN score":   {{1, 0}, {math.NaN(), 0}},
		"Inf label":   {{math.Inf(1), 0}, {1, 0}},
		"no negative": {{1, 1}, {1, 0}},
		"no positive": {{0, 0}, {1, 0}},
	} {
		if _, err := ROCAUC(c[0], c[1], 1); err == nil {
			t.Errorf("%s: nil error", name)
		}
	}
}
