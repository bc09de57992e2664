package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/lazymat"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/text"
)

// Regression tests for issue 16.

func anyNonFinite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return true
		}
	}
	return false
}

// TestKRRHugeTargets: y = ±MaxFloat64 gave NaN coefficients with a nil error.
func TestKRRHugeTargets(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := []float64{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64}
	if m, err := FitKRR(kernel.Gaussian{Sigma: 1}, X, y, 1e-3); err == nil && anyNonFinite(m.Coefficients()) {
		t.Errorf("FitKRR: coefficients %v with a nil error", m.Coefficients())
	}
}

// TestZeroKRR: Predict on the zero KRR panicked.
func TestZeroKRR(t *testing.T) {
	if _, err := new(KRR).Predict(mat.NewDense(1, 1, []float64{1})); err == nil {
		t.Error("zero KRR: Predict: nil error")
	}
	if _, err := new(SVM).Decision(mat.NewDense(1, 1, []float64{1})); err == nil {
		t.Error("zero SVM: Decision: nil error")
	}
}

// TestSVMSubnormalLaplace: Laplace{5e-324} was accepted and Decision returned NaN.
func TestSVMSubnormalLaplace(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	m, err := FitSVM(kernel.Laplace{Sigma: 5e-324}, X, []float64{-1, -1, 1, 1}, SVMOptions{})
	if err == nil {
		if d, err := m.Decision(X); err == nil && anyNonFinite(d) {
			t.Errorf("Decision = %v with a nil error", d)
		}
	}
}

// TestOverflowingMetrics: KMeans inertia and MSE overflowed to +Inf.
func TestOverflowingMetrics(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{1e200, -1e200, 0})
	if r, err := KMeans(rand.New(rand.NewPCG(1, 2)), X, 1, KMeansOptions{}); err == nil && (math.IsInf(r.Inertia, 0) || math.IsNaN(r.Inertia)) {
		t.Errorf("KMeans inertia %g with a nil error", r.Inertia)
	}
	Y := mat.NewDense(2, 1, []float64{1.7e308, -1.7e308})
	if r, err := KMeans(rand.New(rand.NewPCG(1, 2)), Y, 1, KMeansOptions{}); err == nil && (math.IsInf(r.Inertia, 0) || math.IsNaN(r.Inertia)) {
		t.Errorf("KMeans(±1.7e308) inertia %g with a nil error", r.Inertia)
	}
	if v, err := MSE([]float64{1e200}, []float64{-1e200}); err == nil {
		t.Errorf("MSE = %g with a nil error", v)
	}
}

// Issue 34: the second hardening pass.
func TestHugeShapesTypedNilsAndTinySmoothing(t *testing.T) {
	t.Setenv("LAB_MEMLIMIT_BYTES", "1073741824")
	// r·c of a lazy 2⁴⁰×2⁴⁰ cost matrix overflowed in the copy and panicked.
	if _, _, err := Assignment(lazymat.Ones{R: 1 << 40, C: 1 << 40}); err == nil || !strings.Contains(err.Error(), "memlimit") {
		t.Errorf("Assignment of a lazy 2⁴⁰×2⁴⁰ matrix: %v, want a memlimit error", err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	bag, err := text.Build([]string{"kernel methods scale", "sparse solvers scale", "kernel solvers", "random features"}, text.Options{StopWords: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	model, err := FitTopicModel(rng, bag, 2, TopicModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A typed-nil *text.BagOfWords panicked in FitTopicModel and LogPosterior.
	var none *text.BagOfWords
	if _, err := FitTopicModel(rng, none, 2, TopicModelOptions{}); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("FitTopicModel(nil *BagOfWords): %v", err)
	}
	if _, err := model.LogPosterior(none); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("LogPosterior(nil *BagOfWords): %v", err)
	}
	// Documents of 2⁴⁰ words allocated T·V (and V) unchecked.
	huge := lazymat.Documents{Words: 1 << 40}
	if _, err := FitTopicModel(rng, huge, 1, TopicModelOptions{}); err == nil || !strings.Contains(err.Error(), "memlimit") {
		t.Errorf("FitTopicModel on 2⁴⁰ words: %v, want a memlimit error", err)
	}
	if _, err := model.LogPosterior(huge); err == nil || !strings.Contains(err.Error(), "memlimit") {
		t.Errorf("LogPosterior on 2⁴⁰ words: %v, want a memlimit error", err)
	}
	// β = 5e-324 underflowed φ of unseen words to 0: −Inf log posteriors with a nil error.
	if _, err := FitTopicModel(rng, bag, 2, TopicModelOptions{Smoothing: 5e-324}); err == nil || !strings.Contains(err.Error(), "Smoothing") {
		t.Errorf("Smoothing 5e-324: %v, want an error", err)
	}
	tiny, err := FitTopicModel(rng, bag, 2, TopicModelOptions{Smoothing: minTopicSmoothing})
	if err != nil {
		t.Fatal(err)
	}
	post, err := tiny.LogPosterior(bag)
	if err != nil || anyNonFinite(post.RawMatrix().Data) {
		t.Errorf("Smoothing %g: log posteriors %v, %v; want finite values", minTopicSmoothing, post, err)
	}
}

// Issue 34: 2⁴⁰ restarts or k-means initialisations stop within one iteration of the context's
// cancellation.
func TestHugeWorkStopsWithTheContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	bag, err := text.Build([]string{"a kernel", "a solver", "kernel solver"}, text.Options{StopWords: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	X := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	for name, f := range map[string]func(ctx context.Context) error{
		"FitTopicModelContext, 2⁴⁰ restarts": func(ctx context.Context) error {
			_, err := FitTopicModelContext(ctx, rng, bag, 2, TopicModelOptions{Restarts: 1 << 40})
			return err
		},
		"KMeansContext, NInit = MaxInt": func(ctx context.Context) error {
			_, err := KMeansContext(ctx, rng, X, 2, KMeansOptions{NInit: math.MaxInt})
			return err
		},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		err := f(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
			t.Errorf("%s: %v after %v, want the deadline's error soon after 200 ms", name, err, time.Since(start))
		}
	}
}
