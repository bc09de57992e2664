package ch4

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

// curves returns, for each method, the mean of metric over each batch's draws at each n,
// summarised over the batches (the mean, and the min–max band of the batch means).
func curves(res *run.Results, dataset, metric string, methods ...string) ([]kit.Curve, error) {
	out := make([]kit.Curve, 0, len(methods))
	for _, m := range methods {
		v, err := drawValues(res, dataset, m, metric, everyN())
		if err != nil {
			return nil, err
		}
		type batch struct {
			rep int
			n   float64
		}
		sums, counts := map[batch]float64{}, map[batch]int{}
		var order []batch
		for _, k := range sortedDrawKeys(v) {
			b := batch{k.rep, k.n}
			if _, ok := counts[b]; !ok {
				order = append(order, b)
			}
			sums[b] += v[k]
			counts[b]++
		}
		rows := make([]run.Row, len(order))
		for i, b := range order {
			rows[i] = run.Row{ID: res.ID, Dataset: dataset, Method: m, Rep: b.rep, Params: []run.Param{run.P("n", b.n)}, Metric: metric, Value: sums[b] / float64(counts[b])}
		}
		s, err := run.Summarise(rows, "n")
		if err != nil {
			return nil, err
		}
		if len(s) == 0 {
			return nil, fmt.Errorf("%s: no %s rows for %s on %s", res.ID, metric, m, dataset)
		}
		out = append(out, kit.Curve{Method: m, Points: s})
	}
	return out, nil
}

// draws returns the number of draws of the run: the sum of the draws of its tasks.
func draws(res *run.Results, dataset string) (int, error) {
	rows := res.Where(dataset, setupMethod, metricDraws)
	if len(rows) == 0 {
		return 0, fmt.Errorf("%s: no %s rows", res.ID, metricDraws)
	}
	total := 0.0
	for _, r := range rows {
		total += r.Value
	}
	return int(total), nil
}

// labels are the legend entries of the methods; each is drawn in its method's registered style
// (styles.Of: chapter 4's exact MMD is the registry's "exact").
var labels = map[string]string{
	"linear":  "linear (√n points)",
	"block":   "block (s = log n)",
	"rff":     "RFF (s = log n)",
	"nystrom": "Nyström (s = log n, λ = 0)",
	"exact":   "exact",
}

// shortNames are the methods' names in captions.
var shortNames = map[string]string{"linear": "linear", "block": "block", "rff": "RFF", "nystrom": "Nyström", "exact": "exact"}

// chanceLabel is the legend entry of the chance level 1/2 in the error panel.
const chanceLabel = "chance (error rate 1/2)"

// chanceFrom is the highest error rate (top of a band) from which the error panel draws the
// chance level: half of it.
const chanceFrom = 0.25

// panelHeight is the height of one panel of a chapter-4 figure, laid out at page width.
const panelHeight = 5 * vg.Centimeter

// legendMethods maps the legend entries of f's methods to their registered methods (for the
// print checks of the tests); the chance line, when drawn, is chanceLabel → "chance".
func (f figure) legendMethods() map[string]string {
	out := map[string]string{}
	for _, m := range f.methods() {
		out[labels[m]] = m
	}
	return out
}

// hiddenCurves says, for the caption, which curves of a panel (bands[i] drawn for methods[i]) lie
// under others: the pairs of
// plotting.Coincident (the same mean at every n they share), and, when partial, the n where
// several methods share one value (an error rate of 0, typically), whose markers sit on top of
// each other there.
func hiddenCurves(panel string, bands []plotting.Band, methods []string, partial bool) string {
	var notes []string
	whole := map[[2]string]bool{}
	for _, pr := range plotting.Coincident(bands, 0.01) {
		a, b := methods[pr[0]], methods[pr[1]]
		whole[[2]string{a, b}] = true
		notes = append(notes, fmt.Sprintf("the %s curve lies under the %s curve (the same mean at every n they share; the %s markers show through)", shortNames[a], shortNames[b], shortNames[a]))
	}
	tail := ""
	if partial {
		shared := sharedValues(bands, methods, whole)
		notes = append(notes, shared...)
		if len(shared) > 0 {
			tail = " (where curves overlap, their markers lie on top of each other, the exact MMD's cross last)"
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return fmt.Sprintf(" In %s, %s%s.", panel, strings.Join(notes, "; "), tail)
}

// sharedValues lists, by runs of consecutive n, the groups of methods whose means are equal at
// an n ("linear, block and RFF at 0 for n = 1000 to 10000"), leaving out a group that is only a
// pair of whole (already noted as lying one under the other).
func sharedValues(bands []plotting.Band, methods []string, whole map[[2]string]bool) []string {
	var xs []float64
	for _, b := range bands {
		for _, x := range b.X {
			if !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
		}
	}
	slices.Sort(xs)
	describe := func(x float64) string {
		byValue := map[float64][]string{}
		var values []float64
		for i, b := range bands {
			for k, bx := range b.X {
				if bx != x {
					continue
				}
				v := b.Mean[k]
				if _, ok := byValue[v]; !ok {
					values = append(values, v)
				}
				byValue[v] = append(byValue[v], methods[i])
			}
		}
		slices.Sort(values)
		var groups []string
		for _, v := range values {
			ms := byValue[v]
			if len(ms) < 2 || (len(ms) == 2 && whole[[2]string{ms[0], ms[1]}]) {
				continue
			}
			names := make([]string, len(ms))
			for i, m := range ms {
				names[i] = shortNames[m]
			}
			groups = append(groups, fmt.Sprintf("%s and %s overlap at %.3g", strings.Join(names[:len(names)-1], ", "), names[len(names)-1], v))
		}
		return strings.Join(groups, ", ")
	}
	var out []string
	for i := 0; i < len(xs); {
		d := describe(xs[i])
		j := i
		for j+1 < len(xs) && describe(xs[j+1]) == d {
			j++
		}
		if d != "" {
			at := fmt.Sprintf("n = %g", xs[i])
			if j > i {
				at = fmt.Sprintf("n = %g to %g", xs[i], xs[j])
			}
			out = append(out, fmt.Sprintf("%s for %s", d, at))
		}
		i = j + 1
	}
	return out
}

// render draws the three panels: error rate, Δ and time against n, each method's mean over the
// draws with the min–max band of its batch means, in its registered style, at page width with one
// legend below; a companion study, when the figure has one, is a fourth panel (2 × 2). The
// caption, beside the figure, gives the data, sizes, draws and bands, from the results.
func (f figure) render(res *run.Results, out *run.Output) error {
	methods := f.methods()
	errs, err := curves(res, f.dataset, metricWrong, methods...)
	if err != nil {
		return err
	}
	deltaMetric, deltaAxis := metricDelta, "mean Δ on (Z, W)"
	if f.relativeDelta {
		deltaMetric, deltaAxis = metricRelDelta, "mean Δ / exact MMD² on (Z, W)"
	}
	deltas, err := curves(res, f.dataset, deltaMetric, methods[:len(methods)-1]...)
	if err != nil {
		return err
	}
	times, err := curves(res, f.dataset, metricSeconds, methods...)
	if err != nil {
		return err
	}
	a := plotting.NewPrint("three-sample error rate", "sample size n", "error rate")
	b := plotting.NewPrint("distance Δ to the exact MMD²", "sample size n", deltaAxis)
	c := plotting.NewPrint("time of one MMD² estimate", "sample size n", "median time (s)")
	var bands [3][]plotting.Band
	for i, cs := range [3][]kit.Curve{errs, deltas, times} {
		if bands[i], err = kit.MethodBands(cs, labels); err != nil {
			return err
		}
	}
	deltaLog := false
	for i, p := range []*plot.Plot{a, b, c} {
		if err := plotting.LogX(p); err != nil {
			return err
		}
		if i == 1 {
			if deltaLog, err = logYWhenPositive(b, deltas); err != nil {
				return err
			}
		}
		if i == 2 {
			if err := plotting.LogY(c); err != nil {
				return err
			}
		}
		if err := plotting.AddBands(p, bands[i]...); err != nil {
			return err
		}
	}
	// Chance, the error rate of a decision that cannot tell P_X from P_Z, is what the separation
	// claims test against; it is drawn where some band comes within a factor 2 of it (elsewhere it
	// would only squeeze the curves). The axis starts at 0 and leaves room above the highest band
	// (and the chance line), so that no band runs into the frame.
	chance := a.Y.Max >= chanceFrom
	if chance {
		if err := styles.AddHLine(a, 0.5, chanceLabel, "chance"); err != nil {
			return err
		}
	}
	a.Y.Min, a.Y.Max = 0, 1.06*a.Y.Max
	if !deltaLog {
		b.Y.Max *= 1.06
	}
	panels := []*plot.Plot{a, b, c}
	if f.extraPanel != nil {
		d, err := f.extraPanel(res)
		if err != nil {
			return err
		}
		panels = append(panels, d)
	}
	rows, cols := 1, len(panels)
	if len(panels) == 4 {
		rows, cols = 2, 2
	}
	if err := kit.SavePrintGrid(out, rows, cols, plotting.PageWidth, panelHeight, plotting.LegendBelow, panels...); err != nil {
		return err
	}
	caption, err := f.caption(res, errs, bands, [3][]string{methodsOf(errs), methodsOf(deltas), methodsOf(times)}, chance)
	if err != nil {
		return err
	}
	return kit.WriteCaption(out, res, "", caption)
}

// caption describes the figure from its results: the problem and data, the sizes, the draws and
// their batches, what the curves and bands are, the timing protocol, the set-up choices, and the
// curves that lie under others.
func (f figure) caption(res *run.Results, errs []kit.Curve, bands [3][]plotting.Band, drawn [3][]string, chance bool) (string, error) {
	draws, err := draws(res, f.dataset)
	if err != nil {
		return "", err
	}
	batches := len(res.Where(f.dataset, setupMethod, metricDraws))
	ns := make([]float64, 0, len(errs[0].Points))
	for _, s := range errs[0].Points {
		ns = append(ns, s.X)
	}
	exactMax := kit.ByMethod(errs)["exact"].Last().X
	// Timed draws per batch: the linear estimate is timed at every n.
	timed := 0
	for _, r := range res.Where(f.dataset, "linear", metricSeconds) {
		if n, err := r.ParamFloat("n"); err == nil && n == ns[0] {
			timed++
		}
	}
	timing := "the first draw of each batch is timed"
	if k := timed / max(batches, 1); k != 1 {
		timing = fmt.Sprintf("the first %d draws of each batch are timed", k)
	}
	timing += fmt.Sprintf(", each decision %d times after a warm-up call; the time of one MMD² estimate is half the median time of a decision", f.sizes.At(res.Scale).timeCalls)
	exactText := "the exact MMD² is computed at every n"
	if exactMax < ns[len(ns)-1] {
		exactText = fmt.Sprintf("the exact MMD² is computed up to n = %g, so its curves and Δ stop there", exactMax)
	}
	chanceText := fmt.Sprintf(" (every band stays below %g, far from chance, 1/2)", chanceFrom)
	if chance {
		chanceText = "; the grey dashed line is chance (1/2), the level the separation claims test against"
	}
	deltaText := "Δ, the mean over the draws of |MMD²_approx(Z, W) − MMD²_exact(Z, W)|"
	if f.relativeDelta {
		deltaText = "the relative Δ, the mean over the draws of |MMD²_approx(Z, W) − MMD²_exact(Z, W)| / MMD²_exact(Z, W) (the unnormalised kernel gives Δ itself no meaningful scale)"
	}
	methods := "linear (exact MMD² between random subsets of √n points), block (average of unbiased MMD² over blocks of s points), "
	if !f.graphs {
		methods += "RFF (s random Fourier features), "
	}
	methods += "Nyström (s uniform landmarks, λ = 0) and the exact MMD² of eq. (4.2)"
	text := fmt.Sprintf(`Three-sample problem (thesis §4.6), %s: X, W ~ P_X and Z ~ P_Z, n points each; W is attributed to P_X when MMD²(X, W) ≤ MMD²(Z, W). %s
Methods: %s, with s = log n (§4.6.1). Sample sizes n = %s; %s.
(a) Error rate: the fraction of draws that attribute W to P_Z%s. (b) %s, on the draws where the exact MMD² was computed. (c) Time of one MMD² estimate (log scale): %s; every estimator runs on all cores, one task at a time.
Each curve is the mean over %d draws at every n (%d batches of %d draws; every method decides the same draws); the band spans the minimum to the maximum of the %d batch means.`,
		f.describe, f.setup(res.Scale), methods, kit.PlainFloats(ns), exactText, chanceText, deltaText, timing,
		draws, batches, draws/max(batches, 1), batches)
	text += hiddenCurves("(a)", bands[0], drawn[0], true) + hiddenCurves("(b)", bands[1], drawn[1], false) + hiddenCurves("(c)", bands[2], drawn[2], false)
	if f.extraCaption != nil {
		extra, err := f.extraCaption(res)
		if err != nil {
			return "", err
		}
		text += "\n\n" + extra
	}
	return text, nil
}

// logYWhenPositive puts p's y axis on a log scale unless a band of cs reaches 0 (Δ is exactly 0
// when an approximation uses every point), in which case the axis stays linear; it reports
// whether the axis is logarithmic.
func logYWhenPositive(p *plot.Plot, cs []kit.Curve) (bool, error) {
	for _, c := range cs {
		for _, s := range c.Points {
			if !(s.Min > 0) {
				return false, nil
			}
		}
	}
	return true, plotting.LogY(p)
}

// methodsOf lists the methods of curves, in order.
func methodsOf(cs []kit.Curve) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Method
	}
	return out
}
