package ch6

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/learn"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// fig6_5 trend curves: kernel ridge regression with a Gaussian kernel on one data set's normalised points,
// its bandwidth and ridge fixed before any run (the thesis fits an RBF SVM instead).
const (
	fig6_5Sigma  = 0.2
	fig6_5Lambda = 1.0
	// fig6_5From is the smallest pruned size (fraction of the forest) of panel (a), as in the thesis.
	fig6_5From = 0.1
)

// fig6_5Exceptions are the data sets where the thesis says performance does not fall as the share
// of negative weights grows.
var fig6_5Exceptions = []string{"kin8nm", "diamonds", "steel_plates"}

// fig6_5 — negative OMP weights (thesis Figure 6.5): one panel per data set of normalised test
// performance against the normalised share of negative weights, pruned forests of at least 10% of
// the initial size, each with its own kernel-ridge trend as the thesis draws one curve per data set
// (its claim has per-data-set exceptions, which one pooled trend would hide); a last panel of the
// share of negative weights against the pruned size. Data sets whose OMP weights are never negative
// are left out (the thesis leaves out Gamma), and those whose performance is near-constant
// (nearConstant) appear in the last panel only. Drawn from fig6_6's runs.
func fig6_5() *run.Experiment {
	return &run.Experiment{
		ID: "fig6_5", Title: "Negative OMP weights: performance vs share of negative weights, and share vs size (thesis Figure 6.5)",
		Source: "thesis Figure 6.5 (§6.3.3)",
		Kind:   run.Figure, Uses: fig6_6(),
		Render: renderFig6_5,
		Claims: []run.Claim{
			{
				ID:    "negative-share-grows",
				Kind:  run.Finding,
				Text:  "the share of negative weights grows with the size of the pruned forest",
				Rule:  "per data set with negative weights, one value per repetition: the least-squares slope of OMP's share of negative weights against the pruned size (fraction of the forest); one-sided t over the repetitions, above 0; family over the data sets, Holm at 0.05",
				Check: checkFig6_5Grows,
			},
			{
				ID:    "performance-falls",
				Kind:  run.Finding,
				Text:  "performance falls as the share of negative weights grows, except on Kin8nm, Diamonds and Steel Plates",
				Rule:  "per data set with negative weights but those three, one value per repetition: the least-squares slope of OMP's test score (oriented: accuracy, or minus the MSE) against its share of negative weights over the pruned sizes of at least 10% of the forest; one-sided t over the repetitions, below 0; family over the data sets, Holm at 0.05; a repetition whose share does not vary gives no slope",
				Check: checkFig6_5Falls,
			},
		},
	}
}

// fig6_5Sets are the thesis's data sets whose OMP weights are negative somewhere, and those left
// out.
func fig6_5Sets(res *run.Results) (in, out []string) {
	for _, k := range thesisKeys() {
		neg := false
		for _, r := range res.Where(k, omp, metricNegative) {
			neg = neg || r.Value > 0
		}
		if neg {
			in = append(in, k)
		} else {
			out = append(out, k)
		}
	}
	return in, out
}

// fig6_5Point is one pruned forest of OMP: its size, share of negative weights and oriented test score.
type fig6_5Point struct {
	rep             int
	fraction, share float64
	score           float64
}

// fig6_5Points are OMP's pruned forests on a data set, in (repetition, size) order.
func fig6_5Points(res *run.Results, key string) ([]fig6_5Point, error) {
	cls := classification(res, key)
	scores := map[string]float64{}
	id := func(r run.Row) string { v, _ := r.Param(fractionParam); return fmt.Sprintf("%d|%s", r.Rep, v) }
	for _, r := range res.Where(key, omp, metric(partTest, cls)) {
		scores[id(r)] = better(cls, r.Value)
	}
	var out []fig6_5Point
	for _, r := range res.Where(key, omp, metricNegative) {
		f, err := r.ParamFloat(fractionParam)
		if err != nil {
			return nil, err
		}
		s, ok := scores[id(r)]
		if !ok {
			return nil, fmt.Errorf("%s: %s OMP repetition %d size %g: no test score", res.ID, key, r.Rep, f)
		}
		out = append(out, fig6_5Point{rep: r.Rep, fraction: f, share: r.Value, score: s})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no OMP weights on %s", res.ID, key)
	}
	slices.SortFunc(out, func(a, b fig6_5Point) int {
		if a.rep != b.rep {
			return a.rep - b.rep
		}
		return cmp.Compare(a.fraction, b.fraction)
	})
	return out, nil
}

// fig6_5Slopes fits, per repetition, the least-squares slope of y(p) against x(p) over the points
// keep accepts; a repetition whose x does not vary gives no slope.
func fig6_5Slopes(points []fig6_5Point, keep func(fig6_5Point) bool, x, y func(fig6_5Point) float64) []float64 {
	byRep := map[int][2][]float64{}
	for _, p := range points {
		if keep(p) {
			v := byRep[p.rep]
			byRep[p.rep] = [2][]float64{append(v[0], x(p)), append(v[1], y(p))}
		}
	}
	var out []float64
	for _, rep := range slices.Sorted(maps.Keys(byRep)) {
		xs, ys := byRep[rep][0], byRep[rep][1]
		if len(xs) < 2 || floats.Max(xs) == floats.Min(xs) {
			continue
		}
		_, beta := stat.LinearRegression(xs, ys, nil, false)
		out = append(out, beta)
	}
	return out
}

func checkFig6_5Grows(res *run.Results) (verdict.Verdict, error) {
	in, out := fig6_5Sets(res)
	var tests []verdict.Test
	for _, k := range in {
		pts, err := fig6_5Points(res, k)
		if err != nil {
			return verdict.Verdict{}, err
		}
		s := fig6_5Slopes(pts, func(fig6_5Point) bool { return true },
			func(p fig6_5Point) float64 { return p.fraction }, func(p fig6_5Point) float64 { return p.share })
		tests = append(tests, verdict.MeanAbove(name(k)+": slope of the negative share vs size", s, 0))
	}
	return verdict.Decide(tests, fig6_5LeftOut(out)), nil
}

func checkFig6_5Falls(res *run.Results) (verdict.Verdict, error) {
	in, out := fig6_5Sets(res)
	var tests []verdict.Test
	for _, k := range in {
		if slices.Contains(fig6_5Exceptions, k) {
			continue
		}
		pts, err := fig6_5Points(res, k)
		if err != nil {
			return verdict.Verdict{}, err
		}
		s := fig6_5Slopes(pts, func(p fig6_5Point) bool { return p.fraction >= fig6_5From },
			func(p fig6_5Point) float64 { return p.share }, func(p fig6_5Point) float64 { return p.score })
		tests = append(tests, verdict.MeanBelow(name(k)+": slope of the test score (better up) vs the negative share", s, 0))
	}
	return verdict.Decide(tests, fig6_5LeftOut(out)), nil
}

// fig6_5LeftOut says which data sets have no negative weight.
func fig6_5LeftOut(keys []string) string {
	if len(keys) == 0 {
		return "every data set has negative weights"
	}
	return "left out, no negative weight in any run: " + strings.Join(names(keys), ", ")
}

func renderFig6_5(res *run.Results, out *run.Output) error {
	in, left := fig6_5Sets(res)
	if len(in) == 0 {
		return fmt.Errorf("%s: no data set has negative OMP weights", res.ID)
	}
	b := plotting.NewPrint("negative weights vs size", sizeLabel, "share of negative weights")
	if err := plotting.LogX(b); err != nil {
		return err
	}
	var panels []*plot.Plot
	var drawn, flat []string
	var shares []plotting.Band
	for i, k := range in {
		pts, err := fig6_5Points(res, k)
		if err != nil {
			return err
		}
		share, err := fig6_5Share(res, k)
		if err != nil {
			return err
		}
		shares = append(shares, share)
		var xs, ys []float64
		for _, p := range pts {
			if p.fraction >= fig6_5From {
				xs, ys = append(xs, p.share), append(ys, p.score)
			}
		}
		cls := classification(res, k)
		if nearConstant(cls, ys) {
			lo, hi := floats.Min(ys), floats.Max(ys)
			if !cls {
				lo, hi = -hi, -lo
			}
			flat = append(flat, fmt.Sprintf("%s (test %s %.4g–%.4g)", name(k), measureName(cls), lo, hi))
			continue
		}
		title := name(k)
		if slices.Contains(fig6_5Exceptions, k) {
			title += " (exception)"
		}
		a := plotting.NewPrint(title, "negative share (normalised)", "performance (normalised)")
		xs, ys = minMaxScaled(xs), minMaxScaled(ys)
		// Position i: the data set's colour and marker, the same in the share panel.
		if err := plotting.AddScatter(a, xs, ys, name(k), i); err != nil {
			return err
		}
		if err := fig6_5Trend(a, xs, ys); err != nil {
			return err
		}
		panels, drawn = append(panels, a), append(drawn, k)
	}
	if len(drawn) == 0 {
		return fmt.Errorf("%s: OMP's test performance is near-constant on every data set with negative weights", res.ID)
	}
	if err := plotting.AddBands(b, shares...); err != nil {
		return err
	}
	panels = append(panels, b)
	const cols = 4
	if err := kit.SavePrintGrid(out, (len(panels)+cols-1)/cols, cols, plotting.PageWidth, 4.4*vg.Centimeter, plotting.LegendBelow, panels...); err != nil {
		return err
	}
	result, err := fig6_5Result(res, drawn, in)
	if err != nil {
		return err
	}
	setup, err := chapterSetUp(res, in)
	if err != nil {
		return err
	}
	last := 'a' + rune(len(drawn)-1)
	what := fmt.Sprintf("(a)–(%c) One panel per data set: OMP's pruned forests of ≥ %g%% of the initial trees, one point per repetition and size, "+
		"test performance (accuracy, or minus the MSE: up is better) against the share of negative weights, both min–max normalised per data set "+
		"as in the thesis; trend: kernel ridge regression (Gaussian kernel, σ = %g, λ = %g, fixed before any run; the thesis fits an RBF SVM). "+
		"Titles mark the thesis's exceptions. (%c) Mean share of negative weights against the pruned size, one line per data set. ",
		last, 100*fig6_5From, fig6_5Sigma, fig6_5Lambda, last+1)
	if len(flat) > 0 {
		what += fmt.Sprintf("Drawn in (%c) only, as normalising noise would spread it over [0, 1]: data sets whose test performance varies by less than %g accuracy point, or whose largest MSE is below %g times its smallest (the claims' margins), here %s. ",
			last+1, 100*accuracyMargin, mseFactor, listed(flat))
	}
	if len(left) > 0 {
		what += "Left out, no negative weight in any run (as the thesis leaves out Gamma): " + listed(names(left)) + ". "
	}
	return kit.WriteCaption(out, res, result, what+setup)
}

// fig6_5Share is OMP's mean share of negative weights on a data set against the pruned size (%),
// at the distinct sizes, as a line without band (eleven bands would hide one another), styled by
// the caller's position.
func fig6_5Share(res *run.Results, key string) (plotting.Band, error) {
	drawn, _, err := distinctFractions(res, key)
	if err != nil {
		return plotting.Band{}, err
	}
	c, err := kit.Curves(res, key, metricNegative, fractionParam, omp)
	if err != nil {
		return plotting.Band{}, err
	}
	b := plotting.Band{Label: name(key)}
	for _, s := range c[0].Points {
		if slices.Contains(drawn, s.X) {
			b.X, b.Mean = append(b.X, 100*s.X), append(b.Mean, s.Mean)
		}
	}
	return b, nil
}

// nearConstant reports whether oriented test scores (accuracies, or minus MSEs) vary by less than
// the claims' margins: one accuracy point, or a largest MSE below mseFactor times the smallest.
func nearConstant(classification bool, scores []float64) bool {
	lo, hi := floats.Min(scores), floats.Max(scores)
	if classification {
		return hi-lo < accuracyMargin
	}
	return -hi > 0 && -lo < mseFactor*-hi
}

// names are the figure names of data set keys.
func names(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = name(k)
	}
	return out
}

// fig6_5Result is fig6_5's result sentence: on the data sets drawn, where OMP's test performance
// falls with its share of negative weights (the mean per-repetition slope of the claim below 0),
// set against the thesis's exceptions, and the range of the share at the largest pruned size over
// the data sets with negative weights (in).
func fig6_5Result(res *run.Results, drawn, in []string) (string, error) {
	var falls, rises, excFalls, excRises []string
	for _, k := range drawn {
		pts, err := fig6_5Points(res, k)
		if err != nil {
			return "", err
		}
		s := fig6_5Slopes(pts, func(p fig6_5Point) bool { return p.fraction >= fig6_5From },
			func(p fig6_5Point) float64 { return p.share }, func(p fig6_5Point) float64 { return p.score })
		down := len(s) > 0 && floats.Sum(s) < 0
		switch exc := slices.Contains(fig6_5Exceptions, k); {
		case exc && down:
			excFalls = append(excFalls, name(k))
		case exc:
			excRises = append(excRises, name(k))
		case down:
			falls = append(falls, name(k))
		default:
			rises = append(rises, name(k))
		}
	}
	out := fmt.Sprintf("OMP's test performance falls as its share of negative weights grows (mean per-repetition slope below 0) on %d of the %d data sets drawn where the thesis says it falls",
		len(falls), len(falls)+len(rises))
	if len(rises) > 0 {
		out += " (not on " + listed(rises) + ")"
	}
	out += fmt.Sprintf(", and on %d of its %d exceptions drawn", len(excFalls), len(excFalls)+len(excRises))
	if len(excFalls) > 0 {
		out += " (" + listed(excFalls) + ")"
	}
	top := fractions[len(fractions)-1]
	lo, hi, loK, hiK := math.Inf(1), math.Inf(-1), "", ""
	for _, k := range in {
		c, err := kit.Curves(res, k, metricNegative, fractionParam, omp)
		if err != nil {
			return "", err
		}
		s, ok := c[0].At(top)
		if !ok {
			return "", fmt.Errorf("%s: no share of negative weights at %g on %s", res.ID, top, k)
		}
		if s.Mean < lo {
			lo, loK = s.Mean, name(k)
		}
		if s.Mean > hi {
			hi, hiK = s.Mean, name(k)
		}
	}
	return out + fmt.Sprintf(". At %g%% of the forest, %.0f%% (%s) to %.0f%% (%s) of OMP's weights are negative on average.", 100*top, 100*lo, loK, 100*hi, hiK), nil
}

// minMaxScaled maps v onto [0, 1] (all 0.5 when v is constant).
func minMaxScaled(v []float64) []float64 {
	out := make([]float64, len(v))
	lo, hi := floats.Min(v), floats.Max(v)
	for i, x := range v {
		out[i] = 0.5
		if hi > lo {
			out[i] = (x - lo) / (hi - lo)
		}
	}
	return out
}

// fig6_5Trend draws the kernel ridge smoother of one data set's normalised points (x, y) on [0, 1].
func fig6_5Trend(p *plot.Plot, x, y []float64) error {
	k, err := kernel.NewGaussian(fig6_5Sigma)
	if err != nil {
		return err
	}
	mean := floats.Sum(y) / float64(len(y))
	centred := make([]float64, len(y))
	for i, v := range y {
		centred[i] = v - mean
	}
	m, err := learn.FitKRR(k, mat.NewDense(len(x), 1, slices.Clone(x)), centred, fig6_5Lambda)
	if err != nil {
		return err
	}
	grid := make([]float64, 101)
	for i := range grid {
		grid[i] = float64(i) / 100
	}
	pred, err := m.Predict(mat.NewDense(len(grid), 1, slices.Clone(grid)))
	if err != nil {
		return err
	}
	for i := range pred {
		pred[i] += mean
	}
	return styles.AddLine(p, grid, pred, "trend (kernel ridge, per data set)", "slope")
}
