package mmd

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

func TestEstimatorErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	X := gaussianRows(rng, 20, 2, 0, 1)
	p := mustVectors(t, mustGaussian(t, 1), X)
	linear := mustVectors(t, kernel.Linear{}, X)
	gram, _ := kernel.Gram(mustGaussian(t, 1), X)
	pre, _ := NewPrecomputed(gram)
	zeros, _ := NewPrecomputed(mat.NewSymDense(20, nil))
	var nilVectors *Vectors
	ctx := context.Background()
	x, z := span(0, 10), span(10, 20)
	fresh := func() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }
	for _, tc := range []struct {
		est  Estimator
		ctx  context.Context
		rng  *rand.Rand
		p    Points
		x, z []int
		want string
	}{
		{Exact{}, nil, nil, p, x, z, "nil context"},
		{Exact{}, ctx, nil, nil, x, z, "nil points"},
		{Exact{}, ctx, nil, nilVectors, x, z, "nil points"},
		{Exact{}, ctx, nil, p, nil, z, "samples of 0 and 10 points"},
		{Exact{}, ctx, nil, p, x, []int{}, "samples of 10 and 0 points"},
		{Exact{}, ctx, nil, p, x, []int{3, 20}, "z[1] = 20 outside the 20 points"},
		{Exact{}, ctx, nil, p, []int{-1}, z, "x[0] = -1 outside"},
		{Linear{}, ctx, nil, p, x, z, "nil rng"},
		{Block{}, ctx, nil, p, x, z, "nil rng"},
		{Block{Size: 1}, ctx, fresh(), p, x, z, "block size 1 for samples of 10 and 10 points, want 2 ≤ s ≤ 10"},
		{Block{Size: 11}, ctx, fresh(), p, x, z, "block size 11"},
		{Block{Size: -2}, ctx, fresh(), p, x, z, "block size -2"},
		{Block{}, ctx, fresh(), p, x, []int{1}, "block size 2 for samples of 10 and 1 points"},
		{RFF{}, ctx, nil, p, x, z, "nil rng"},
		{RFF{Features: -1}, ctx, fresh(), p, x, z, "-1 features"},
		{RFF{}, ctx, fresh(), linear, x, z, "the kernel linear is not shift-invariant"},
		{RFF{}, ctx, fresh(), pre, x, z, "not for *mmd.Precomputed"},
		{Nystrom{}, ctx, nil, p, x, z, "nil rng"},
		{Nystrom{Landmarks: 21}, ctx, fresh(), p, x, z, "21 landmarks for a pooled sample of 20 points"},
		{Nystrom{Landmarks: -1}, ctx, fresh(), p, x, z, "-1 landmarks"},
		{Nystrom{Lambda: -1}, ctx, fresh(), p, x, z, "λ = -1"},
		{Nystrom{Lambda: math.NaN()}, ctx, fresh(), p, x, z, "λ = NaN"},
		{Nystrom{Lambda: math.Inf(1)}, ctx, fresh(), p, x, z, "λ = +Inf"},
		{Nystrom{}, ctx, fresh(), zeros, x, z, "no positive eigenvalue"},
	} {
		_, err := tc.est.MMD2(tc.ctx, tc.rng, tc.p, tc.x, tc.z)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.est.Name(), err, tc.want)
		}
	}
	if _, err := ThreeSample(ctx, fresh(), nil, p, x, z, x); err == nil {
		t.Error("ThreeSample with a nil estimator: no error")
	}
	if _, err := ThreeSample(ctx, nil, Exact{}, p, x, z, []int{99}); err == nil || !strings.Contains(err.Error(), "D(X, W)") {
		t.Errorf("ThreeSample with a bad W: error %v", err)
	}
}

func TestPointsErrors(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	bad := mat.NewDense(2, 2, []float64{1, math.NaN(), 3, 4})
	var nilDense *mat.Dense
	for _, tc := range []struct {
		k    kernel.Kernel
		X    mat.Matrix
		want string
	}{
		{nil, X, "nil kernel"},
		{kernel.Gaussian{Sigma: -1}, X, "σ"},
		{mustGaussian(t, 1), nil, "nil"},
		{mustGaussian(t, 1), nilDense, "nil"},
		{mustGaussian(t, 1), bad, "NaN"},
	} {
		if _, err := NewVectors(tc.k, tc.X); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewVectors(%v, …): error %v, want %q", tc.k, err, tc.want)
		}
	}
	if _, err := NewPrecomputed(nil); err == nil {
		t.Error("NewPrecomputed(nil): no error")
	}
	if _, err := NewPrecomputed(mat.NewSymDense(2, []float64{1, math.Inf(1), math.Inf(1), 1})); err == nil || !strings.Contains(err.Error(), "K[0,1] = +Inf") {
		t.Errorf("NewPrecomputed with Inf: error %v", err)
	}
	v := mustVectors(t, mustGaussian(t, 1), X)
	pre, _ := NewPrecomputed(mat.NewSymDense(3, nil))
	for _, p := range []Points{v, pre} {
		for _, tc := range []struct {
			dst        *mat.Dense
			rows, cols []int
			want       string
		}{
			{nil, []int{0}, []int{0}, "nil destination"},
			{mat.NewDense(1, 1, nil), nil, []int{0}, "0 rows and 1 columns"},
			{mat.NewDense(1, 1, nil), []int{0}, []int{0, 1}, "destination is 1×1, want 1×2"},
			{&mat.Dense{}, []int{0}, []int{0}, "destination is 0×0, want 1×1"},
			{mat.NewDense(1, 1, nil), []int{3}, []int{0}, "rows[0] = 3 outside the 3 points"},
			{mat.NewDense(1, 2, nil), []int{0}, []int{0, -1}, "cols[1] = -1"},
		} {
			if err := p.Block(tc.dst, tc.rows, tc.cols); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%T.Block(%v, %v): error %v, want %q", p, tc.rows, tc.cols, err, tc.want)
			}
		}
	}
}
