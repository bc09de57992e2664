package ch3

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// timingSize is one data set of a timing figure (fig3_3, fig3_4) at one scale.
type timingSize struct {
	// ns lists the sizes n (0 = the whole data set); each is a fresh uniform subsample per draw,
	// drawn with replacement when n exceeds the data set.
	ns []int
	// exactMax is the largest n at which exact RLS is timed (0: never).
	exactMax int
}

// timingScale is a timing figure at one scale.
type timingScale struct {
	// draws is the number of draws (fresh subsamples, each timed for every method); calls the
	// number of timed calls per method and draw, whose median is recorded (run.TimeMedian: one
	// warm-up, then calls timed calls).
	draws, calls int
	sets         map[string]timingSize
}

// fig3_3Sizes: n grows by subsampling each data set ("small n", §3.3.1); exact RLS is timed on KC1
// only below paper scale, up to n = 10,000 at paper scale.
var fig3_3Sizes = run.PerScale[timingScale]{
	Smoke: timingScale{draws: 2, calls: 1, sets: map[string]timingSize{
		"kc1":     {ns: []int{100, 200}, exactMax: 200},
		"houses":  {ns: []int{200, 400}},
		"adult":   {ns: []int{200, 400}},
		"covtype": {ns: []int{200, 400}},
	}},
	Quick: timingScale{draws: 5, calls: 3, sets: map[string]timingSize{
		"kc1":     {ns: []int{250, 500, 1000, 0}, exactMax: 1 << 30},
		"houses":  {ns: []int{1000, 2000, 5000, 10000, 20000}},
		"adult":   {ns: []int{1000, 2000, 5000, 10000, 20000}},
		"covtype": {ns: []int{1000, 2000, 5000, 10000, 20000}},
	}},
	Paper: timingScale{draws: 10, calls: 5, sets: map[string]timingSize{
		"kc1":     {ns: []int{200, 500, 1000, 1500, 0}, exactMax: 1 << 30},
		"houses":  {ns: []int{1000, 2000, 5000, 10000, 20000}, exactMax: 10000},
		"adult":   {ns: []int{1000, 2000, 5000, 10000, 20000}, exactMax: 10000},
		"covtype": {ns: []int{1000, 2000, 5000, 10000, 20000}, exactMax: 10000},
	}},
}

// fig3_3Methods are the score methods of fig3_3 in legend order, exact RLS last.
var fig3_3Methods = []string{dac, uniformRLS, recursive, accelerated, methodExact}

// fig3_3 — time to compute the approximate ridge leverage scores against n, small n (thesis §3.3.1,
// Figure 3.3): DAC, uniform RLS, recursive RLS, accelerated recursive RLS and exact RLS, m = √n,
// on subsamples of each data set. Only the score computation is timed (wall clock, one method at a
// time with the tasks run serially, after a garbage collection); loading, subsampling and the
// kernel's σ² and λ are not. Every method runs on all cores. Each recorded time is the median of
// several calls after a warm-up (run.TimeMedian); the claims compare methods by the ratio of their
// times over the draws (geometric mean, t test on log ratios paired by draw: every method is timed on
// the draw's subsample), so that a ratio whose interval straddles the claimed boundary is
// inconclusive rather than decided by the noise of a shared machine.
func fig3_3() *run.Experiment {
	return &run.Experiment{
		ID: "fig3_3", Title: "Time of the score computation only vs n, small n, five RLS methods (thesis Figure 3.3)",
		Kind: run.Figure, Seed: 3003, Serial: true, Timings: []string{kit.MetricSeconds},
		Plan: timingPlan("fig3_3", fig3_3Sizes, fig3_3Methods),
		Render: renderCh3Timing("Time to compute the ridge leverage scores against the number of points n, small n (thesis Figure 3.3).",
			fig3_3Sizes, fig3_3Methods, dataSets, 2, 2),
		Claims: []run.Claim{
			{
				ID:   "exact-slowest",
				Kind: run.Timing,
				Text: "exact RLS is the slowest: on every data set where it ran, at the largest n it ran at, it takes longer than every other method",
				Rule: timingRule("exact / m for every other method m, at the largest n exact RLS ran at on each data set where it ran", verdict.Slower) +
					"; inconclusive when exact RLS ran nowhere",
				Check: checkFig3_3ExactSlowest,
			},
			{
				ID:    "uniform-rls-fastest",
				Kind:  run.Timing,
				Text:  "uniform RLS is the fastest: on every data set, at the largest n, it takes less time than every other method",
				Rule:  timingRule("uniform RLS / m for every other method m, at each data set's largest n", verdict.Faster),
				Check: checkFig3_3UniformFastest,
			},
			{
				ID:    "recursive-slower-than-dac",
				Kind:  run.Timing,
				Text:  "recursive RLS and accelerated recursive RLS are slower than DAC: on every data set, at the largest n, both take longer than DAC",
				Rule:  timingRule("recursive / DAC and accelerated / DAC, at each data set's largest n", verdict.Slower),
				Check: checkFig3_3RecursiveSlower,
			},
		},
	}
}

// timingPlan makes the tasks of a timing figure: one per (data set, draw), each timing every
// method at every n of the data set.
func timingPlan(id string, sizes run.PerScale[timingScale], methods []string) func(run.Scale) ([]run.Task, error) {
	return func(sc run.Scale) ([]run.Task, error) {
		sz := sizes.At(sc)
		var sets []string
		for _, name := range dataSets {
			if _, ok := sz.sets[name]; ok {
				sets = append(sets, name)
			}
		}
		return tasks(sets, sz.draws, func(ctx context.Context, env *run.Env, name string) ([]run.Record, error) {
			return timingDraw(ctx, env, sc, name, sz.sets[name], sz.calls, methods)
		}), nil
	}
}

// timingDraw times every method at every n of one data set, for one draw.
func timingDraw(ctx context.Context, env *run.Env, sc run.Scale, name string, sz timingSize, calls int, methods []string) ([]run.Record, error) {
	d, err := loadSet(ctx, env.Data, name, sc, false)
	if err != nil {
		return nil, err
	}
	N, _ := d.X.Dims()
	maxN, resampledAny := 0, false
	var recs []run.Record
	for _, size := range sz.ns {
		rows, resampled, err := kit.DrawRows(env.RNG, N, size)
		if err != nil {
			return nil, err
		}
		resampledAny = resampledAny || resampled
		n := len(rows)
		maxN = max(maxN, n)
		X := kit.SelectRows(d.X, rows)
		k, _, lambda, err := thesisKernel(X)
		if err != nil {
			return nil, err
		}
		for _, method := range methods {
			if method == methodExact && n > sz.exactMax {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			secs, err := timeScores(env.RNG, calls, method, k, X, lambda)
			if err != nil {
				return nil, fmt.Errorf("%s n = %d %s: %w", name, n, method, err)
			}
			recs = append(recs, run.Record{Dataset: name, Method: method, Params: []run.Param{run.P("n", n)}, Metric: kit.MetricSeconds, Value: secs})
		}
	}
	setup := map[string]float64{"n": float64(maxN), "rows-available": float64(N)}
	if resampledAny {
		setup["resampled"] = 1
	}
	return append(setupRecords(d, setup), recs...), nil
}

// timeScores returns the wall-clock seconds of a score computation: the median of calls timed
// calls after one warm-up (run.TimeMedian), after a garbage collection so that a method does not
// pay for the garbage of the one before.
func timeScores(rng *rand.Rand, calls int, method string, k kernel.Kernel, X *mat.Dense, lambda float64) (float64, error) {
	runtime.GC()
	return run.TimeMedian(calls, func() error {
		_, err := scores(rng, method, k, X, lambda)
		return err
	})
}

// renderCh3Timing draws a timing figure: one log-log print panel per data set, rows × cols at page
// width with the legend below, each curve labelled with its log–log slope, and its caption (the
// slopes and the fastest method as the result; what, introduced by what, sizes and draws from the
// results and the number of timed calls per draw from sizes at the results' scale as the set-up).
func renderCh3Timing(what string, sizes run.PerScale[timingScale], methods, sets []string, rows, cols int) func(*run.Results, *run.Output) error {
	return func(res *run.Results, out *run.Output) error {
		panels := make([]*plot.Plot, len(sets))
		drawn := map[string][]meanCurve{}
		var notes, exact []string
		for i, name := range sets {
			title := setName(res, name)
			if avail, resampled := resampledAbove(res, name); resampled {
				title = titled(res, name, fmt.Sprintf("n > %d resampled", int(avail)))
			}
			p, cs, coincide, err := panel(res, name, kit.MetricSeconds, "n", methods, labels, title, "n (number at a curve's end: its fitted log–log slope)", "time of the scores (s)", true, true)
			if err != nil {
				return err
			}
			if err := addSlopeLabels(p, cs); err != nil {
				return err
			}
			panels[i], drawn[name], notes = p, cs, append(notes, coincide...)
			if slices.Contains(methods, methodExact) {
				if xs := xValues(res, name, methodExact, kit.MetricSeconds, "n"); xs != "" {
					exact = append(exact, fmt.Sprintf("%s n ∈ {%s}", setName(res, name), xs))
				}
			}
		}
		panelH := 5.6 * vg.Centimeter
		if rows == 1 {
			panelH = 6 * vg.Centimeter
		}
		if err := kit.SavePrintGrid(out, rows, cols, plotting.PageWidth, panelH, plotting.LegendBelow, panels...); err != nil {
			return err
		}
		data := grouped(res, sets, func(name string) string {
			d := fmt.Sprintf("n ∈ {%s}, %d draws", xValues(res, name, methods[0], kit.MetricSeconds, "n"), draws(res, name, methods[0], kit.MetricSeconds))
			if avail, resampled := resampledAbove(res, name); resampled {
				d += fmt.Sprintf(" (n above its %d rows drawn with replacement: a time does not depend on which rows)", int(avail))
			}
			return d
		})
		setup := what + " Time of the score computation alone (wall clock, all cores, one task at a time), the median of " +
			strconv.Itoa(sizes.At(res.Scale).calls) + " calls after a warm-up, on a fresh uniform subsample of n points per draw: " + data +
			". " + bandWords(true) + " The number at each curve's end is the least-squares slope of log time against log n over the " +
			"drawn means. m = √n for DAC-RLS and uniform RLS"
		if slices.Contains(methods, recursive) {
			setup += ", s = √n and the authors' adaptive ridge for recursive RLS (plain and accelerated)"
		}
		setup += "; Gaussian kernel with the thesis's σ² and λ. Times of this implementation on a shared machine."
		if slices.Contains(methods, methodExact) {
			if len(exact) > 0 {
				setup += " Exact RLS only at " + strings.Join(exact, "; ") + "."
			} else {
				setup += " Exact RLS was not timed at this scale."
			}
		}
		if len(notes) > 0 {
			setup += " Hidden curves: " + strings.Join(notes, "; ") + "."
		}
		return kit.WriteCaption(out, res, timingResult(res, sets, methods, drawn), setup)
	}
}

// asymptoticSlope is the exponent of n in the cost of every approximate score method of chapter 3:
// O(n m²) operations with m = √n.
const asymptoticSlope = 2.0

// timingResult is the result sentences of a timing figure, from the curves drawn on each data set:
// each method's log–log slope (its range over the data sets), set against the asymptotic exponent
// 2 of the approximate methods, then the fastest method at each data set's largest n and the ratio
// of uniform RLS's time to DAC-RLS's over every n drawn.
func timingResult(res *run.Results, sets, methods []string, drawn map[string][]meanCurve) string {
	var parts []string
	var below, reach []string
	for _, m := range methods {
		var ks []float64
		var where []string
		for _, name := range sets {
			if k, ok := curveSlopes(drawn[name])[m]; ok {
				ks = append(ks, k)
				where = append(where, setName(res, name))
			}
		}
		if len(ks) == 0 {
			continue
		}
		text := methodName(m) + " " + slopeFormat(slices.Min(ks))
		if hi := slopeFormat(slices.Max(ks)); hi != slopeFormat(slices.Min(ks)) {
			text += "–" + hi
		}
		if len(ks) < len(sets) {
			text += " (" + andList(where) + ")"
		}
		parts = append(parts, text)
		if m == methodExact {
			continue
		}
		if slices.Max(ks) < asymptoticSlope {
			below = append(below, methodName(m))
		} else {
			reach = append(reach, methodName(m))
		}
	}
	if len(parts) == 0 {
		return "No curve has two sizes n, so no slope is fitted."
	}
	out := "Least-squares slopes of log time against log n: " + strings.Join(parts, "; ") + "."
	switch {
	case len(reach) == 0 && len(below) > 0:
		out += fmt.Sprintf(" Every approximate method's slope is below %g, the exponent of its asymptotic cost O(n m²) = O(n²) with m = √n: "+
			"these n are not in that regime, and costs that grow more slowly (overheads) dominate the times.", asymptoticSlope)
	case len(reach) > 0:
		out += fmt.Sprintf(" The slope reaches %g, the exponent of the asymptotic cost O(n m²) = O(n²) with m = √n, for %s on some data set", asymptoticSlope, andList(reach))
		if len(below) > 0 {
			out += fmt.Sprintf(", and stays below it for %s (overhead-dominated at these n)", andList(below))
		}
		out += "."
	}
	return out + fastestSentence(res, sets, drawn)
}

// fastestSentence names the method with the lowest mean time at each data set's largest n, data
// sets grouped by method, and gives the range over every data set and n of uniform RLS's mean time
// divided by DAC-RLS's, where both are drawn.
func fastestSentence(res *run.Results, sets []string, drawn map[string][]meanCurve) string {
	fastestOn := map[string][]string{}
	var order []string
	var ratios []float64
	for _, name := range sets {
		cs := drawn[name]
		best, bestT, at := "", math.Inf(1), 0.0
		for _, c := range cs {
			at = max(at, c.x[len(c.x)-1])
		}
		byMethod := map[string]meanCurve{}
		for _, c := range cs {
			byMethod[c.method] = c
			if t, ok := c.at(at); ok && t < bestT {
				best, bestT = c.method, t
			}
		}
		if best != "" {
			if _, seen := fastestOn[best]; !seen {
				order = append(order, best)
			}
			fastestOn[best] = append(fastestOn[best], setName(res, name))
		}
		u, okU := byMethod[uniformRLS]
		d, okD := byMethod[dac]
		if okU && okD {
			for i, x := range u.x {
				if td, ok := d.at(x); ok {
					ratios = append(ratios, u.mid[i]/td)
				}
			}
		}
	}
	var out []string
	for _, m := range order {
		out = append(out, methodName(m)+" on "+andList(fastestOn[m]))
	}
	text := ""
	if len(out) > 0 {
		text = " At each data set's largest n the fastest is " + strings.Join(out, ", ")
	}
	if len(ratios) > 0 {
		if text == "" {
			text = " Uniform RLS takes "
		} else {
			text += "; uniform RLS takes "
		}
		text += fmt.Sprintf("%s–%s times DAC-RLS's time over the n drawn", ratioFormat(slices.Min(ratios)), ratioFormat(slices.Max(ratios)))
	}
	if text == "" {
		return ""
	}
	return text + "."
}

// timingRule is the rule of a timing claim: the ratios tested, what supports or contradicts, and
// where the margin comes from.
func timingRule(ratios string, c verdict.TimeOrder) string {
	return "each time is the median of several calls after a warm-up (run.TimeMedian), one per draw; per data set, the geometric-mean ratio of the times over the draws " + ratios +
		", t test on log ratios paired by draw with 90% interval (every method is timed on the draw's subsample); " + c.Decision() +
		fmt.Sprintf(", inconclusive when its interval straddles the boundary (margin verdict.TimeMargin = %g, the catalogue's one margin for faster, slower and about the same time: "+
			"the smallest difference a reader sees on the figures' logarithmic time axes, and fig3_2's \"close\"); family over the data sets and ratios, Holm at 0.05", verdict.TimeMargin)
}

// timeTest tests the ratio of the times of a and b on dataset at n (paired by draw) for claim c,
// its label marking an n whose rows were drawn with replacement; ok is false when either method
// has no time there (exact RLS does not run everywhere).
func timeTest(res *run.Results, dataset string, n float64, a, b string, c verdict.TimeOrder) (verdict.Test, bool, error) {
	at := func(x float64) bool { return x == n }
	ra, err := keepRows(res.Where(dataset, a, kit.MetricSeconds), "n", at)
	if err != nil {
		return verdict.Test{}, false, err
	}
	rb, err := keepRows(res.Where(dataset, b, kit.MetricSeconds), "n", at)
	if err != nil {
		return verdict.Test{}, false, err
	}
	if len(ra) == 0 || len(rb) == 0 {
		return verdict.Test{}, false, nil
	}
	va, vb, _, err := pairs(ra, rb)
	if err != nil {
		return verdict.Test{}, false, fmt.Errorf("%s: %s n = %g %s against %s: %w", res.ID, dataset, n, a, b, err)
	}
	where := fmt.Sprintf("n = %g", n)
	if rows, ok := resampledAbove(res, dataset); ok && n > rows {
		where += " (resampled)"
	}
	return c.Test(fmt.Sprintf("%s %s: time %s / %s", setName(res, dataset), where, label(a), label(b)), va, vb, true), true, nil
}

// largestN returns the largest n at which method was timed on dataset (0 when never).
func largestN(res *run.Results, dataset, method string) (float64, error) {
	var n float64
	for _, r := range res.Where(dataset, method, kit.MetricSeconds) {
		x, err := r.ParamFloat("n")
		if err != nil {
			return 0, err
		}
		n = max(n, x)
	}
	return n, nil
}

// checkFig3_3Order tests, on every data set at the largest n of anchor there, the ratio of each
// method of first to each method of second for claim c (slower or faster); data sets where no
// method of first ran are left out, and a run where none ran is inconclusive.
func checkFig3_3Order(res *run.Results, anchor string, first, second []string, c verdict.TimeOrder) (verdict.Verdict, error) {
	var tests []verdict.Test
	var sets []string
	for _, name := range dataSets {
		n, err := largestN(res, name, anchor)
		if err != nil {
			return verdict.Verdict{}, err
		}
		if n == 0 {
			continue
		}
		sets = append(sets, name)
		for _, a := range first {
			for _, b := range second {
				t, ok, err := timeTest(res, name, n, a, b, c)
				if err != nil {
					return verdict.Verdict{}, err
				}
				if ok {
					tests = append(tests, t)
				}
			}
		}
	}
	if len(tests) == 0 {
		return verdict.InconclusiveVerdict(fmt.Sprintf("premise not met: no data set with times of %s in this run", strings.Join(first, ", "))), nil
	}
	return decide(res, sets, tests), nil
}

func checkFig3_3ExactSlowest(res *run.Results) (verdict.Verdict, error) {
	return checkFig3_3Order(res, methodExact, []string{methodExact}, kit.Without(fig3_3Methods, methodExact), verdict.Slower)
}

func checkFig3_3UniformFastest(res *run.Results) (verdict.Verdict, error) {
	return checkFig3_3Order(res, dac, []string{uniformRLS}, kit.Without(fig3_3Methods, uniformRLS), verdict.Faster)
}

func checkFig3_3RecursiveSlower(res *run.Results) (verdict.Verdict, error) {
	return checkFig3_3Order(res, dac, []string{recursive, accelerated}, []string{dac}, verdict.Slower)
}
