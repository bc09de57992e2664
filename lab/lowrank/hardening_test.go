package lowrank

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/lazymat"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// Regression tests for issue 16.

// TestHugeSizes: these sizes killed the process (fatal out of memory).
func TestHugeSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := UniformLandmarks(rng, 1<<40, 1<<38); err == nil {
		t.Error("UniformLandmarks(2⁴⁰, 2³⁸): nil error")
	}
	if _, err := UniformLandmarks(rng, math.MaxInt, 1<<40); err == nil {
		t.Error("UniformLandmarks(MaxInt, 2⁴⁰): nil error")
	}
	if _, err := NewRFFGaussian(rng, 1<<32, 1<<32, 1); err == nil {
		t.Error("NewRFFGaussian(2³², 2³²): nil error")
	}
	if _, err := NewRFFLaplace(rng, 1, 1<<40, 1); err == nil {
		t.Error("NewRFFLaplace(1, 2⁴⁰): nil error")
	}
	// Small sizes still work.
	if idx, err := UniformLandmarks(rng, 1<<40, 3); err != nil || len(idx) != 3 {
		t.Errorf("UniformLandmarks(2⁴⁰, 3) = %v (%v)", idx, err)
	}
}

func TestMEKALinkToleranceNaN(t *testing.T) {
	X := mat.NewDense(8, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	clusters := []int{0, 0, 0, 0, 1, 1, 1, 1}
	for _, tol := range []float64{math.NaN(), math.Inf(1)} {
		var opts MEKAOptions
		opts.LinkTolerance = tol
		if _, err := FitMEKA(rand.New(rand.NewPCG(1, 2)), kernel.Gaussian{Sigma: 1}, X, clusters, 2, opts); err == nil {
			t.Errorf("LinkTolerance = %g accepted", tol)
		}
	}
}

type nanKernel struct{}

func (nanKernel) Eval(x, z []float64) float64 { return math.NaN() }
func (nanKernel) Name() string                { return "nan" }

// TestFrobeniusNonFinite: a user kernel returning NaN passed through FrobeniusError.
func TestFrobeniusNonFinite(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{1, 2, 3})
	features := mat.NewDense(3, 1, []float64{1, 1, 1})
	if v, err := FrobeniusError(nanKernel{}, X, features, nil); err == nil {
		t.Errorf("FrobeniusError with a NaN kernel = %g with a nil error", v)
	}
	big := mat.NewDense(3, 1, []float64{1e200, 1e200, 1e200})
	if v, err := FrobeniusError(kernel.Gaussian{Sigma: 1}, X, big, nil); err == nil {
		t.Errorf("FrobeniusError with features of 1e200 = %g with a nil error", v)
	}
}

// TestRFFOverflow: ωᵀx = ±Inf gave NaN features.
func TestRFFOverflow(t *testing.T) {
	r, err := NewRFF(mat.NewDense(1, 2, []float64{10, -10}), []float64{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if phi, err := r.Transform(mat.NewDense(1, 1, []float64{1e308})); err == nil {
		t.Errorf("Transform(1e308) = %v with a nil error", phi.RawMatrix().Data)
	}
}

// TestRFFGivenDraw: a draw read back with Frequencies and Phases and given to NewRFF gives the same
// features (reproducing or reusing a draw, like RBFSampler's random_weights_/random_offset_).
func TestRFFGivenDraw(t *testing.T) {
	r, err := NewRFFGaussian(rand.New(rand.NewPCG(3, 4)), 2, 5, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	again, err := NewRFF(r.Frequencies(), r.Phases())
	if err != nil {
		t.Fatal(err)
	}
	X := mat.NewDense(3, 2, []float64{0.1, 0.2, -1, 0.5, 2, 0})
	a, _ := r.Transform(X)
	b, _ := again.Transform(X)
	if !mat.Equal(a, b) {
		t.Errorf("features of the given draw differ:\n%v\n%v", mat.Formatted(a), mat.Formatted(b))
	}
	// The accessors return copies.
	r.Frequencies().Set(0, 0, 99)
	r.Phases()[0] = 99
	if c, _ := r.Transform(X); !mat.Equal(a, c) {
		t.Error("changing the returned frequencies or phases changed the map")
	}
	for _, c := range []struct {
		name   string
		omega  mat.Matrix
		phases []float64
	}{
		{"nil", nil, nil},
		{"NaN frequency", mat.NewDense(1, 1, []float64{math.NaN()}), []float64{0}},
		{"Inf phase", mat.NewDense(1, 1, []float64{1}), []float64{math.Inf(1)}},
		{"phase count", mat.NewDense(1, 2, []float64{1, 2}), []float64{0}},
	} {
		if _, err := NewRFF(c.omega, c.phases); err == nil {
			t.Errorf("NewRFF(%s): nil error", c.name)
		}
	}
	var zero *RFF
	if zero.Features() != 0 || zero.Frequencies() != nil || zero.Phases() != nil {
		t.Error("nil RFF: accessors not empty")
	}
	if _, err := new(RFF).Transform(X); err == nil {
		t.Error("zero RFF: Transform: nil error")
	}
}

// TestRelativeFrobeniusOverflow: entries of 1e300 gave NaN or +Inf (found by the sweep).
func TestRelativeFrobeniusOverflow(t *testing.T) {
	K := mat.NewSymDense(2, []float64{1, 0.5, 0.5, 1})
	big := mat.NewSymDense(2, []float64{1e300, 0, 0, 1e300})
	if v, err := RelativeFrobenius(big, K); err == nil {
		t.Errorf("RelativeFrobenius(1e300, K) = %g with a nil error", v)
	}
	if v, err := RelativeFrobenius(K, big); err == nil {
		t.Errorf("RelativeFrobenius(K, 1e300) = %g with a nil error", v)
	}
}

// Issue 34: an all-10³⁰⁰ matrix gave a NaN error (its squared eigenvalues overflowed), and a lazy
// matrix of order 2⁴⁰ was scanned (n²/2 entries) before any size check.
func TestBestRankKErrorExtremes(t *testing.T) {
	big := mat.NewSymDense(6, nil)
	for i := range 6 {
		for j := i; j < 6; j++ {
			big.SetSym(i, j, 1e300)
		}
	}
	// Rank one: the best rank-1 approximation is exact, up to the eigensolver's rounding.
	if e, err := BestRankKError(big, 1); err != nil || !(e >= 0 && e < 1e-12) {
		t.Errorf("BestRankKError(all 1e300, 1) = %g, %v; want 0 up to rounding", e, err)
	}
	t.Setenv("LAB_MEMLIMIT_BYTES", "1073741824")
	done := make(chan error, 1)
	go func() { _, err := BestRankKError(lazymat.SymOnes{N: 1 << 40}, 1); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "memlimit") {
			t.Errorf("BestRankKError of a lazy 2⁴⁰×2⁴⁰ matrix: %v, want a memlimit error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("BestRankKError of a lazy 2⁴⁰×2⁴⁰ matrix did not return within 10 s")
	}
}
