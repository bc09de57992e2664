package ch3

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/leverage"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/plotting"
)

// The live figure's sizes and slider ranges.
const (
	// livePoints is the size of the toy set, the notebook's toyPoints.
	livePoints = 400
	// The λ slider's value v sets λ = λ_thesis·10^(v/2): from four decades below the thesis's
	// ridge to one above it, in half decades, the thesis's ridge by default.
	liveRidgeMin, liveRidgeMax = -8, 2
	// The |S| slider: 5 to 60 landmarks, 20 (= √n) by default.
	liveLandmarksMin, liveLandmarksMax, liveLandmarksDefault = 5, 60, 20
	// liveShades is the number of shades the points take, one per half octave of score ÷ mean
	// score from ¼ to 4.
	liveShades = 9
)

// The live figure's size: three panels side by side, 10 in × 3.3 in, plus the legend below.
const (
	livePanelWidth  = 10 * vg.Inch / 3
	livePanelHeight = 3.3 * vg.Inch
)

// liveMethods are the live figure's panels in order: uniform sampling (no scores), DAC-RLS and
// recursive RLS, the samplers of fig3_2 that the notebook compares.
var liveMethods = []string{uniform, dac, recursive}

// LandmarksLive is chapter 3's live figure for the teaching notebook ([notebook.Live]): on a 2-D toy
// set, for a ridge λ and a number |S| of landmarks that sliders set, uniform sampling, DAC-RLS and
// recursive RLS side by side, each panel with the points shaded by that method's ridge leverage
// scores, the |S| landmarks drawn from them marked, and in its title the sum of the scores and the
// relative Frobenius error of the Nyström approximation on those landmarks. It holds what the
// sliders do not change (the toy set, the thesis's kernel and its Gram matrix), so that a redraw
// costs only the scores, three Nyström fits and the drawing.
type LandmarksLive struct {
	seed uint64
	// points is the toy set (livePoints × 2, standardised).
	points *mat.Dense
	// k is the thesis's Gaussian kernel on the points, lambda its ridge λ_thesis = 1/mean ||x_i||
	// (§3.3).
	k      kernel.Gaussian
	lambda float64
	// gram is K, the kernel matrix of the points, against which every frame measures its Nyström
	// approximations.
	gram *mat.SymDense
}

// NewLandmarksLive draws the toy set from seed, sets the thesis's kernel on it and computes the
// kernel matrix. The toy set is the notebook's toySet for the same seed (the same draws from
// stream 1 of a PCG seeded with seed): 400 points, standardised, 75% in a wide cluster, 20% in a
// tight one and 5% scattered, so that the live figure shows the points the notebook's other
// sections score.
func NewLandmarksLive(seed uint64) (*LandmarksLive, error) {
	X := liveToySet(rand.New(rand.NewPCG(seed, 1)), livePoints)
	for j := range 2 {
		col := mat.Col(nil, j, X)
		if err := standardiseInPlace(col); err != nil {
			return nil, fmt.Errorf("ch3: live toy set, column %d: %w", j, err)
		}
		X.SetCol(j, col)
	}
	k, _, lambda, err := thesisKernel(X)
	if err != nil {
		return nil, fmt.Errorf("ch3: live toy set: %w", err)
	}
	K, err := kernel.Gram(k, X)
	if err != nil {
		return nil, fmt.Errorf("ch3: live toy set: %w", err)
	}
	return &LandmarksLive{seed: seed, points: X, k: k, lambda: lambda, gram: K}, nil
}

// liveToySet draws n points in the plane as the notebook's toySet does, before standardising: 75%
// in a wide cluster at (0, 0), 20% in a tight cluster at (3, 2.5), 5% scattered uniformly over
// [−3, 6] × [−3, 5].
func liveToySet(rng *rand.Rand, n int) *mat.Dense {
	X := mat.NewDense(n, 2, nil)
	for i := range n {
		switch u := rng.Float64(); {
		case u < 0.75:
			X.Set(i, 0, rng.NormFloat64())
			X.Set(i, 1, rng.NormFloat64())
		case u < 0.95:
			X.Set(i, 0, 3+0.3*rng.NormFloat64())
			X.Set(i, 1, 2.5+0.3*rng.NormFloat64())
		default:
			X.Set(i, 0, -3+9*rng.Float64())
			X.Set(i, 1, -3+8*rng.Float64())
		}
	}
	return X
}

// Controls returns the figure's sliders: λ, as the exponent v of λ = λ_thesis·10^(v/2) shown as the
// value of λ, and |S|, the number of landmarks. Their defaults draw the thesis's set-up (λ_thesis,
// |S| = √n).
func (l *LandmarksLive) Controls() []notebook.Control {
	return []notebook.Control{
		{Label: "λ", Min: liveRidgeMin, Max: liveRidgeMax, Value: 0,
			Format: func(v int) string { return fmt.Sprintf("%.2g", l.ridge(v)) }},
		{Label: "|S|", Min: liveLandmarksMin, Max: liveLandmarksMax, Value: liveLandmarksDefault},
	}
}

// ridge is λ at the λ slider's value v.
func (l *LandmarksLive) ridge(v int) float64 { return l.lambda * math.Pow(10, float64(v)/2) }

// Render draws the figure for the values of the controls (λ's exponent, then |S|): a PNG of three
// panels and the alt text, which names the values and the three Nyström errors. Values in the
// wrong number or outside the controls' ranges are an error. The same values always draw the same
// frame (see panels).
func (l *LandmarksLive) Render(values []int) (notebook.Frame, error) {
	controls := l.Controls()
	panels, err := l.panels(controls, values)
	if err != nil {
		return notebook.Frame{}, err
	}
	f := plotting.NewFigure(1, len(panels), livePanelWidth, livePanelHeight)
	f.SetLegend(plotting.LegendBelow)
	errs := make([]string, len(panels))
	for i, p := range panels {
		pl, err := l.plot(p)
		if err != nil {
			return notebook.Frame{}, err
		}
		f.Set(0, i, pl)
		errs[i] = fmt.Sprintf("%s %.2g", label(p.method), p.nystromError)
	}
	png, err := f.LivePNG()
	if err != nil {
		return notebook.Frame{}, err
	}
	return notebook.Frame{PNG: png, Alt: notebook.AltText(controls, values) + "; Nyström error: " + strings.Join(errs, ", ")}, nil
}

// livePanel is one panel of a frame: a method's scores (nil for uniform sampling), the landmarks
// drawn from them and the relative Frobenius error ||K − K̂||_F / ||K||_F of the Nyström
// approximation on them.
type livePanel struct {
	method       string
	scores       []float64
	landmarks    []int
	nystromError float64
}

// panels computes the panels for the values of controls, after checking them. Each method draws
// from its own generator, seeded by the figure's seed, the method and λ's value (uniform sampling,
// which has no scores, by the seed and the method only, so that moving λ leaves its panel as it
// is): the scores first, then the landmarks. A draw of |S| landmarks, by lowrank.UniformLandmarks
// or leverage.Sample, is the first |S| of a longer one from the same generator, so a larger |S|
// keeps the landmarks and adds some, and the error can only fall (up to rounding).
func (l *LandmarksLive) panels(controls []notebook.Control, values []int) ([]livePanel, error) {
	if err := notebook.CheckValues(controls, values); err != nil {
		return nil, fmt.Errorf("ch3: live landmarks: %w", err)
	}
	lambda, s := l.ridge(values[0]), values[1]
	n, _ := l.points.Dims()
	panels := make([]livePanel, len(liveMethods))
	for i, m := range liveMethods {
		stream := uint64(i+1) << 32
		if m != uniform {
			stream += uint64(values[0] - liveRidgeMin)
		}
		rng := rand.New(rand.NewPCG(l.seed, stream))
		sc, err := liveScores(rng, m, l.k, l.points, lambda)
		if err != nil {
			return nil, fmt.Errorf("ch3: live landmarks: %s at λ = %g: %w", m, lambda, err)
		}
		landmarks, err := pickPoints(rng, sc, n, s)
		if err != nil {
			return nil, fmt.Errorf("ch3: live landmarks: %s, |S| = %d: %w", m, s, err)
		}
		ny, err := lowrank.FitNystrom(l.k, l.points, landmarks, 0)
		if err != nil {
			return nil, fmt.Errorf("ch3: live landmarks: %s Nyström: %w", m, err)
		}
		phi, err := ny.Transform(l.points)
		if err != nil {
			return nil, err
		}
		var approx mat.SymDense
		approx.SymOuterK(1, phi)
		e, err := lowrank.RelativeFrobenius(l.gram, &approx)
		if err != nil {
			return nil, err
		}
		panels[i] = livePanel{method: m, scores: sc, landmarks: landmarks, nystromError: e}
	}
	return panels, nil
}

// liveScores are a method's scores in the live figure: as fig3_2 computes them, but recursive RLS
// at the slider's λ (the paper's fixed-ridge algorithm) instead of its authors' adaptive ridge,
// which would ignore the slider.
func liveScores(rng *rand.Rand, method string, k kernel.Kernel, X *mat.Dense, lambda float64) ([]float64, error) {
	if method == recursive {
		s, _, err := leverage.Recursive(rng, k, X, lambda, leverage.RecursiveOptions{})
		return s, err
	}
	return scores(rng, method, k, X, lambda)
}

// plot draws one panel: the toy set shaded by the method's scores (darker for a higher score ÷
// mean score, every point alike for uniform sampling), the landmarks as black crosses, and in the
// title the method, the sum of its scores (d_eff for exact scores: the sum shows how much a method
// over-estimates) and its Nyström error.
func (l *LandmarksLive) plot(p livePanel) (*plot.Plot, error) {
	head := methodName(p.method) + " (no scores)"
	if p.scores != nil {
		head = fmt.Sprintf("%s, Σ scores %.3g", methodName(p.method), floats.Sum(p.scores))
	}
	pl := plotting.New(fmt.Sprintf("%s\nrelative Nyström error %.2g", head, p.nystromError), "x₁ (darker: higher score)", "x₂")
	if err := plotting.EqualAspect(pl); err != nil {
		return nil, err
	}
	method, err := styles.Of(p.method)
	if err != nil {
		return nil, err
	}
	n, _ := l.points.Dims()
	mean := floats.Sum(p.scores) / float64(n)
	var xs, ys [liveShades][]float64
	for i := range n {
		level := liveShades / 2 // uniform sampling: every point at the mean
		if p.scores != nil {
			half := float64(liveShades / 2)
			level += int(min(max(math.Round(2*math.Log2(p.scores[i]/mean)), -half), half))
		}
		xs[level], ys[level] = append(xs[level], l.points.At(i, 0)), append(ys[level], l.points.At(i, 1))
	}
	for level := range liveShades { // the lightest first, so that high scores are drawn on top
		if len(xs[level]) == 0 {
			continue
		}
		shade := plotting.SeriesStyle{Color: tint(method.Color, 0.2+0.8*float64(level)/(liveShades-1))}
		if err := plotting.AddStyledScatter(pl, xs[level], ys[level], "", shade); err != nil {
			return nil, err
		}
	}
	cross, err := plotting.Style(plotting.Black, plotting.Cross, plotting.Solid)
	if err != nil {
		return nil, err
	}
	lx, ly := make([]float64, len(p.landmarks)), make([]float64, len(p.landmarks))
	for j, i := range p.landmarks {
		lx[j], ly[j] = l.points.At(i, 0), l.points.At(i, 1)
	}
	if err := plotting.AddStyledScatter(pl, lx, ly, "landmarks S", cross); err != nil {
		return nil, err
	}
	return pl, nil
}

// tint mixes c with white: the fraction t of c (0 is white, 1 is c).
func tint(c color.Color, t float64) color.Color {
	r, g, b, _ := c.RGBA() // the palette's colours are opaque: not premultiplied
	mix := func(v uint32) uint8 { return uint8(math.Round(255 - t*(255-float64(v>>8)))) }
	return color.NRGBA{R: mix(r), G: mix(g), B: mix(b), A: 0xff}
}
