package ch5

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// renderFig5_1 draws panel (a), m = m*: the mean and the max over the draws of ln‖r_k‖ with the
// Theorem 5 and matching pursuit lines; and panel (b): the mean ln‖r_k‖ at 2m*, 5m* and 20m*.
func renderFig5_1(res *run.Results, out *run.Output) error {
	d, n := "?", "?"
	if rows := res.Where(dataset, dictionary, coherence); len(rows) > 0 {
		d, _ = rows[0].Param("d")
		n, _ = rows[0].Param("n")
	}
	mStar, err := perDraw(res, dictionary, metricMStar)
	if err != nil {
		return err
	}
	// A partial run says so under each panel's title and first in the caption.
	partial, err := partialNote(res)
	if err != nil {
		return err
	}
	title := func(t string) string {
		if partial == "" {
			return t
		}
		return t + "\n" + partial
	}
	sums, err := curve(res, 1)
	if err != nil {
		return err
	}
	// Panel (a) shows the first quarter of the iterations: the curves meet the rounding floor long
	// before (the claims use every k).
	kAll := sums[len(sums)-1].X
	kMax := kAll / 4
	a := plotting.NewPrint(title("m = m*: within Theorem 5"), "iteration k", "ln ‖r‖₂ (residual)")
	fw, err := styles.Band("Frank-Wolfe, m = m*", "fw")
	if err != nil {
		return err
	}
	for _, s := range sums {
		if s.X <= kMax {
			fw.X, fw.Mean, fw.Lo, fw.Hi = append(fw.X, s.X), append(fw.Mean, s.Mean), append(fw.Lo, s.Min), append(fw.Hi, s.Max)
		}
	}
	if err := plotting.AddBands(a, fw); err != nil {
		return err
	}
	// The lines are cut where they leave the range of the curves, so that a steep bound does not
	// squash them. Theorem 5's line is the bound of the figure; the matching pursuit line, a second
	// bound, takes the neutral style of a theoretical slope.
	bottom := slices.Min(fw.Lo) - 1
	for _, b := range []struct{ metric, label, style string }{
		{metricTheta, "Theorem 5 bound", "bound"},
		{metricThetaMP, "MP bound (G. & V. 2006)", "slope"},
	} {
		_, envelope, err := lines(res, b.metric)
		if err != nil {
			return err
		}
		if err := addLine(a, envelope, fw.X, bottom, b.label, b.style); err != nil {
			return err
		}
	}
	bPlot := plotting.NewPrint(title("m > m*: beyond Theorem 5"), "iteration k", "ln ‖r‖₂ (residual)")
	var bands []plotting.Band
	for _, c := range multiples {
		cs, err := curve(res, c)
		if err != nil {
			return err
		}
		b := plotting.Band{Label: "m = " + method(c)}
		if c == 1 {
			b.Label, b.Style = fw.Label, fw.Style
		}
		for _, s := range cs {
			b.X, b.Mean, b.Lo, b.Hi = append(b.X, s.X), append(b.Mean, s.Mean), append(b.Lo, s.Min), append(b.Hi, s.Max)
		}
		bands = append(bands, b)
	}
	// The sparsities beyond m* are not methods (all are Frank-Wolfe): they take the index styles of
	// their positions (blue circle, vermillion box, green triangle), apart from Frank-Wolfe's orange
	// box at m*, drawn last.
	if err := plotting.AddBands(bPlot, bands[1:]...); err != nil {
		return err
	}
	if err := plotting.AddBands(bPlot, bands[0]); err != nil {
		return err
	}
	if err := kit.SavePrintRow(out, 5.5*vg.Centimeter, a, bPlot); err != nil {
		return err
	}
	dict, err := dictionarySummary(res)
	if err != nil {
		return err
	}
	every := 0.0
	if len(sums) > 1 {
		every = sums[1].X - sums[0].X
	}
	lead := ""
	if partial != "" {
		lead = fmt.Sprintf("**%s%s**: every number below is over these draws. ", strings.ToUpper(partial[:1]), partial[1:])
	}
	result, err := fig5_1Result(res)
	if err != nil {
		return err
	}
	return kit.WriteCaption(out, res, lead+result, fmt.Sprintf(
		"Frank-Wolfe's residual decay on sparse signals (thesis Figure 5.1, §5.4). Each of %d draws makes a %s×%s dictionary "+
			"of unit-norm Gaussian atoms (%s), m* = ⌈(μ⁻¹ − 1)/2⌉ (m* %s), and for m ∈ {m*, 2m*, 5m*, 20m*} a signal y = Dα* "+
			"with a uniform support of size m and N(0, 1) coefficients; Frank-Wolfe with the exact line search on the l1 ball "+
			"of radius β = 8‖α*‖₁, K = %g iterations (ln‖r_k‖₂ recorded every %g). Lines: mean over the draws; bands: minimum to maximum. "+
			"(a) m = m*, the first quarter of the iterations, with Theorem 5's bound ln‖y‖ + (k/2) ln(1 − θ) and the "+
			"matching pursuit bound of Gribonval & Vandergheynst (2006), θ_MP = (1 − μ₁(D, m − 1))/m, each at the largest ‖y‖ "+
			"and the smallest θ over the draws (above every draw's own line), cut below the curves. (b) All four sparsities, all iterations. "+
			"The flat floor is Frank-Wolfe's stopping rule ‖r_k‖ ≤ 10⁻¹³‖y‖ (about ln‖y‖ − 29.9, so it rises with ‖y‖), "+
			"not the 2⁻⁵²‖y‖ at which an exactly zero residual would be recorded. K and β are our choices (the thesis does not give them).",
		len(mStar), d, n, dict, rangeOf(values(mStar)), kAll, every))
}

// fig5_1Result is the caption's lead, from the same quantities as the claims: how close the draws at
// m* come to their own Theorem 5 line, and the mean decay slope of ln‖r_k‖ per iteration at each
// sparsity, with the slope per atom of the support at 5m* and 20m*.
func fig5_1Result(res *run.Results) (string, error) {
	gaps, err := worstGaps(res)
	if err != nil {
		return "", err
	}
	g := values(gaps)
	text := fmt.Sprintf("At m = m*, every draw's ln‖r_k‖ stays at least %.2f below its own Theorem 5 line (the closest of %d draws). ", -slices.Max(g), len(g))
	if worst := slices.Max(g); worst >= 0 {
		text = fmt.Sprintf("At m = m*, some draw's ln‖r_k‖ reaches %.2f above its own Theorem 5 line (the farthest of %d draws). ", worst, len(g))
	}
	var parts []string
	slopes := map[int]float64{}
	for _, c := range multiples {
		s, _, _, err := tailSlope(res, c)
		if err != nil {
			return "", err
		}
		slopes[c] = s
		parts = append(parts, fmt.Sprintf("%.3g at %s", s, method(c)))
	}
	text += fmt.Sprintf("Mean decay slope of ln‖r_k‖ per iteration: %s; per atom of the support (slope × m/m*), %.3g at 5m* and %.3g at 20m*.",
		strings.Join(parts, ", "), 5*slopes[5], 20*slopes[20])
	return text, nil
}

// addLine draws a bound line dashed over the iterations ks, up to where it falls below bottom
// (through every k, so that the legend avoids it as it avoids the curves).
func addLine(p *plot.Plot, l line, ks []float64, bottom float64, label, style string) error {
	var xs, ys []float64
	for _, k := range ks {
		if y := l.at(k); y >= bottom {
			xs, ys = append(xs, k), append(ys, y)
		}
	}
	return styles.AddLine(p, xs, ys, label, style)
}
