package ch4

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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

// hiddenCurves says, for the caption, which curves of a panel (bands[i] drawn for methods[i])
// would lie one under the other: the pairs of plotting.Coincident (the same mean at every n they
// share). In a dodged panel (spreadSideways) the points of one n stand side by side, so the note
// says that the values are equal; elsewhere it says which curve lies under which.
func hiddenCurves(panel string, bands []plotting.Band, methods []string, dodged bool) string {
	var notes []string
	for _, pr := range plotting.Coincident(bands, 0.01) {
		a, b := shortNames[methods[pr[0]]], shortNames[methods[pr[1]]]
		if dodged {
			notes = append(notes, fmt.Sprintf("the %s and %s values are equal at every n", a, b))
		} else {
			notes = append(notes, fmt.Sprintf("the %s curve lies under the %s curve (the same mean at every n they share; the %s markers show through)", a, b, a))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return fmt.Sprintf(" In %s, %s.", panel, strings.Join(notes, "; "))
}

// dodgeStep is the sideways step of panel (a) between neighbouring methods, in decades of n (about
// 2.5 pt at the figures' page width): equal error rates (Nyström's and the exact MMD's at every n
// on MUTAG, every method's 0 at large n) then stand side by side instead of one under the other.
const dodgeStep = 0.035

// spreadSideways returns copies of bands with their x values moved sideways on the log axis, band
// i by (i − (len(bands) − 1)/2) steps of dodgeStep, in legend order; at the smallest and largest n
// every shift goes inwards (by i steps, or by len(bands) − 1 − i), so that the axis keeps the range
// of the data. It also returns the largest shift as a factor of n, for the caption.
func spreadSideways(bands []plotting.Band) ([]plotting.Band, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range bands {
		for _, x := range b.X {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	last := len(bands) - 1
	out := make([]plotting.Band, len(bands))
	for i, b := range bands {
		out[i] = b
		out[i].X = make([]float64, len(b.X))
		for k, x := range b.X {
			off := float64(i) - float64(last)/2
			switch x {
			case lo:
				off = float64(i)
			case hi:
				off = float64(i - last)
			}
			out[i].X[k] = x * math.Pow(10, off*dodgeStep)
		}
	}
	return out, math.Pow(10, float64(last)*dodgeStep)
}

// errorRateBands returns, for each method, its error rate at each n over all the draws, with the
// 95% Wilson score interval of that rate (verdict.Wilson) as the band, in the method's registered
// style.
func errorRateBands(res *run.Results, dataset string, methods []string) ([]plotting.Band, error) {
	out := make([]plotting.Band, len(methods))
	for i, m := range methods {
		v, err := drawValues(res, dataset, m, metricWrong, everyN())
		if err != nil {
			return nil, err
		}
		if len(v) == 0 {
			return nil, fmt.Errorf("%s: no %s rows for %s on %s", res.ID, metricWrong, m, dataset)
		}
		wrong, total := map[float64]int{}, map[float64]int{}
		for k, w := range v {
			if w != 0 && w != 1 {
				return nil, fmt.Errorf("%s: %s of %s on %s is %g, want 0 or 1", res.ID, metricWrong, m, dataset, w)
			}
			wrong[k.n] += int(w)
			total[k.n]++
		}
		b, err := styles.Band(labels[m], m)
		if err != nil {
			return nil, err
		}
		for _, n := range slices.Sorted(maps.Keys(total)) {
			lo, hi := verdict.Wilson(wrong[n], total[n], 0.95)
			b.X, b.Mean, b.Lo, b.Hi = append(b.X, n), append(b.Mean, float64(wrong[n])/float64(total[n])), append(b.Lo, lo), append(b.Hi, hi)
		}
		out[i] = b
	}
	return out, nil
}

// comparedBandsOnly returns copies of the error-rate bands, in methods' order, in which only the
// two compared methods keep their confidence band and the others are their points and line:
// intervals of five rates near one value would stack into one opaque mass.
func (f figure) comparedBandsOnly(bands []plotting.Band, methods []string) []plotting.Band {
	out := slices.Clone(bands)
	for i := range out {
		if !slices.Contains(f.compared[:], methods[i]) {
			out[i].Lo, out[i].Hi = nil, nil
		}
	}
	return out
}

// render draws the three panels: (a) the error rate over all draws with its 95% confidence band,
// the methods' points spread sideways so that equal rates stay visible; (b) Δ and (c) the time,
// each method's mean over the batches with the min–max band of its batch means; all in the methods'
// registered styles, at page width with one legend below. A companion study, when the figure has
// one, is a fourth panel (2 × 2). The caption, beside the figure, leads with the values the claims
// turn on and gives the data, sizes, draws and bands, all from the results.
func (f figure) render(res *run.Results, out *run.Output) error {
	methods := f.methods()
	errs, err := errorRateBands(res, f.dataset, methods)
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
	bands[0] = errs
	for i, cs := range [][]kit.Curve{deltas, times} {
		if bands[i+1], err = kit.MethodBands(cs, labels); err != nil {
			return err
		}
	}
	dodged, spread := spreadSideways(errs)
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
		drawn := bands[i]
		if i == 0 {
			drawn = f.comparedBandsOnly(dodged, methods)
		}
		if err := plotting.AddBands(p, drawn...); err != nil {
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
	result, err := f.result(errs, deltas, times, chance)
	if err != nil {
		return err
	}
	setup, err := f.caption(res, bands, [3][]string{methods, methodsOf(deltas), methodsOf(times)}, chance, spread)
	if err != nil {
		return err
	}
	return kit.WriteCaption(out, res, result, setup)
}

// result is the caption's lead: the error rates over the n where the exact MMD ran, pooled, and
// at the smallest n, in increasing order (with their range over the whole panel where the chance
// line is drawn); then the Δ and the times of the methods at the largest n of each panel, in
// increasing order.
func (f figure) result(errs []plotting.Band, deltas, times []kit.Curve, chance bool) (string, error) {
	exactNs := errs[len(errs)-1].X
	n0 := exactNs[0]
	var pooled, first []ranked
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, b := range errs {
		sum, count := 0.0, 0
		for k, x := range b.X {
			lo, hi = min(lo, b.Mean[k]), max(hi, b.Mean[k])
			if slices.Contains(exactNs, x) {
				sum, count = sum+b.Mean[k], count+1
			}
			if x == n0 {
				first = append(first, ranked{f.methods()[i], b.Mean[k]})
			}
		}
		pooled = append(pooled, ranked{f.methods()[i], sum / float64(max(count, 1))})
	}
	text := fmt.Sprintf("On %s, error rates over n = %g to %g, where the exact MMD ran: %s; at n = %g: %s",
		f.describe, n0, exactNs[len(exactNs)-1], rankedList(pooled, "%.3f"), n0, rankedList(first, "%.3f"))
	if chance {
		text += fmt.Sprintf("; every rate of (a) lies between %.2f and %.2f (chance: 1/2)", lo, hi)
	}
	nD, ds, err := atLargestShared(deltas)
	if err != nil {
		return "", err
	}
	nT, ts, err := atLargestShared(times[:len(times)-1])
	if err != nil {
		return "", err
	}
	exactT := kit.ByMethod(times)["exact"].Last()
	what := "Δ"
	if f.relativeDelta {
		what = "Δ / exact MMD²"
	}
	text += fmt.Sprintf(". At n = %g, %s is %s; at n = %g, one estimate takes %s s (the exact MMD %.2g s at n = %g).",
		nD, what, rankedList(ds, "%.2g"), nT, rankedList(ts, "%.2g"), exactT.Mean, exactT.X)
	return text, nil
}

// ranked is one method's value in a caption's increasing list.
type ranked struct {
	method string
	value  float64
}

// rankedList prints values in increasing order, "Nyström 0.000 ≤ exact 0.000 < linear 0.012",
// with ≤ between values that print the same.
func rankedList(vs []ranked, format string) string {
	vs = slices.Clone(vs)
	slices.SortStableFunc(vs, func(a, b ranked) int { return cmp.Compare(a.value, b.value) })
	var sb strings.Builder
	for i, v := range vs {
		shown := fmt.Sprintf(format, v.value)
		if i > 0 {
			if shown == fmt.Sprintf(format, vs[i-1].value) {
				sb.WriteString(" ≤ ")
			} else {
				sb.WriteString(" < ")
			}
		}
		sb.WriteString(shortNames[v.method] + " " + shown)
	}
	return sb.String()
}

// atLargestShared returns the largest n that every curve has, and each curve's mean there.
func atLargestShared(cs []kit.Curve) (float64, []ranked, error) {
	n := math.Inf(1)
	for _, c := range cs {
		n = min(n, c.Last().X)
	}
	out := make([]ranked, 0, len(cs))
	for _, c := range cs {
		s, ok := c.At(n)
		if !ok {
			return 0, nil, fmt.Errorf("%s has no value at n = %g", c.Method, n)
		}
		out = append(out, ranked{c.Method, s.Mean})
	}
	return n, out, nil
}

// caption is the set-up: the problem and data, the sizes, the draws and their batches, what the
// curves and bands are, the timing protocol, and the values that would lie one under another.
func (f figure) caption(res *run.Results, bands [3][]plotting.Band, drawn [3][]string, chance bool, spread float64) (string, error) {
	draws, err := draws(res, f.dataset)
	if err != nil {
		return "", err
	}
	batches := len(res.Where(f.dataset, setupMethod, metricDraws))
	ns := bands[0][0].X
	exactMax := bands[0][len(bands[0])-1].X
	exactText := "the exact MMD² at every n"
	if last := exactMax[len(exactMax)-1]; last < ns[len(ns)-1] {
		exactText = fmt.Sprintf("the exact MMD² up to n = %g", last)
	}
	timed := 0
	for _, r := range res.Where(f.dataset, "linear", metricSeconds) {
		if n, err := r.ParamFloat("n"); err == nil && n == ns[0] {
			timed++
		}
	}
	approx := "linear (√n-point subsets), block, RFF and Nyström (s = log n, λ = 0)"
	if f.graphs {
		approx = "linear (√n-point subsets), block and Nyström (s = log n, λ = 0; RFF does not apply to graphs)"
	}
	chanceText := ""
	if chance {
		chanceText = "; dashed: chance (1/2)"
	}
	deltaText := "|MMD²_approx(Z, W) − MMD²_exact(Z, W)|"
	if f.relativeDelta {
		deltaText += " / MMD²_exact(Z, W) (the unnormalised kernel gives Δ no scale of its own)"
	}
	text := fmt.Sprintf(`Three-sample problem (§4.6) on %s: X, W ~ P_X, Z ~ P_Z, n points each; W goes to P_X when MMD²(X, W) ≤ MMD²(Z, W). %s
Methods: %s; %s. n = %s; %d draws at each n (%d batches of %d), shared by all methods.
(a) Error rate; 95%% Wilson bands for the compared pair only, %s and %s%s; points offset in legend order (up to ×%.2f in n). (b) Mean Δ = %s. (c) Half the median of %d timed decisions, %d draw(s) timed per batch, all cores. (b, c): mean over batches, band: range of the %d batch means.`,
		f.describe, f.setup(res.Scale), approx, exactText, kit.PlainFloats(ns), draws, batches, draws/max(batches, 1),
		shortNames[f.compared[0]], shortNames[f.compared[1]], chanceText, spread, deltaText, f.sizes.At(res.Scale).timeCalls, timed/max(batches, 1), batches)
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

// textLabel is a text written in a panel beside the point (x, y), in colour index colour of the
// palette, vertically aligned by yAlign: a direct label of a curve that is not a method.
type textLabel struct {
	x, y   float64
	text   string
	colour int
	yAlign draw.YAlignment
}

// addTextLabels writes the labels into p in its tick labels' font, each starting just right of its
// point (and just above it when aligned by its bottom), so that they need no legend entry.
func addTextLabels(p *plot.Plot, ls []textLabel) error {
	xy := plotter.XYLabels{XYs: make(plotter.XYs, len(ls)), Labels: make([]string, len(ls))}
	for i, l := range ls {
		xy.XYs[i], xy.Labels[i] = plotter.XY{X: l.x, Y: l.y}, l.text
	}
	labels, err := plotter.NewLabels(xy)
	if err != nil {
		return err
	}
	for i, l := range ls {
		labels.TextStyle[i] = p.X.Tick.Label
		labels.TextStyle[i].Color = plotting.Color(l.colour)
		labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XLeft, l.yAlign
	}
	labels.Offset = vg.Point{X: 5, Y: 2}
	p.Add(labels)
	return nil
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
