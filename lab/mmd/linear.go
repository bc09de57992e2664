package mmd

import (
	"context"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/internal/isqrt"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// Linear is the "linear" MMD exactly as thesis §4.2 defines it (after Gretton et al. 2012): the
// exact MMD² of eq. (4.2) between a random subset of ⌈√n⌉ points of X and one of ⌈√m⌉ points of
// Z, drawn uniformly without replacement. Time O((√n + √m)² d) = O((n + m)d) for vectors, the
// cheapest estimator, and the noisiest. (Gretton et al.'s own "linear-time statistic", which
// averages h over disjoint pairs, is a different estimator.)
type Linear struct{}

// Name returns "linear".
func (Linear) Name() string { return "linear" }

// MMD2 draws the two subsets (positions in x with [lowrank.UniformLandmarks](rng, n, ⌈√n⌉), then in
// z) and returns their exact MMD².
//
// Errors: nil rng, and those of [Exact.MMD2].
func (Linear) MMD2(ctx context.Context, rng *rand.Rand, p Points, x, z []int) (float64, error) {
	if err := checkSamples("Linear", ctx, p, x, z); err != nil {
		return 0, err
	}
	if err := checkRNG("Linear", rng); err != nil {
		return 0, err
	}
	sx, err := subsample(rng, x, isqrt.Ceil(len(x)))
	if err != nil {
		return 0, err
	}
	sz, err := subsample(rng, z, isqrt.Ceil(len(z)))
	if err != nil {
		return 0, err
	}
	return exactMMD2(ctx, p, sx, sz)
}

// subsample returns k entries of idx at distinct positions drawn uniformly (1 ≤ k ≤ len(idx)).
func subsample(rng *rand.Rand, idx []int, k int) ([]int, error) {
	pos, err := lowrank.UniformLandmarks(rng, len(idx), k)
	if err != nil {
		return nil, err
	}
	out := make([]int, k)
	for a, i := range pos {
		out[a] = idx[i]
	}
	return out, nil
}
