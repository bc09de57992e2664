package leverage

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/laberr"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// Sample draws s distinct indices with probability proportional to scores, without replacement
// (successive draws, numpy's choice(replace=False, p=scores/Σscores)): the landmark sampler of the
// thesis's experiments (§3.3.1), which fix |S| instead of using Algorithm 3. It delegates to
// [lowrank.WeightedLandmarks]; the indices come in the order drawn.
//
// Errors: nil rng, s < 1, a NaN, infinite or negative score, fewer than s positive scores.
// Cost: O(n log s) time, O(s) memory.
func Sample(rng *rand.Rand, scores []float64, s int) ([]int, error) {
	idx, err := lowrank.WeightedLandmarks(rng, scores, s)
	if err != nil {
		return nil, fmt.Errorf("leverage: Sample: %w", err)
	}
	return idx, nil
}

// BernoulliProbabilities returns the inclusion probabilities of Algorithm 3 (line 4, from Musco
// and Musco 2017), p_i = min(1, 16 l̂_i ln(Σ_j l̂_j / ρ)), for over-estimates l̂_i of the ridge
// leverage scores and a failure probability ρ ∈ (0, 1) (the logarithm is natural).
//
// Errors: no scores, a NaN, infinite or negative score, ρ outside (0, 1), and Σ l̂_j ≤ ρ, where the
// logarithm is not positive and every probability would be 0.
func BernoulliProbabilities(scores []float64, rho float64) ([]float64, error) {
	factor, err := bernoulliFactor("BernoulliProbabilities", scores, rho)
	if err != nil {
		return nil, err
	}
	p := make([]float64, len(scores))
	for i, l := range scores {
		p[i] = min(1, factor*l)
	}
	return p, nil
}

// BernoulliSample draws the landmarks of Algorithm 3: each index i is kept independently with
// probability p_i = min(1, 16 l̂_i ln(Σ_j l̂_j / ρ)) ([BernoulliProbabilities]), by one uniform number
// from rng per index in increasing order. The kept indices are returned in increasing order; their
// number is random, at most 32 ln(Σ l̂/ρ) Σ l̂ with high probability ([BernoulliSizeBound]). With
// scores that over-estimate the ridge leverage scores (DAC's, Corollary 1), the Nyström
// approximation on them satisfies K − λI ⪯ K̂ ⪯ K with probability at least 1 − ρ (Theorem 1).
//
// Errors: nil rng, and those of BernoulliProbabilities. The result may be empty (then Nyström
// cannot be fitted; draw again or lower ρ). Cost: O(n).
func BernoulliSample(rng *rand.Rand, scores []float64, rho float64) ([]int, error) {
	if rng == nil {
		return nil, fmt.Errorf("leverage: BernoulliSample: %w", laberr.ErrNilRand)
	}
	factor, err := bernoulliFactor("BernoulliSample", scores, rho)
	if err != nil {
		return nil, err
	}
	var kept []int
	for i, l := range scores {
		if rng.Float64() < min(1, factor*l) {
			kept = append(kept, i)
		}
	}
	return kept, nil
}

// BernoulliSizeBound returns 32 ln(Σ l̂/ρ) Σ l̂, Theorem 1's bound on the number of landmarks
// [BernoulliSample] keeps (it holds with probability at least 1 − ρ). Errors as for
// [BernoulliProbabilities].
func BernoulliSizeBound(scores []float64, rho float64) (float64, error) {
	factor, err := bernoulliFactor("BernoulliSizeBound", scores, rho)
	if err != nil {
		return 0, err
	}
	var sum float64
	for _, l := range scores {
		sum += l
	}
	bound := 2 * factor * sum
	if math.IsInf(bound, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "leverage: BernoulliSizeBound: the bound 32·ln(Σ/ρ)·Σ overflows (Σ scores = %g); rescale the scores", sum)
	}
	return bound, nil
}

// bernoulliFactor validates the scores and ρ and returns 16 ln(Σ l̂/ρ).
func bernoulliFactor(op string, scores []float64, rho float64) (float64, error) {
	if len(scores) == 0 {
		return 0, fmt.Errorf("leverage: %s: no scores", op)
	}
	if !(rho > 0 && rho < 1) {
		return 0, fmt.Errorf("leverage: %s: ρ = %g, want a failure probability in (0, 1)", op, rho)
	}
	var sum float64
	for i, l := range scores {
		if math.IsNaN(l) || math.IsInf(l, 0) || l < 0 {
			return 0, fmt.Errorf("leverage: %s: scores[%d] = %g, want a finite value ≥ 0", op, i, l)
		}
		sum += l
	}
	if math.IsInf(sum, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "leverage: %s: Σ scores overflows", op)
	}
	if sum <= rho {
		return 0, fmt.Errorf("leverage: %s: Σ scores = %g ≤ ρ = %g, so ln(Σ/ρ) ≤ 0 and no point would be kept", op, sum, rho)
	}
	// ln Σ − ln ρ, not ln(Σ/ρ): the quotient overflows for a subnormal ρ.
	return 16 * (math.Log(sum) - math.Log(rho)), nil
}
