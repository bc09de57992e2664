package leverage

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// Regression tests for issue 16.

// TestOverflowingKernel: with (10<x,z> + 1)^1000 on 1..8 the Gram matrix is all +Inf; Recursive
// returned NaN scores and Exact and DAC all ones, with nil errors.
func TestOverflowingKernel(t *testing.T) {
	k, err := kernel.NewPolynomial(1000, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	X := mat.NewDense(8, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	if s, _, err := Exact(k, X, 1, ExactOptions{}); err == nil {
		t.Errorf("Exact = %v with a nil error", s)
	}
	if s, err := DAC(rng(), k, X, 1, DACOptions{}); err == nil {
		t.Errorf("DAC = %v with a nil error", s)
	}
	if s, _, err := Recursive(rng(), k, X, 1, RecursiveOptions{}); err == nil {
		t.Errorf("Recursive = %v with a nil error", s)
	}
	if s, err := Uniform(rng(), k, X, 1, UniformOptions{}); err == nil {
		t.Errorf("Uniform = %v with a nil error", s)
	}
}

// TestDACGivenPartition: the partition DACPartition draws, given back, reproduces DAC's scores.
func TestDACGivenPartition(t *testing.T) {
	X := mat.NewDense(10, 2, nil)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 10 {
		X.Set(i, 0, r.NormFloat64())
		X.Set(i, 1, r.NormFloat64())
	}
	k := kernel.Gaussian{Sigma: 1}
	want, err := DAC(rand.New(rand.NewPCG(7, 8)), k, X, 0.1, DACOptions{BlockSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := DACPartition(rand.New(rand.NewPCG(7, 8)), 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DAC(nil, k, X, 0.1, DACOptions{Blocks: blocks})
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("DAC with the drawn partition = %v (%v), want %v", got, err, want)
	}
	// One block of all points gives the exact scores.
	all := [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
	exact, _, _ := Exact(k, X, 0.1, ExactOptions{})
	if got, err := DAC(nil, k, X, 0.1, DACOptions{Blocks: all}); err != nil || !slices.Equal(got, exact) {
		t.Errorf("DAC with one block = %v (%v), want the exact %v", got, err, exact)
	}
	for _, c := range []struct {
		name string
		opts DACOptions
	}{
		{"empty block", DACOptions{Blocks: [][]int{{0, 1, 2, 3, 4}, {}, {5, 6, 7, 8, 9}}}},
		{"repeat", DACOptions{Blocks: [][]int{{0, 1, 2, 3, 4}, {4, 5, 6, 7, 8, 9}}}},
		{"missing", DACOptions{Blocks: [][]int{{0, 1, 2, 3, 4}, {5, 6, 7, 8}}}},
		{"out of range", DACOptions{Blocks: [][]int{{0, 1, 2, 3, 4}, {5, 6, 7, 8, 10}}}},
		{"with BlockSize", DACOptions{Blocks: all, BlockSize: 3}},
	} {
		if _, err := DAC(nil, k, X, 0.1, c.opts); err == nil {
			t.Errorf("DAC with a partition (%s): nil error", c.name)
		}
	}
	if _, err := DACPartition(nil, 10, 3); err == nil {
		t.Error("DACPartition(nil rng): nil error")
	}
	if _, err := DACPartition(rand.New(rand.NewPCG(1, 1)), math.MaxInt, 0); err == nil {
		t.Error("DACPartition(MaxInt points): nil error")
	}
}

// TestDACPartitionHugeBlock: a block size of MaxInt overflowed ⌈n/m⌉ (found by the sweep).
func TestDACPartitionHugeBlock(t *testing.T) {
	blocks, err := DACPartition(rand.New(rand.NewPCG(1, 2)), 2, math.MaxInt)
	if err != nil || len(blocks) != 1 || len(blocks[0]) != 2 {
		t.Errorf("DACPartition(2, MaxInt) = %v (%v), want one block of 2", blocks, err)
	}
}

// Issue 34: ln(Σ/ρ) overflowed for a subnormal ρ and the bound was +Inf with a nil error.
func TestBernoulliSizeBoundSubnormalRho(t *testing.T) {
	got, err := BernoulliSizeBound([]float64{1, 2, 3}, 5e-324)
	// 32·(ln 6 − ln 5e-324)·6, with ln 5e-324 = −744.44.
	want := 32 * (math.Log(6) - math.Log(5e-324)) * 6
	if err != nil || math.Abs(got-want) > 1e-9*want {
		t.Errorf("BernoulliSizeBound(ρ = 5e-324) = %g, %v; want %g", got, err, want)
	}
	if _, err := BernoulliSizeBound([]float64{math.MaxFloat64 / 4, math.MaxFloat64 / 4}, 0.1); err == nil {
		t.Error("an overflowing bound: nil error")
	}
}
