package factor

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
	"github.com/fastkernels/kernellab/lab/internal/lazymat"
)

// Regression tests for issue 16.

// TestZeroModels: methods of models not made by the Fit functions panicked on nil matrices.
func TestZeroModels(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{1, 2})
	var kpca KernelPCA
	if _, err := kpca.Transform(X); err == nil {
		t.Error("zero KernelPCA: Transform: nil error")
	}
	if p := kpca.TrainingProjections(); p != nil {
		t.Errorf("zero KernelPCA: TrainingProjections = %v, want nil", p)
	}
	if e := kpca.Eigenvalues(); len(e) != 0 {
		t.Errorf("zero KernelPCA: Eigenvalues = %v, want none", e)
	}
	var pca PCA
	if c := pca.Components(); c != nil {
		t.Errorf("zero PCA: Components = %v, want nil", c)
	}
	if _, err := pca.Transform(X); err == nil {
		t.Error("zero PCA: Transform: nil error")
	}
}

// TestPCAOverflow: the explained variance of huge coordinates overflowed to +Inf.
func TestPCAOverflow(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1e200, 1, -1e200, 2, 0, 3})
	if m, err := FitPCA(X, 1); err == nil {
		t.Errorf("FitPCA: variance %v with a nil error", m.ExplainedVariance())
	}
	Y := mat.NewDense(3, 1, []float64{1.7e308, -1.7e308, 1.7e308})
	if m, err := FitPCA(Y, 1); err == nil {
		t.Errorf("FitPCA(±1.7e308): variance %v with a nil error", m.ExplainedVariance())
	}
	m, err := FitPCA(mat.NewDense(3, 1, []float64{0, 1, 2}), 1)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := m.Transform(mat.NewDense(1, 1, []float64{-1.7e308})); err == nil && out.At(0, 0)-out.At(0, 0) != 0 {
		t.Errorf("PCA.Transform(-1.7e308) = %v with a nil error", out.At(0, 0))
	}
}

// Issue 34: huge dimensions through lazy and CSR inputs are refused (memlimit) before anything of
// their size is allocated or scanned, and overflow is an error, not a NaN objective.
func TestHugeDimensionsAreRefused(t *testing.T) {
	t.Setenv("LAB_MEMLIMIT_BYTES", "1073741824")
	rng := rand.New(rand.NewPCG(3, 4))
	wide, err := csr.FromTriplets(2, 1<<40, []int{0, 1}, []int{3, 1 << 39}, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	tall := lazymat.Ones{R: 1 << 40, C: 3}
	for name, f := range map[string]func() error{
		"RandomizedSVD, CSR 2×2⁴⁰": func() error { _, err := RandomizedSVD(rng, wide, 1, RandomizedSVDOptions{}); return err },
		"AdaptiveRangeFinder, CSR 2×2⁴⁰": func() error {
			_, _, err := AdaptiveRangeFinder(rng, wide, 0.1, 2)
			return err
		},
		"FitSparsePCA, CSR 2×2⁴⁰":  func() error { _, err := FitSparsePCA(rng, wide, 1, SparsePCAOptions{Iterations: 1}); return err },
		"FitPPCA, CSR 2×2⁴⁰":       func() error { _, err := FitPPCA(rng, wide, 1, 5); return err },
		"FitPCA, lazy 2⁴⁰×3":       func() error { _, err := FitPCA(tall, 1); return err },
		"FitPPCA, lazy 2⁴⁰×3":      func() error { _, err := FitPPCA(rng, tall, 1, 5); return err },
		"TruncatedSVD, lazy 2⁴⁰×3": func() error { _, err := TruncatedSVD(tall, 1); return err },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "memlimit") {
			t.Errorf("%s: %v, want a memlimit error", name, err)
		}
	}
}

func TestSparsePCAOverflowIsAnError(t *testing.T) {
	A := mat.NewDense(3, 2, []float64{1e200, -1e200, -1e200, 1e200, 1e200, 1e200})
	if m, err := FitSparsePCA(rand.New(rand.NewPCG(1, 2)), A, 1, SparsePCAOptions{Iterations: 2}); err == nil {
		t.Errorf("FitSparsePCA(±1e200): objective %v with a nil error", m.Objective)
	}
}

// Issue 34: 2⁴⁰ power iterations stop within one iteration of the context's cancellation.
func TestRandomizedSVDStopsWithTheContext(t *testing.T) {
	X := mat.NewDense(4, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 10, 1, 0, 1})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := RandomizedSVDContext(ctx, rand.New(rand.NewPCG(1, 2)), X, 1, RandomizedSVDOptions{PowerIterations: 1 << 40})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("RandomizedSVDContext, 2⁴⁰ power iterations: %v after %v, want the deadline's error soon after 200 ms", err, time.Since(start))
	}
	var none context.Context
	if _, err := RandomizedSVDContext(none, rand.New(rand.NewPCG(1, 2)), X, 1, RandomizedSVDOptions{}); err == nil {
		t.Error("RandomizedSVDContext with a nil ctx: no error")
	}
	// Without cancellation it is RandomizedSVD, bit for bit.
	plain, err := RandomizedSVD(rand.New(rand.NewPCG(1, 2)), X, 2, RandomizedSVDOptions{PowerIterations: 2})
	if err != nil {
		t.Fatal(err)
	}
	twin, err := RandomizedSVDContext(context.Background(), rand.New(rand.NewPCG(1, 2)), X, 2, RandomizedSVDOptions{PowerIterations: 2})
	if err != nil || !mat.Equal(twin.U, plain.U) || !mat.Equal(twin.V, plain.V) {
		t.Errorf("RandomizedSVDContext differs from RandomizedSVD (%v)", err)
	}
}
