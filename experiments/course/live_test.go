package course

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/notebook"
)

// liveTestSeed is the seed of the live figures under test (the notebooks pass their own).
const liveTestSeed = 2018

// liveFigure is what the tests need of a live figure.
type liveFigure interface {
	Controls() []notebook.Control
	Render(values []int) (notebook.Frame, error)
}

// liveFigures builds both live figures.
func liveFigures(tb testing.TB) map[string]liveFigure {
	tb.Helper()
	approx, err := NewApproximationLive(liveTestSeed)
	if err != nil {
		tb.Fatal(err)
	}
	kpca, err := NewKernelPCALive(liveTestSeed)
	if err != nil {
		tb.Fatal(err)
	}
	return map[string]liveFigure{"ApproximationLive": approx, "KernelPCALive": kpca}
}

// defaults returns the controls' default values.
func defaults(controls []notebook.Control) []int {
	values := make([]int, len(controls))
	for i, c := range controls {
		values[i] = c.Value
	}
	return values
}

// render draws the figure for values and returns its frame's key number, the value after the
// last " = " of its alt text.
func render(t *testing.T, l liveFigure, values ...int) float64 {
	t.Helper()
	f, err := l.Render(values)
	if err != nil {
		t.Fatalf("Render(%v): %v", values, err)
	}
	v, err := strconv.ParseFloat(f.Alt[strings.LastIndex(f.Alt, " = ")+3:], 64)
	if err != nil {
		t.Fatalf("Render(%v): alt text %q ends without a number: %v", values, f.Alt, err)
	}
	return v
}

// At the defaults each figure is a PNG whose alt text names every control's value, and
// notebook.Live accepts its controls and draws it (outside a notebook: once, statically).
func TestLiveFiguresRenderTheirDefaults(t *testing.T) {
	for name, l := range liveFigures(t) {
		controls := l.Controls()
		f, err := l.Render(defaults(controls))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var alt []string
		for _, c := range controls {
			alt = append(alt, notebook.AltText([]notebook.Control{c}, []int{c.Value}))
		}
		kittest.CheckFrame(t, f, 600, 300, alt...)
		if err := notebook.Live(name, controls, l.Render); err != nil {
			t.Errorf("%s: notebook.Live: %v", name, err)
		}
	}
}

func TestLiveFiguresRejectBadValues(t *testing.T) {
	for name, l := range liveFigures(t) {
		controls := l.Controls()
		good := defaults(controls)
		bad := [][]int{nil, append(good, 0)}
		for i, c := range controls {
			low, high := append([]int(nil), good...), append([]int(nil), good...)
			low[i], high[i] = c.Min-1, c.Max+1
			bad = append(bad, low, high)
		}
		for _, values := range bad {
			if f, err := l.Render(values); err == nil {
				t.Errorf("%s: Render(%v) gave a frame (alt text %q), want an error", name, values, f.Alt)
			}
		}
	}
}

// For both methods the error falls from the fewest to the most features; Nyström on every point
// is exact up to its cut-off; and the error shown for D random features is the one computed
// directly from D features drawn as the figure draws them, with the dense matrices.
func TestApproximationLiveError(t *testing.T) {
	l, err := NewApproximationLive(liveTestSeed)
	if err != nil {
		t.Fatal(err)
	}
	for method, m := range liveMethods {
		few, many := render(t, l, liveFeaturesMin, method), render(t, l, liveFeaturesMax, method)
		if !(many < few/3) {
			t.Errorf("%s: relative error %g at D = %d and %g at D = %d, want it to fall at least threefold",
				m.name, few, liveFeaturesMin, many, liveFeaturesMax)
		}
		if method == liveNystrom && many > 1e-4 {
			t.Errorf("Nyström on all %d points: relative error %g, want below 1e-4", livePoints, many)
		}
	}

	X, _ := liveCircles(liveTestSeed)
	k, err := kernel.NewGaussian(1 / math.Sqrt(2*circlesGamma))
	if err != nil {
		t.Fatal(err)
	}
	K, err := kernel.Gram(k, X)
	if err != nil {
		t.Fatal(err)
	}
	rff, err := lowrank.NewRFFGaussian(rand.New(rand.NewPCG(liveTestSeed, liveFeatureStream)), 2, liveFeaturesMax, k.Sigma)
	if err != nil {
		t.Fatal(err)
	}
	phi, err := rff.Transform(X)
	if err != nil {
		t.Fatal(err)
	}
	var approx mat.SymDense
	approx.SymOuterK(1, phi)
	want, err := lowrank.RelativeFrobenius(K, &approx)
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, l, liveFeaturesMax, liveRFF); math.Abs(got-want) > 1e-3*want {
		t.Errorf("%d random features: the figure shows a relative error %g, computed directly %g", liveFeaturesMax, got, want)
	}
}

// At the default bandwidth a threshold on the first kernel principal component tells the circles
// apart (at most 5% misplaced, lecture_fig_kpca's criterion), as a direct fit of kernel PCA
// confirms; at the largest bandwidth kernel PCA is nearly linear PCA and the first component does
// not separate them.
func TestKernelPCALiveSeparatesAtTheDefaultOnly(t *testing.T) {
	l, err := NewKernelPCALive(liveTestSeed)
	if err != nil {
		t.Fatal(err)
	}
	def := l.Controls()[0].Value
	shown := render(t, l, def)
	kpca, err := factor.FitKernelPCA(kernel.Gaussian{Sigma: 1 / math.Sqrt(2*circlesGamma)}, l.x, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, direct := bestThreshold(mat.Col(nil, 0, kpca.TrainingProjections()), l.class)
	if shown < kpcaSeparates || math.Abs(shown-direct) > 1e-3 {
		t.Errorf("default σ: the figure shows accuracy %g, the direct fit gives %g; want them equal and at least %g", shown, direct, kpcaSeparates)
	}
	if wide := render(t, l, l.Controls()[0].Max); wide > pcaDoesNot {
		t.Errorf("largest σ: accuracy %g, want at most %g", wide, pcaDoesNot)
	}
}

func BenchmarkApproximationLiveRender(b *testing.B) {
	benchmarkLive(b, "ApproximationLive")
}

func BenchmarkKernelPCALiveRender(b *testing.B) {
	benchmarkLive(b, "KernelPCALive")
}

// benchmarkLive times one redraw of the named live figure at its defaults.
func benchmarkLive(b *testing.B, name string) {
	l := liveFigures(b)[name]
	values := defaults(l.Controls())
	for b.Loop() {
		if _, err := l.Render(values); err != nil {
			b.Fatal(err)
		}
	}
}
