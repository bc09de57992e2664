package mmd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// Decision is the outcome of one three-sample problem (thesis §4.6): given X ~ P_X, Z ~ P_Z and
// W drawn from one of them, W is attributed to P_X when D(X, W) ≤ D(Z, W). Unlike a two-sample
// test, no threshold is needed.
type Decision struct {
	XW, ZW float64 // the estimates of MMD²(X, W) and MMD²(Z, W)
}

// FromX reports whether W is attributed to P_X: XW ≤ ZW. Comparing MMD² is comparing MMD (the
// square root is increasing), and stays meaningful for the block estimator, whose unbiased values
// can be negative.
func (d Decision) FromX() bool { return d.XW <= d.ZW }

// ThreeSample estimates MMD²(X, W) and then MMD²(Z, W) with est (both from rng, in that order) for
// the samples x, z and w of p.
//
// Errors: those of est.MMD2, with the pair that failed.
func ThreeSample(ctx context.Context, rng *rand.Rand, est Estimator, p Points, x, z, w []int) (Decision, error) {
	if isNil(est) {
		return Decision{}, fmt.Errorf("mmd: ThreeSample: nil estimator")
	}
	xw, err := est.MMD2(ctx, rng, p, x, w)
	if err != nil {
		return Decision{}, fmt.Errorf("mmd: ThreeSample: D(X, W): %w", err)
	}
	zw, err := est.MMD2(ctx, rng, p, z, w)
	if err != nil {
		return Decision{}, fmt.Errorf("mmd: ThreeSample: D(Z, W): %w", err)
	}
	return Decision{XW: xw, ZW: zw}, nil
}

// ErrorRate returns the error of thesis §4.6 over repeated three-sample problems in which W was
// drawn from P_X: the fraction of decisions that attribute W to P_Z, (1/r) Σ 1(D(X_i, W_i) >
// D(Z_i, W_i)).
//
// Errors: no decisions, a NaN estimate.
func ErrorRate(decisions []Decision) (float64, error) {
	if len(decisions) == 0 {
		return 0, fmt.Errorf("mmd: ErrorRate: no decisions")
	}
	wrong := 0
	for i, d := range decisions {
		if math.IsNaN(d.XW) || math.IsNaN(d.ZW) {
			return 0, laberr.Errorf(laberr.ErrNonFinite, "mmd: ErrorRate: decision %d has a NaN estimate (%g, %g)", i, d.XW, d.ZW)
		}
		if !d.FromX() {
			wrong++
		}
	}
	return float64(wrong) / float64(len(decisions)), nil
}
