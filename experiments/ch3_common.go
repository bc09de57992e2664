package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/leverage"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// Chapter 3's experiments (thesis §3.3, figures 3.2 to 3.5) share one set-up, written once here.
//
//   - Data: KC1, Houses (California housing), Adult and Covertype (lab/dataset). Features are
//     standardised over the data set as loaded, Adult's categorical columns ordinal-coded first
//     (dataset.Table.Matrix). Covertype is the UCI file at paper scale and the mirror's 31,220-row
//     subset at the other scales; the variant the loader used is recorded and shown in the titles.
//   - Kernel (thesis §3.3): Gaussian, σ² the mean squared distance between the points whose scores
//     are computed (kernel.MeanSquaredDistance) and λ = 1/mean ||x_i|| over the same points
//     (kernel.ThesisRidge).
//   - Score methods, all with m = √n (§3.3.1): DAC-RLS (random blocks of at most ⌈√n⌉ points),
//     uniform RLS (⌈√n⌉ uniform landmarks), recursive RLS and its accelerated variant, and exact RLS.
//     The thesis ran the recursive methods with their authors' code, so they use that code's
//     adaptive ridge (leverage.AdaptiveRidge, s = ⌈√n⌉ landmarks) rather than the thesis's λ, with
//     which every level keeps thousands of points (measured here on 10,000 Covertype points: 41 s
//     instead of 0.15 s).
//     Uniform sampling, the baseline, has no scores.
//   - Landmarks (fig3_2) and labelled points (fig3_5): s distinct points drawn with probability
//     proportional to the scores, without replacement (leverage.Sample), as the thesis fixes |S|
//     instead of using Algorithm 3.
const (
	ch3Uniform     = "uniform"
	ch3UniformRLS  = "uniform-rls"
	ch3Recursive   = "recursive"
	ch3Accelerated = "recursive-accelerated"
	ch3DAC         = "dac"
	ch3Exact       = "exact"
	// ch3RecursiveOwn is fig3_2's diagnostic: the authors' own recursive pipeline, run with
	// s = |S| and keeping the landmarks it samples itself (see fig3_2).
	ch3RecursiveOwn = "recursive-own"
	// ch3Baseline is fig3_5's no-feature baseline on the same test split: the training part's
	// majority class (classification) or its mean target (regression).
	ch3Baseline = "baseline"
	// ch3Setup rows record the sizes and the kernel of a task (n, d, σ², λ, ...) for titles.
	ch3Setup = "setup"
	// Covertype's variants: the full UCI file at paper scale, the mirror's subset elsewhere.
	covtypeFull   = "uci"
	covtypeSubset = "subset-31220"
)

// ch3Labels are the legend entries of the methods.
var ch3Labels = map[string]string{
	ch3Uniform:      "uniform sampling",
	ch3UniformRLS:   "uniform RLS (m = √n)",
	ch3Recursive:    "recursive RLS (s = √n)",
	ch3Accelerated:  "accelerated recursive RLS",
	ch3DAC:          "DAC-RLS (m = √n)",
	ch3Exact:        "exact RLS",
	ch3RecursiveOwn: "diagnostic: recursive RLS, authors' pipeline (s = |S|)",
	ch3Baseline:     "baseline: no features",
}

// ch3Sets are the data sets of chapter 3 in the thesis's panel order.
var ch3Sets = []string{"kc1", "houses", "adult", "covtype"}

// ch3Names are the data sets as the thesis names them.
var ch3Names = map[string]string{"kc1": "KC1", "houses": "Houses", "adult": "Adult", "covtype": "Covertype"}

// ch3Data is one data set ready for chapter 3: standardised features and the target.
type ch3Data struct {
	name, variant string
	X             *mat.Dense
	// y holds class codes for classification, the standardised target for regression.
	y    []float64
	kind dataset.Kind
	// reduced names the two classes kept when a multi-class set was reduced to a binary task.
	reduced []string
}

// loadCh3 loads a chapter-3 data set at scale sc. With twoClasses, a classification set keeps only
// the rows of its two most frequent classes (Covertype as a binary task, fig3_5); the features are
// standardised after that selection.
func loadCh3(ctx context.Context, name string, sc run.Scale, twoClasses bool) (*ch3Data, error) {
	var opts []dataset.LoadOption
	if name == "covtype" {
		v := covtypeSubset
		if sc == run.Paper {
			v = covtypeFull
		}
		opts = append(opts, dataset.Variant(v))
	}
	t, err := dataset.DefaultSource().Table(ctx, name, opts...)
	if err != nil {
		return nil, err
	}
	d := &ch3Data{name: name, variant: t.Variant, kind: t.Target.Kind}
	if twoClasses && t.Target.Kind == dataset.Classification && len(t.Target.Classes) > 2 {
		top := largestClasses(t.Target.Values, len(t.Target.Classes), 2)
		var rows []int
		for i, c := range t.Target.Values {
			if int(c) == top[0] || int(c) == top[1] {
				rows = append(rows, i)
			}
		}
		if t, err = t.Subset(rows); err != nil {
			return nil, err
		}
		d.reduced = []string{t.Target.Classes[top[0]], t.Target.Classes[top[1]]}
	}
	if d.X, err = t.Matrix(dataset.Prep{Standardise: true}); err != nil {
		return nil, err
	}
	d.y = slices.Clone(t.Target.Values)
	if d.kind == dataset.Regression {
		if err := standardiseInPlace(d.y); err != nil {
			return nil, fmt.Errorf("%s target: %w", name, err)
		}
	}
	return d, nil
}

// largestClasses returns the codes of the k most frequent classes (ties to the smaller code), most
// frequent first.
func largestClasses(codes []float64, classes, k int) []int {
	counts := make([]int, classes)
	for _, c := range codes {
		counts[int(c)]++
	}
	order := make([]int, classes)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return counts[b] - counts[a] })
	return order[:min(k, classes)]
}

// standardiseInPlace maps v to zero mean and unit (population) variance.
func standardiseInPlace(v []float64) error {
	var mean, sq float64
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sq += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(sq / float64(len(v)))
	if !(sd > 0) {
		return fmt.Errorf("constant values cannot be standardised")
	}
	for i := range v {
		v[i] = (v[i] - mean) / sd
	}
	return nil
}

// drawRows picks n of the N rows: uniformly without replacement (sorted) when n ≤ N, and with
// replacement otherwise, which resampled reports (fig3_4 takes Covertype beyond the mirror's rows
// that way). n = 0 means all rows, in order.
func drawRows(rng *rand.Rand, N, n int) (rows []int, resampled bool, err error) {
	switch {
	case n < 0 || N < 1:
		return nil, false, fmt.Errorf("draw %d of %d rows", n, N)
	case n == 0 || n == N:
		return indexRange(0, N), false, nil
	case n < N:
		rows, err = dataset.Subsample(rng, N, n)
		return rows, false, err
	}
	rows = make([]int, n)
	for i := range rows {
		rows[i] = rng.IntN(N)
	}
	return rows, true, nil
}

// drawSplit draws n of the rows of (X, y) (drawRows; 0 = all) and splits the drawn rows into parts
// by fractions, stratified by class for classification. pick turns positions within the drawn rows
// (a part, or parts joined) into their rows of X and their targets (copies).
func drawSplit(rng *rand.Rand, X *mat.Dense, y []float64, n int, classification bool, fractions ...float64) (parts [][]int, pick func(idx []int) (*mat.Dense, []float64), err error) {
	N, _ := X.Dims()
	rows, _, err := drawRows(rng, N, min(n, N))
	if err != nil {
		return nil, nil, err
	}
	drawn := make([]float64, len(rows))
	for i, r := range rows {
		drawn[i] = y[r]
	}
	if classification {
		parts, err = dataset.StratifiedSplit(rng, drawn, fractions...)
	} else {
		parts, err = dataset.Split(rng, len(rows), fractions...)
	}
	if err != nil {
		return nil, nil, err
	}
	pick = func(idx []int) (*mat.Dense, []float64) {
		r := make([]int, len(idx))
		v := make([]float64, len(idx))
		for i, j := range idx {
			r[i], v[i] = rows[j], drawn[j]
		}
		return selectRows(X, r), v
	}
	return parts, pick, nil
}

// thesisKernel returns the Gaussian kernel and the ridge of the thesis for the rows of X (§3.3).
func thesisKernel(X *mat.Dense) (k kernel.Gaussian, sigma2, lambda float64, err error) {
	if k, sigma2, err = kernel.ThesisGaussian(X); err != nil {
		return k, 0, 0, err
	}
	lambda, err = kernel.ThesisRidge(X)
	return k, sigma2, lambda, err
}

// ch3Scores computes the ridge leverage scores of the rows of X by method (nil for uniform
// sampling, which has none).
func ch3Scores(rng *rand.Rand, method string, k kernel.Kernel, X *mat.Dense, lambda float64) ([]float64, error) {
	switch method {
	case ch3Uniform:
		return nil, nil
	case ch3UniformRLS:
		return leverage.Uniform(rng, k, X, lambda, leverage.UniformOptions{})
	case ch3Recursive, ch3Accelerated:
		s, _, err := leverage.Recursive(rng, k, X, leverage.AdaptiveRidge, leverage.RecursiveOptions{Accelerated: method == ch3Accelerated})
		return s, err
	case ch3DAC:
		return leverage.DAC(rng, k, X, lambda, leverage.DACOptions{})
	case ch3Exact:
		s, _, err := leverage.Exact(k, X, lambda, leverage.ExactOptions{})
		return s, err
	}
	return nil, fmt.Errorf("unknown score method %q", method)
}

// ch3Pick draws s distinct points of n: with probability proportional to scores, or uniformly when
// scores is nil (uniform sampling).
func ch3Pick(rng *rand.Rand, scores []float64, n, s int) ([]int, error) {
	if scores == nil {
		return lowrank.UniformLandmarks(rng, n, s)
	}
	return leverage.Sample(rng, scores, s)
}

// ch3SetupRecords records the data behind one task: the points used, the dimension, the kernel, and
// as parameters of every setup row the data set's variant and the classes kept by a reduction to
// two classes.
func ch3SetupRecords(d *ch3Data, values map[string]float64) []run.Record {
	params := []run.Param{run.P("variant", d.variant)}
	if d.reduced != nil {
		params = append(params, run.P("classes", strings.Join(d.reduced, " vs ")))
	}
	_, dim := d.X.Dims()
	recs := []run.Record{{Dataset: d.name, Method: ch3Setup, Params: params, Metric: "d", Value: float64(dim)}}
	keys := make([]string, 0, len(values))
	for key := range values {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		recs = append(recs, run.Record{Dataset: d.name, Method: ch3Setup, Params: params, Metric: key, Value: values[key]})
	}
	return recs
}

// ch3SetupValue returns a recorded setup value of a data set (its maximum over the tasks) and the
// variant, ok false when none was recorded.
func ch3SetupValue(res *run.Results, dataset, metric string) (value float64, variant string, ok bool) {
	rows := res.Where(dataset, ch3Setup, metric)
	if len(rows) == 0 {
		return 0, "", false
	}
	value = math.Inf(-1)
	for _, r := range rows {
		value = math.Max(value, r.Value)
	}
	variant, _ = rows[0].Param("variant")
	return value, variant, true
}

// ch3Classes returns the classes a data set was reduced to ("?" when not recorded).
func ch3Classes(res *run.Results, dataset string) string {
	for _, r := range res.Where(dataset, ch3Setup, "") {
		if c, ok := r.Param("classes"); ok {
			return c
		}
	}
	return "?"
}

// ch3Title names a data set for a panel title: the thesis's name, with Covertype's variant when it
// is not the full file.
func ch3Title(res *run.Results, dataset string) string {
	name := ch3Names[dataset]
	if _, variant, ok := ch3SetupValue(res, dataset, "d"); ok && dataset == "covtype" && variant != covtypeFull {
		name += " (" + variant + ")"
	}
	return name
}

// ch3Present returns the methods, in the given order, that have rows of metric on dataset (exact
// RLS runs only where n allows).
func ch3Present(res *run.Results, dataset, metric string, methods []string) []string {
	var out []string
	for _, m := range methods {
		if len(res.Where(dataset, m, metric)) > 0 {
			out = append(out, m)
		}
	}
	return out
}

// ch3Panel is one print panel (plotting.NewPrint) of metric against xParam for the methods present
// on dataset, legend entries from labels: each method's mean over the draws with a min–max band, in
// its registered style (ch3Style), on log axes as asked (set before the data, so that the axes
// cover the bands). The authors' recursive pipeline of fig3_2 is drawn in its registered variant
// style (recursive RLS's colour, another marker and dash), its mean only. It returns the notes a caption needs: the curves that
// coincide, one hiding the other (ch3Hidden).
func ch3Panel(res *run.Results, dataset, metric, xParam string, methods []string, labels map[string]string, title, xLabel, yLabel string, logX, logY bool) (*plot.Plot, []string, error) {
	cs, err := ch3PresentCurves(res, dataset, metric, xParam, methods)
	if err != nil {
		return nil, nil, err
	}
	p := plotting.NewPrint(title, xLabel, yLabel)
	if logX {
		if err := plotting.LogX(p); err != nil {
			return nil, nil, err
		}
	}
	if logY {
		if err := plotting.LogY(p); err != nil {
			return nil, nil, err
		}
	}
	var bands []plotting.Band
	for _, c := range cs {
		b := plotting.Band{Label: labels[c.Method], Method: ch3Style(c.Method, metric)}
		if b.Label == "" {
			b.Label = c.Method
		}
		for _, s := range c.Points {
			b.X, b.Mean, b.Lo, b.Hi = append(b.X, s.X), append(b.Mean, s.Mean), append(b.Lo, s.Min), append(b.Hi, s.Max)
		}
		if c.Method == ch3RecursiveOwn {
			b.Lo, b.Hi = nil, nil // a diagnostic: its mean only
		}
		bands = append(bands, b)
	}
	if err := plotting.AddBands(p, bands...); err != nil {
		return nil, nil, err
	}
	if !logY && p.Y.Max > p.Y.Min {
		// A linear axis ends exactly at the outermost band, which then reads as clipped by the
		// frame: leave 4% of the range on each side (an accuracy axis stops at 1).
		pad := 0.04 * (p.Y.Max - p.Y.Min)
		top := p.Y.Max + pad
		if metric == metricAccuracy && p.Y.Max <= 1 {
			top = min(top, 1)
		}
		p.Y.Min, p.Y.Max = p.Y.Min-pad, top
	}
	var notes []string
	if hidden := ch3Hidden(bands, logY); len(hidden) > 0 {
		notes = append(notes, fmt.Sprintf("on %s the lines of %s overlap (within 1%% of the y range at every x), their markers tell them apart",
			ch3Names[dataset], strings.Join(hidden, ", ")))
	}
	return p, notes, nil
}

// ch3Hidden returns the labels of the bands whose mean line lies on another's at every x they share
// (at least two), within 1% of the y range the bands span (on a log axis, 1% of its decades): closer
// than that, one line is drawn over the other. plotting.Coincident compares relative differences,
// which on a linear axis near zero would call lines apart that the plot draws on each other.
func ch3Hidden(bands []plotting.Band, logY bool) []string {
	y := func(v float64) float64 { return v }
	if logY {
		y = math.Log10
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range bands {
		for i, m := range b.Mean {
			l, h := m, m
			if b.Lo != nil {
				l, h = b.Lo[i], b.Hi[i]
			}
			lo, hi = min(lo, y(l)), max(hi, y(h))
		}
	}
	if !(hi > lo) {
		return nil
	}
	tol := 0.01 * (hi - lo)
	on := func(a, b plotting.Band) bool {
		shared := 0
		for i, x := range a.X {
			j := slices.Index(b.X, x)
			if j < 0 {
				continue
			}
			if math.Abs(y(a.Mean[i])-y(b.Mean[j])) > tol {
				return false
			}
			shared++
		}
		return shared >= 2
	}
	var labels []string
	for i, a := range bands {
		for _, b := range bands[i+1:] {
			if on(a, b) {
				for _, l := range []string{a.Label, b.Label} {
					if !slices.Contains(labels, l) {
						labels = append(labels, l)
					}
				}
			}
		}
	}
	return labels
}

// ch3Style is the registered style (plotting.MethodStyle) a chapter-3 series is drawn in: each
// method its own; fig3_5's no-feature baseline as the majority-class reference on an accuracy
// panel and as the mean-target reference on Houses's MSE panel, where it predicts the training
// mean.
func ch3Style(method, metric string) string {
	if method == ch3Baseline {
		if metric == metricMSE {
			return "mean-target"
		}
		return "majority-class"
	}
	return method
}

// ch3Draws returns the number of draws (distinct repetitions) of method's metric on dataset.
func ch3Draws(res *run.Results, dataset, method, metric string) int {
	reps := map[int]bool{}
	for _, r := range res.Where(dataset, method, metric) {
		reps[r.Rep] = true
	}
	return len(reps)
}

// ch3XValues returns the distinct x values of method's metric on dataset, ascending, as text.
func ch3XValues(res *run.Results, dataset, method, metric, xParam string) string {
	var xs []float64
	for _, r := range res.Where(dataset, method, metric) {
		if x, err := r.ParamFloat(xParam); err == nil && !slices.Contains(xs, x) {
			xs = append(xs, x)
		}
	}
	slices.Sort(xs)
	return plainFloats(xs)
}

// ch3PresentCurves returns the curves of metric against xParam on dataset for those of methods
// that have rows there (exact RLS runs only on KC1), in the order of methods.
func ch3PresentCurves(res *run.Results, dataset, metric, xParam string, methods []string) ([]curve, error) {
	present := ch3Present(res, dataset, metric, methods)
	if len(present) == 0 {
		return nil, fmt.Errorf("%s: no %s rows on %s", res.ID, metric, dataset)
	}
	return curves(res, dataset, metric, xParam, present...)
}

// ch3Curves is ch3PresentCurves by method.
func ch3Curves(res *run.Results, dataset, metric, xParam string, methods []string) (map[string]curve, error) {
	cs, err := ch3PresentCurves(res, dataset, metric, xParam, methods)
	if err != nil {
		return nil, err
	}
	return byMethod(cs), nil
}

// ch3Tasks makes one task per (data set, draw), keyed "<data set>/rep=<draw>", in data-set order.
func ch3Tasks(sets []string, draws int, work func(ctx context.Context, env *run.Env, dataset string) ([]run.Record, error)) []run.Task {
	tasks := make([]run.Task, 0, len(sets)*draws)
	for _, name := range sets {
		for rep := range draws {
			tasks = append(tasks, run.Task{Key: name + "/rep=" + strconv.Itoa(rep), Rep: rep,
				Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) { return work(ctx, env, name) }})
		}
	}
	return tasks
}

// ch3Pairs returns the values of the rows of a and b that measure the same draw (same repetition,
// data set and parameters), aligned pair by pair, with the repetition of each pair. A row of a
// without its pair in b, or a pair found twice, is an error: the chapter-3 experiments draw the
// data of a repetition once for every method, and a comparison that is not paired must not pass
// for one.
func ch3Pairs(a, b []run.Row) (va, vb []float64, reps []int, err error) {
	d, err := run.PairedDifferences(a, b)
	if err != nil {
		return nil, nil, nil, err
	}
	va, vb, reps = make([]float64, len(a)), make([]float64, len(a)), make([]int, len(a))
	for i, r := range a {
		va[i], vb[i], reps[i] = r.Value, r.Value-d[i], r.Rep
	}
	return va, vb, reps, nil
}

// ch3Keep returns the rows whose xParam value keep accepts.
func ch3Keep(rows []run.Row, xParam string, keep func(x float64) bool) ([]run.Row, error) {
	var out []run.Row
	for _, r := range rows {
		x, err := r.ParamFloat(xParam)
		if err != nil {
			return nil, err
		}
		if keep(x) {
			out = append(out, r)
		}
	}
	return out, nil
}

// ch3EveryX keeps every x.
func ch3EveryX(float64) bool { return true }

// ch3DrawDiffs returns one paired difference per draw: the mean, over the x values that keep
// accepts, of f(value of a) − f(value of b) on dataset (f = math.Log compares errors by their ratio).
// The draw is the independent unit: within a draw every x shares the subsample and, for each
// method, the scores, so the x values of one draw are averaged rather than counted as separate
// draws. No pair is an error.
func ch3DrawDiffs(res *run.Results, dataset, metric, xParam, a, b string, keep func(float64) bool, f func(float64) float64) ([]float64, error) {
	ra, err := ch3Keep(res.Where(dataset, a, metric), xParam, keep)
	if err != nil {
		return nil, err
	}
	rb, err := ch3Keep(res.Where(dataset, b, metric), xParam, keep)
	if err != nil {
		return nil, err
	}
	if len(ra) == 0 {
		return nil, fmt.Errorf("%s: no %s rows of %s on %s to compare with %s", res.ID, metric, a, dataset, b)
	}
	va, vb, reps, err := ch3Pairs(ra, rb)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s against %s: %w", res.ID, dataset, a, b, err)
	}
	sum, count := map[int]float64{}, map[int]int{}
	var order []int
	for i, rep := range reps {
		if _, seen := count[rep]; !seen {
			order = append(order, rep)
		}
		sum[rep] += f(va[i]) - f(vb[i])
		count[rep]++
	}
	slices.Sort(order)
	out := make([]float64, len(order))
	for i, rep := range order {
		out[i] = sum[rep] / float64(count[rep])
	}
	return out, nil
}

// ch3Plain is f(v) = v, for ch3DrawDiffs on a metric compared by its difference.
func ch3Plain(v float64) float64 { return v }

// ch3Label is a method's short name in a test label.
func ch3Label(m string) string {
	if s, ok := ch3Short[m]; ok {
		return s
	}
	return m
}

// ch3Short are the methods' short names in the claims' evidence.
var ch3Short = map[string]string{
	ch3Uniform: "uniform", ch3UniformRLS: "uniform RLS", ch3Recursive: "recursive", ch3Accelerated: "accelerated",
	ch3DAC: "DAC", ch3Exact: "exact", ch3RecursiveOwn: "recursive (authors' pipeline)", ch3Baseline: "baseline",
}
