package learn

import (
	"cmp"
	"fmt"
	"slices"
)

// ROCAUC returns the area under the ROC curve of scores for the binary labels y: the points
// with y_i == positive are the positives, all others the negatives. It equals the probability
// that a random positive scores above a random negative, ties counting one half, and is computed
// from ranks (the Mann–Whitney U statistic): with R₊ the sum of the ranks of the positives among
// all scores, tied scores sharing their mid-rank,
//
//	AUC = (R₊ − n₊(n₊+1)/2) / (n₊ n₋).
//
// This is the trapezoidal area of scikit-learn's roc_auc_score. The deck's experiment 1 scores
// KNN by it ([KNN.Scores] gives the fraction of positive neighbours, which ties a lot).
//
// Errors: empty or different lengths, NaN or ±Inf in either slice, no positive or no negative.
// Cost: O(n log n) time, O(n) memory.
func ROCAUC(y, scores []float64, positive float64) (float64, error) {
	const op = "ROCAUC"
	if len(y) == 0 || len(y) != len(scores) {
		return 0, fmt.Errorf("learn: %s: len(y) = %d and len(scores) = %d, want equal non-zero lengths", op, len(y), len(scores))
	}
	if err := checkFinite(op, "y", y); err != nil {
		return 0, err
	}
	if err := checkFinite(op, "scores", scores); err != nil {
		return 0, err
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(scores[a], scores[b]) })
	var rankSum float64 // of the positives, ranks from 1
	nPos := 0
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && scores[order[hi]] == scores[order[lo]] {
			hi++
		}
		midRank := float64(lo+1+hi) / 2 // the mean of the ranks lo+1 … hi
		for _, i := range order[lo:hi] {
			if y[i] == positive {
				rankSum += midRank
				nPos++
			}
		}
		lo = hi
	}
	nNeg := len(y) - nPos
	if nPos == 0 || nNeg == 0 {
		return 0, fmt.Errorf("learn: %s: %d positives (label %g) and %d negatives, want at least one of each", op, nPos, positive, nNeg)
	}
	p, q := float64(nPos), float64(nNeg)
	return (rankSum - p*(p+1)/2) / (p * q), nil
}
