package ch4

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/mmd"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// Set-up of the live figure [MMDLive]: the Gaussians of the notebook's section 2, P = N(0, I₂)
// and Q = N((0.3, 0), I₂), whose MMD² the exact estimator tells apart at a few hundred points.
const (
	// liveDim is the dimension of P and Q.
	liveDim = 2
	// liveShift is the shift of Q's mean along the first axis.
	liveShift = 0.3
	// liveDraws is the number of draws under each hypothesis: enough for a histogram and a 5%
	// quantile (the 5 largest H0 statistics lie above it), few enough for the exact MMD² at
	// n = 200 to redraw in about a tenth of a second on two cores (0.6 ms of CPU per statistic).
	liveDraws = 100
	// liveBins is the number of bins of the histograms, shared by H0 and H1.
	liveBins = 20
	// liveWidth and liveHeight are the size of the figure, that of the notebooks' own plots.
	liveWidth, liveHeight = 6 * vg.Inch, 4 * vg.Inch
)

// liveSizes are the sample sizes of the n slider; the default is 200.
var liveSizes = []int{50, 100, 200, 500}

// liveEstimators are the estimators of the estimator slider, the exact MMD² first, each
// approximation with its default s = log n (§4.6.1). The default is Nyström, the chapter's own
// method (§4.5), as powerful as the exact test here at a fraction of its cost.
var liveEstimators = []mmd.Estimator{mmd.Exact{}, mmd.Linear{}, mmd.Block{}, mmd.Nystrom{}, mmd.RFF{}}

// MMDLive is a live figure of the MMD² two-sample test (for notebook.Live): for a sample size n
// and an estimator it draws the histogram of the MMD² statistic over liveDraws draws under H0
// (two samples of P) and under H1 (a sample of P against one of Q), the level-5% threshold, and
// the test's power and size in the title. It shows what the three-sample figures (4.2 to 4.5)
// summarise as error rates: how far apart the two distributions of the statistic lie, and how the
// approximations' extra noise pulls them together.
//
// The test rejects H0 when the statistic exceeds the 95% quantile of its H0 draws (the lab
// computes no analytic threshold for these estimators; a permutation test would recompute the
// statistic hundreds of times per draw): its size is then 5% by construction, and its power is
// what the figure measures. The draws are made once, by [NewMMDLive]; a redraw recomputes only
// the 2 × liveDraws statistics.
type MMDLive struct {
	seed uint64
	// draws[r] holds draw r: X, then X' (both from P), then Z (from Q), nMax rows each; a sample
	// of size n is the first n rows of its block, so the draws of a smaller n are prefixes of
	// those of a larger one. Each draw is Points of its own: the Nyström MMD spends O(Len()) per
	// call on the weights of its λ term.
	draws []*mmd.Vectors
	nMax  int
	// shift is Q's mean along the first axis, sigma2 the Gaussian kernel's σ² (the thesis's rule on
	// the pooled draws), for the figure's labels.
	shift, sigma2 float64
}

// NewMMDLive draws the samples of every draw at the largest n from seed and puts the thesis's
// Gaussian kernel on them (σ² = the mean squared distance of all the points drawn, the rule of
// §4.6.1 applied once to the pooled draws rather than per draw, so that H0 and H1 statistics are
// computed with the same kernel).
func NewMMDLive(seed uint64) (*MMDLive, error) { return newMMDLive(seed, liveShift) }

// newMMDLive is NewMMDLive with Q's mean shifted by shift (the tests compare shifts).
func newMMDLive(seed uint64, shift float64) (*MMDLive, error) {
	nMax := slices.Max(liveSizes)
	rng := rand.New(rand.NewPCG(seed, 0))
	data := mat.NewDense(liveDraws*3*nMax, liveDim, nil)
	raw := data.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.NormFloat64()
	}
	for r := range liveDraws {
		for i := range nMax {
			raw[((3*r+2)*nMax+i)*liveDim] += shift
		}
	}
	k, sigma2, err := kernel.ThesisGaussian(data)
	if err != nil {
		return nil, fmt.Errorf("ch4: NewMMDLive: %w", err)
	}
	l := &MMDLive{seed: seed, draws: make([]*mmd.Vectors, liveDraws), nMax: nMax, shift: shift, sigma2: sigma2}
	for r := range l.draws {
		if l.draws[r], err = mmd.NewVectors(k, data.Slice(3*r*nMax, 3*(r+1)*nMax, 0, liveDim)); err != nil {
			return nil, fmt.Errorf("ch4: NewMMDLive: %w", err)
		}
	}
	return l, nil
}

// Controls returns the two sliders: the sample size n (an index into liveSizes, shown as n, 200 by
// default) and the estimator (an index into liveEstimators, shown by its name, Nyström by
// default).
func (l *MMDLive) Controls() []notebook.Control {
	return []notebook.Control{
		{Label: "sample size n", Min: 0, Max: len(liveSizes) - 1, Value: slices.Index(liveSizes, 200),
			Format: func(i int) string { return strconv.Itoa(liveSizes[i]) }},
		{Label: "estimator", Min: 0, Max: len(liveEstimators) - 1, Value: slices.Index(liveEstimators, mmd.Estimator(mmd.Nystrom{})),
			Format: func(i int) string { return shortNames[liveEstimators[i].Name()] }},
	}
}

// liveTest is the outcome of the test over the draws of one (n, estimator).
type liveTest struct {
	h0, h1 []float64
	// threshold is the level-α threshold: H0 is rejected when the statistic is above it.
	threshold float64
	// rejected0 and rejected1 count the H0 and H1 draws above the threshold.
	rejected0, rejected1 int
}

// power and size are the fractions of H1 and H0 draws rejected.
func (t liveTest) power() float64 { return float64(t.rejected1) / float64(len(t.h1)) }
func (t liveTest) size() float64  { return float64(t.rejected0) / float64(len(t.h0)) }

// Render draws the figure for values (the indices of the n and estimator sliders): the two
// histograms, the threshold, and power and size in the title; the alt text names the values and
// gives power and size with their counts. Values of another length or outside the sliders'
// ranges give an error.
func (l *MMDLive) Render(values []int) (notebook.Frame, error) {
	controls := l.Controls()
	if err := notebook.CheckValues(controls, values); err != nil {
		return notebook.Frame{}, fmt.Errorf("ch4: MMDLive.Render: %w", err)
	}
	n, est := liveSizes[values[0]], liveEstimators[values[1]]
	test, err := l.test(context.Background(), n, values[1])
	if err != nil {
		return notebook.Frame{}, err
	}
	png, err := l.figure(n, est, test)
	if err != nil {
		return notebook.Frame{}, err
	}
	alt := fmt.Sprintf("%s; power %.2f (H1 rejected in %d of %d draws), size %.2f (H0 rejected in %d of %d draws), threshold %.3g",
		notebook.AltText(controls, values), test.power(), test.rejected1, len(test.h1), test.size(), test.rejected0, len(test.h0), test.threshold)
	return notebook.Frame{PNG: png, Alt: alt}, nil
}

// test computes the statistic of every draw at n with estimator liveEstimators[e], under H0 and
// under H1, on all cores (the draws in parallel; each randomised estimator draws from a generator
// of its own, seeded by the seed, n, e and the draw, so the result does not depend on the number
// of cores), and applies the level-α test.
func (l *MMDLive) test(ctx context.Context, n, e int) (liveTest, error) {
	stats := make([]float64, 2*liveDraws) // draw r: H0 at 2r, H1 at 2r + 1
	errs := make([]error, len(stats))
	workers := min(runtime.GOMAXPROCS(0), len(stats))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for j := w; j < len(stats); j += workers {
				other := (1 + j%2) * l.nMax // X' under H0, Z under H1
				rng := rand.New(rand.NewPCG(l.seed, uint64(n)<<40|uint64(e)<<32|uint64(j)))
				stats[j], errs[j] = liveEstimators[e].MMD2(ctx, rng, l.draws[j/2], kit.IndexRange(0, n), kit.IndexRange(other, other+n))
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return liveTest{}, fmt.Errorf("ch4: MMDLive: n = %d, %s: %w", n, liveEstimators[e].Name(), err)
	}
	t := liveTest{h0: make([]float64, liveDraws), h1: make([]float64, liveDraws)}
	for r := range liveDraws {
		t.h0[r], t.h1[r] = stats[2*r], stats[2*r+1]
	}
	// The threshold is the H0 statistic with αR others above it: the empirical (1 − α) quantile.
	sorted := slices.Sorted(slices.Values(t.h0))
	t.threshold = sorted[liveDraws-1-int(math.Round(verdict.Alpha*liveDraws))]
	for r := range liveDraws {
		if t.h0[r] > t.threshold {
			t.rejected0++
		}
		if t.h1[r] > t.threshold {
			t.rejected1++
		}
	}
	return t, nil
}

// figure draws the histograms of t's H0 and H1 statistics (n points per sample, estimator est) on
// shared bins, the threshold as a vertical line, and the test's outcome in the title, and returns
// the PNG.
func (l *MMDLive) figure(n int, est mmd.Estimator, t liveTest) ([]byte, error) {
	lo, hi := min(slices.Min(t.h0), slices.Min(t.h1)), max(slices.Max(t.h0), slices.Max(t.h1))
	if !(hi > lo) { // every statistic equal: one bin around the value
		lo, hi = lo-0.5*math.Max(math.Abs(lo), 1e-12), hi+0.5*math.Max(math.Abs(hi), 1e-12)
	}
	name := shortNames[est.Name()]
	p := plotting.New(fmt.Sprintf("%s MMD², n = %d, %d draws each: power %.2f, size %.2f", name, n, liveDraws, t.power(), t.size()),
		fmt.Sprintf("MMD² statistic (Gaussian kernel, σ² = %.2f)", l.sigma2), "draws per bin")
	top := 0.0
	for i, h := range []struct {
		values []float64
		label  string
		hue    plotting.Hue
	}{
		{t.h0, "H0: X, X′ ~ P = N(0, I₂)", plotting.Blue},
		{t.h1, fmt.Sprintf("H1: X ~ P, Z ~ Q = N((%g, 0), I₂)", l.shift), plotting.Vermillion},
	} {
		b, err := histogramBand(h.values, lo, hi, h.label, h.hue)
		if err != nil {
			return nil, err
		}
		// The second histogram is outlined: two translucent fills would blend where they overlap.
		b.Outline = i == 1
		if err := plotting.AddBands(p, b); err != nil {
			return nil, err
		}
		top = max(top, slices.Max(b.Hi))
	}
	label := fmt.Sprintf("threshold (95%% quantile of H0): %.3g", t.threshold)
	if err := styles.AddLine(p, []float64{t.threshold, t.threshold}, []float64{0, 1.05 * top}, label, "bound"); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = 0, 1.25*top // room for the legend above the bars
	return plotting.PlotPNG(p, liveWidth, liveHeight)
}

// histogramBand returns the histogram of values over liveBins equal bins of [lo, hi] as a band
// drawn as a step curve (no markers) filled down to 0, in hue.
func histogramBand(values []float64, lo, hi float64, label string, hue plotting.Hue) (plotting.Band, error) {
	style, err := plotting.Style(hue, plotting.NoGlyph, plotting.Solid)
	if err != nil {
		return plotting.Band{}, err
	}
	counts := make([]float64, liveBins)
	width := (hi - lo) / liveBins
	for _, v := range values {
		counts[min(liveBins-1, max(0, int((v-lo)/width)))]++
	}
	b := plotting.Band{Label: label, Style: &style, X: []float64{lo}, Mean: []float64{0}}
	for i, c := range counts {
		right := hi // the last edge is hi itself, whatever the rounding of lo + liveBins·width
		if i < liveBins-1 {
			right = lo + float64(i+1)*width
		}
		b.X, b.Mean = append(b.X, lo+float64(i)*width, right), append(b.Mean, c, c)
	}
	b.X, b.Mean = append(b.X, hi), append(b.Mean, 0)
	b.Lo, b.Hi = make([]float64, len(b.X)), b.Mean
	return b, nil
}
