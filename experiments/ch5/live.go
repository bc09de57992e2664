package ch5

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/pursuit"
	"github.com/fastkernels/kernellab/lab/run"
)

// liveMaxMultiple is the largest sparsity of the live figure's slider, as a multiple of m*: 3m*
// is past the theorem without reaching fig5_1's 5m*, where a draw needs many more iterations.
const liveMaxMultiple = 3

// liveIterationsPerAtom sets the live figure's K, the iterations of Frank-Wolfe: this many per
// atom of the densest signal of the slider (K = 20·3m*), about half again what it takes there to
// meet the stopping rule ‖r_k‖ ≤ 10⁻¹³‖y‖, so that every curve of the slider ends on its floor
// within one fixed axis.
const liveIterationsPerAtom = 20

// liveWidth and liveHeight are the size of the live figure, that of the notebook's own plots.
const liveWidth, liveHeight = 6 * vg.Inch, 4 * vg.Inch

// FrankWolfeLive is a live figure of Frank-Wolfe on sparse signals (for notebook.Live): for a
// sparsity m it draws an m-sparse signal on one dictionary, runs Frank-Wolfe as fig5_1 does and
// plots ‖r_k‖ against k on a log axis beside Theorem 5's bound ‖y‖(1 − θ)^(k/2). The slider runs
// from 1 to 3m*: up to m* the theorem's condition m < (μ⁻¹ + 1)/2 holds and the line is a
// guarantee; beyond it the title says so and the line, where Theorem 5's formula still gives a
// rate, is drawn as the formula it is, not as a bound. It lets a reader see fig5_1's two panels
// on one signal at a time: how loose the bound is, and how the decay slows as m grows.
//
// The dictionary has fig5_1's quick-scale sizes, n = 2000 unit-norm Gaussian atoms of dimension
// d = 1000 (m* = 3 for most seeds), and Frank-Wolfe runs K = 60m* iterations
// (liveIterationsPerAtom). [NewFrankWolfeLive] draws the dictionary once, with its Gram matrix,
// coherence and m*; a redraw draws one signal and runs one Frank-Wolfe solve, whose searches read
// the Gram matrix.
type FrankWolfeLive struct {
	seed  uint64
	sz    sizes
	dict  pursuit.Dictionary
	inc   *pursuit.Incoherence
	mStar int
}

// NewFrankWolfeLive draws the dictionary from seed, computes its Gram matrix, coherence μ, Babel
// function and m* = pursuit.RecoverySparsity(μ): all that the sparsity does not change.
func NewFrankWolfeLive(seed uint64) (*FrankWolfeLive, error) {
	sz := scales.At(run.Quick)
	atoms, err := pursuit.NewGaussianDictionary(rand.New(rand.NewPCG(seed, 0)), sz.d, sz.n)
	if err != nil {
		return nil, fmt.Errorf("ch5: NewFrankWolfeLive: %w", err)
	}
	dict, err := withGram(atoms)
	if err != nil {
		return nil, fmt.Errorf("ch5: NewFrankWolfeLive: %w", err)
	}
	inc, err := pursuit.MeasureIncoherence(dict, maxBabel)
	if err != nil {
		return nil, fmt.Errorf("ch5: NewFrankWolfeLive: %w", err)
	}
	mStar, err := pursuit.RecoverySparsity(inc.Coherence)
	if err != nil {
		return nil, fmt.Errorf("ch5: NewFrankWolfeLive: %w", err)
	}
	sz.iterations = liveIterationsPerAtom * liveMaxMultiple * mStar
	return &FrankWolfeLive{seed: seed, sz: sz, dict: dict, inc: inc, mStar: mStar}, nil
}

// Controls returns the sparsity slider, m = 1 to 3m*, at m* by default, shown with m*.
func (l *FrankWolfeLive) Controls() []notebook.Control {
	return []notebook.Control{{Label: "sparsity m", Min: 1, Max: liveMaxMultiple * l.mStar, Value: l.mStar,
		Format: func(m int) string { return fmt.Sprintf("%d (m* = %d)", m, l.mStar) }}}
}

// liveCurve is what the figure draws for one sparsity.
type liveCurve struct {
	m int
	// norms[k] is ‖r_k‖ for k = 0..K (‖y‖ at k = 0; after Frank-Wolfe stops, its last value).
	norms []float64
	// bound[k] is ‖y‖(1 − θ)^(k/2) with Theorem 5's θ; nil where μ₁(D, m − 1) ≥ 1 (no rate).
	bound []float64
	theta float64
	// guaranteed is m ≤ m*: Theorem 5's condition holds and bound is a bound.
	guaranteed bool
}

// solve draws the m-sparse signal of the sparsity m (from the seed and m, so that a sparsity
// always shows the same signal) and runs Frank-Wolfe on it as fig5_1 does (signal: line search,
// β = 8‖α*‖₁, K iterations, stopped at ‖r_k‖ ≤ 10⁻¹³‖y‖), with Theorem 5's line at its ‖y‖ and θ.
func (l *FrankWolfeLive) solve(m int) (liveCurve, error) {
	r, err := signal(rand.New(rand.NewPCG(l.seed, uint64(m))), l.dict, l.sz, m)
	if err != nil {
		return liveCurve{}, fmt.Errorf("ch5: FrankWolfeLive: m = %d: %w", m, err)
	}
	c := liveCurve{m: m, norms: make([]float64, len(r.logNorms)), guaranteed: m <= l.mStar}
	for k, v := range r.logNorms {
		c.norms[k] = math.Exp(v)
	}
	babel, _ := l.inc.Babel(m - 1)
	if babel >= 1 {
		return c, nil
	}
	if c.theta, err = pursuit.FrankWolfeRate(babel, m, r.l1Norm, radiusFactor*r.l1Norm); err != nil {
		return liveCurve{}, fmt.Errorf("ch5: FrankWolfeLive: m = %d: %w", m, err)
	}
	c.bound = make([]float64, len(c.norms))
	for k := range c.bound {
		if c.bound[k], err = pursuit.ResidualBound(c.norms[0], c.theta, k); err != nil {
			return liveCurve{}, fmt.Errorf("ch5: FrankWolfeLive: m = %d: %w", m, err)
		}
	}
	return c, nil
}

// Render draws the figure for values = [m]: the residual curve, Theorem 5's line, and in the
// title whether the theorem applies; the alt text names m and m* and gives the final relative
// residual and the bound there. A value list of another length, or m outside [1, 3m*], gives an
// error.
func (l *FrankWolfeLive) Render(values []int) (notebook.Frame, error) {
	controls := l.Controls()
	if len(values) != 1 {
		return notebook.Frame{}, fmt.Errorf("ch5: FrankWolfeLive.Render: %d values, want 1 (the sparsity m)", len(values))
	}
	if c := controls[0]; values[0] < c.Min || values[0] > c.Max {
		return notebook.Frame{}, fmt.Errorf("ch5: FrankWolfeLive.Render: m = %d outside [%d, %d]", values[0], c.Min, c.Max)
	}
	c, err := l.solve(values[0])
	if err != nil {
		return notebook.Frame{}, err
	}
	png, err := l.plot(c)
	if err != nil {
		return notebook.Frame{}, err
	}
	last := len(c.norms) - 1
	alt := fmt.Sprintf("%s; ‖r_K‖/‖y‖ = %.2g after K = %d iterations", notebook.AltText(controls, values), c.norms[last]/c.norms[0], last)
	switch {
	case c.bound == nil:
		alt += "; Theorem 5 gives no rate (μ₁(D, m − 1) ≥ 1)"
	case c.guaranteed:
		alt += fmt.Sprintf("; Theorem 5 bounds it by %.2g (θ = %.2g)", c.bound[last]/c.norms[0], c.theta)
	default:
		alt += fmt.Sprintf("; Theorem 5's formula, not guaranteed beyond m*, gives %.2g (θ = %.2g)", c.bound[last]/c.norms[0], c.theta)
	}
	return notebook.Frame{PNG: png, Alt: alt}, nil
}

// plot draws c's residual curve and Theorem 5's line on a log axis and returns the PNG.
func (l *FrankWolfeLive) plot(c liveCurve) ([]byte, error) {
	title := fmt.Sprintf("m = %d ≤ m* = %d: Theorem 5 bounds the residual (θ = %.2g)", c.m, l.mStar, c.theta)
	if !c.guaranteed {
		title = fmt.Sprintf("m = %d > m* = %d: outside Theorem 5, no guarantee", c.m, l.mStar)
	}
	title += fmt.Sprintf("\n%d×%d Gaussian dictionary, μ = %.3f; Frank-Wolfe, line search, β = %d‖α*‖₁", l.sz.d, l.sz.n, l.inc.Coherence, radiusFactor)
	p := plotting.New(title, "iteration k", "residual norm ‖r‖₂")
	if err := plotting.LogY(p); err != nil {
		return nil, err
	}
	ks := make([]float64, len(c.norms))
	for k := range ks {
		ks[k] = float64(k)
	}
	if err := styles.AddLine(p, ks, c.norms, "Frank-Wolfe, stopped at ‖r‖ ≤ 1e-13·‖y‖", "fw"); err != nil {
		return nil, err
	}
	if c.bound != nil {
		label, style := "Theorem 5 bound ‖y‖(1 − θ)^(k/2)", "bound"
		if !c.guaranteed {
			label, style = "Theorem 5's formula (not a bound: m > m*)", "slope"
		}
		if err := styles.AddLine(p, ks, c.bound, label, style); err != nil {
			return nil, err
		}
	}
	return plotting.PlotPNG(p, liveWidth, liveHeight)
}
