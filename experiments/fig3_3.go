package experiments

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// ch3TimingSize is one data set of a timing figure (fig3_3, fig3_4) at one scale.
type ch3TimingSize struct {
	// ns lists the sizes n (0 = the whole data set); each is a fresh uniform subsample per draw,
	// drawn with replacement when n exceeds the data set.
	ns []int
	// exactMax is the largest n at which exact RLS is timed (0: never).
	exactMax int
}

// ch3TimingScale is a timing figure at one scale.
type ch3TimingScale struct {
	draws int
	sets  map[string]ch3TimingSize
}

// fig3_3Sizes: n grows by subsampling each data set ("small n", §3.3.1); exact RLS is timed on KC1
// only below paper scale, up to n = 10,000 at paper scale.
var fig3_3Sizes = map[run.Scale]ch3TimingScale{
	run.Smoke: {draws: 2, sets: map[string]ch3TimingSize{
		"kc1":     {ns: []int{100, 200}, exactMax: 200},
		"houses":  {ns: []int{200, 400}},
		"adult":   {ns: []int{200, 400}},
		"covtype": {ns: []int{200, 400}},
	}},
	run.Quick: {draws: 3, sets: map[string]ch3TimingSize{
		"kc1":     {ns: []int{250, 500, 1000, 0}, exactMax: 1 << 30},
		"houses":  {ns: []int{1000, 2000, 5000, 10000, 20000}},
		"adult":   {ns: []int{1000, 2000, 5000, 10000, 20000}},
		"covtype": {ns: []int{1000, 2000, 5000, 10000, 20000}},
	}},
	run.Paper: {draws: 10, sets: map[string]ch3TimingSize{
		"kc1":     {ns: []int{200, 500, 1000, 1500, 0}, exactMax: 1 << 30},
		"houses":  {ns: []int{1000, 2000, 5000, 10000, 20000}, exactMax: 10000},
		"adult":   {ns: []int{1000, 2000, 5000, 10000, 20000}, exactMax: 10000},
		"covtype": {ns: []int{1000, 2000, 5000, 10000, 20000}, exactMax: 10000},
	}},
}

// fig3_3Methods are the score methods of fig3_3 in legend order, exact RLS last.
var fig3_3Methods = []string{ch3DAC, ch3UniformRLS, ch3Recursive, ch3Accelerated, ch3Exact}

// fig3_3 — time to compute the approximate ridge leverage scores against n, small n (thesis §3.3.1,
// Figure 3.3): DAC, uniform RLS, recursive RLS, accelerated recursive RLS and exact RLS, m = √n,
// on subsamples of each data set. Only the score computation is timed (wall clock, one method at a
// time with the tasks run serially, after a garbage collection); loading, subsampling and the
// kernel's σ² and λ are not. Every method runs on all cores. The claims compare the medians over
// the draws, which a stray slow run on a shared machine moves less than the mean.
func fig3_3() *run.Experiment {
	return &run.Experiment{
		ID: "fig3_3", Title: "Time of the score computation only vs n, small n, five RLS methods (thesis Figure 3.3)",
		Kind: run.Figure, Seed: 3003, Serial: true,
		Plan:   ch3TimingPlan("fig3_3", fig3_3Sizes, fig3_3Methods),
		Render: renderCh3Timing(fig3_3Methods, ch3Sets, 2, 2),
		Claims: []run.Claim{
			{
				ID:    "exact-slowest",
				Text:  "exact RLS is the slowest: on every data set where it ran, its median time at the largest n is above every other method's",
				Check: checkFig3_3ExactSlowest,
			},
			{
				ID:    "uniform-rls-fastest",
				Text:  "uniform RLS is the fastest: on every data set, its median time at the largest n is below every other method's",
				Check: checkFig3_3UniformFastest,
			},
			{
				ID:    "recursive-slower-than-dac",
				Text:  "recursive RLS and accelerated recursive RLS are slower than DAC: on every data set, at the largest n, both median times are above DAC's",
				Check: checkFig3_3RecursiveSlower,
			},
		},
	}
}

// ch3TimingPlan makes the tasks of a timing figure: one per (data set, draw), each timing every
// method at every n of the data set.
func ch3TimingPlan(id string, sizes map[run.Scale]ch3TimingScale, methods []string) func(run.Scale) ([]run.Task, error) {
	return func(sc run.Scale) ([]run.Task, error) {
		sz, ok := sizes[sc]
		if !ok {
			return nil, fmt.Errorf("%s: no set-up for scale %q", id, sc)
		}
		var sets []string
		for _, name := range ch3Sets {
			if _, ok := sz.sets[name]; ok {
				sets = append(sets, name)
			}
		}
		return ch3Tasks(sets, sz.draws, func(ctx context.Context, env *run.Env, name string) ([]run.Record, error) {
			return ch3TimingDraw(ctx, env, sc, name, sz.sets[name], methods)
		}), nil
	}
}

// ch3TimingDraw times every method at every n of one data set, for one draw.
func ch3TimingDraw(ctx context.Context, env *run.Env, sc run.Scale, name string, sz ch3TimingSize, methods []string) ([]run.Record, error) {
	d, err := loadCh3(ctx, name, sc, false)
	if err != nil {
		return nil, err
	}
	N, _ := d.X.Dims()
	maxN, resampledAny := 0, false
	var recs []run.Record
	for _, size := range sz.ns {
		rows, resampled, err := drawRows(env.RNG, N, size)
		if err != nil {
			return nil, err
		}
		resampledAny = resampledAny || resampled
		n := len(rows)
		maxN = max(maxN, n)
		X := selectRows(d.X, rows)
		k, _, lambda, err := thesisKernel(X)
		if err != nil {
			return nil, err
		}
		for _, method := range methods {
			if method == ch3Exact && n > sz.exactMax {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			secs, err := timeScores(env.RNG, method, k, X, lambda)
			if err != nil {
				return nil, fmt.Errorf("%s n = %d %s: %w", name, n, method, err)
			}
			recs = append(recs, run.Record{Dataset: name, Method: method, Params: []run.Param{run.P("n", n)}, Metric: metricSeconds, Value: secs})
		}
	}
	setup := map[string]float64{"n": float64(maxN), "rows-available": float64(N)}
	if resampledAny {
		setup["resampled"] = 1
	}
	return append(ch3SetupRecords(d, setup), recs...), nil
}

// timeScores returns the wall-clock seconds of one score computation, after a garbage collection
// so that a method does not pay for the garbage of the one before.
func timeScores(rng *rand.Rand, method string, k kernel.Kernel, X *mat.Dense, lambda float64) (float64, error) {
	runtime.GC()
	start := time.Now()
	if _, err := ch3Scores(rng, method, k, X, lambda); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds(), nil
}

// renderCh3Timing draws a timing figure: one log-log panel per data set, rows × cols.
func renderCh3Timing(methods, sets []string, rows, cols int) func(*run.Results, *run.Output) error {
	return func(res *run.Results, out *run.Output) error {
		fig := plotting.NewFigure(rows, cols, 12*vg.Centimeter, 9.5*vg.Centimeter)
		for i, name := range sets {
			title := ch3Title(res, name) + ": score computation only"
			if v, _, ok := ch3SetupValue(res, name, "resampled"); ok && v == 1 {
				avail, _, _ := ch3SetupValue(res, name, "rows-available")
				title = fmt.Sprintf("%s: scores only (n > %d resampled)", ch3Title(res, name), int(avail))
			}
			p, err := ch3Panel(res, name, metricSeconds, "n", methods, title, "n", "time (s)")
			if err != nil {
				return err
			}
			if err := logLog(p); err != nil {
				return err
			}
			fig.Set(i/cols, i%cols, p)
		}
		return fig.Save(filepath.Join(out.Dir, out.ID))
	}
}

// ch3MedianAt returns the median of a curve at x, and whether it has a point there.
func ch3MedianAt(c curve, x float64) (float64, bool) {
	s, ok := c.at(x)
	return s.Median, ok
}

// ch3TimingCurves returns the time curves of every data set of the timing figure's sets, by data
// set, together with each data set's largest n.
func ch3TimingCurves(res *run.Results, sets, methods []string) (map[string]map[string]curve, map[string]float64, error) {
	all := map[string]map[string]curve{}
	largest := map[string]float64{}
	for _, name := range sets {
		cs, err := ch3Curves(res, name, metricSeconds, "n", methods)
		if err != nil {
			return nil, nil, err
		}
		all[name] = cs
		for _, c := range cs {
			largest[name] = max(largest[name], c.last().X)
		}
	}
	return all, largest, nil
}

// describeMedians prints the medians of the methods present at x, e.g. "dac 0.012 s, exact 2.1 s".
func describeMedians(cs map[string]curve, x float64, methods []string) string {
	var parts []string
	for _, m := range methods {
		if c, ok := cs[m]; ok {
			if v, ok := ch3MedianAt(c, x); ok {
				parts = append(parts, fmt.Sprintf("%s %.3g s", m, v))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// checkFig3_3Order checks, on every data set at its largest n, that holds(a, b) is true between the median
// time of each method of first and each method of second present there; sets without a method of
// first are skipped (exact RLS does not run everywhere).
func checkFig3_3Order(res *run.Results, first, second []string, holds func(a, b float64) bool, what string) (run.Verdict, error) {
	all, largest, err := ch3TimingCurves(res, ch3Sets, fig3_3Methods)
	if err != nil {
		return run.Verdict{}, err
	}
	pass, checked := true, 0
	var ev []string
	for _, name := range ch3Sets {
		cs, n := all[name], largest[name]
		var a, b []float64
		for _, m := range first {
			if v, ok := ch3MedianAt(cs[m], n); ok {
				a = append(a, v)
			}
		}
		if len(a) == 0 {
			continue
		}
		for _, m := range second {
			if v, ok := ch3MedianAt(cs[m], n); ok {
				b = append(b, v)
			}
		}
		checked++
		for _, x := range a {
			for _, y := range b {
				pass = pass && holds(x, y)
			}
		}
		ev = append(ev, fmt.Sprintf("%s n = %g: %s", ch3Names[name], n, describeMedians(cs, n, fig3_3Methods)))
	}
	if checked == 0 {
		return run.Verdict{Outcome: legacyOutcome(false), Evidence: "no data set with " + what}, nil
	}
	return run.Verdict{Outcome: legacyOutcome(pass), Evidence: "median seconds at the largest n: " + strings.Join(ev, "; ")}, nil
}

// without returns methods less the ones listed.
func without(methods []string, not ...string) []string {
	var out []string
	for _, m := range methods {
		skip := false
		for _, x := range not {
			skip = skip || m == x
		}
		if !skip {
			out = append(out, m)
		}
	}
	return out
}

func checkFig3_3ExactSlowest(res *run.Results) (run.Verdict, error) {
	return checkFig3_3Order(res, []string{ch3Exact}, without(fig3_3Methods, ch3Exact), func(a, b float64) bool { return a > b }, "exact RLS")
}

func checkFig3_3UniformFastest(res *run.Results) (run.Verdict, error) {
	return checkFig3_3Order(res, []string{ch3UniformRLS}, without(fig3_3Methods, ch3UniformRLS), func(a, b float64) bool { return a < b }, "uniform RLS")
}

func checkFig3_3RecursiveSlower(res *run.Results) (run.Verdict, error) {
	return checkFig3_3Order(res, []string{ch3Recursive, ch3Accelerated}, []string{ch3DAC}, func(a, b float64) bool { return a > b }, "recursive RLS")
}
