package experiments

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/mmd"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// Chapter 4's figures (thesis §4.6) share one protocol, written once here: the three-sample problem
// (X ~ P_X, Z ~ P_Z, W ~ P_X, all of size n; W is attributed to P_X when D(X, W) ≤ D(Z, W)) solved
// with the exact MMD² of eq. (4.2) while it is affordable and with its four approximations (linear,
// block, RFF, Nyström), s = log n for block, RFF and Nyström (§4.6.1). Every method decides every
// draw: the draws are shared, so error rates, Δ and times are compared draw by draw (McNemar on
// the decisions, paired differences of log Δ, paired bootstrap of times). Per method and n a
// figure shows (a) the error rate, the fraction of draws that attribute W to P_Z; (b) Δ, the mean
// of |MMD²_approx(Z, W) − MMD²_exact(Z, W)| on the draws where the exact value was computed
// (relative to the exact MMD² where a figure asks for it); (c) the time of one MMD² estimate.
//
// What a task records, one row per draw, method and n (params n, s where the method has one, and
// draw, the draw's index within its batch): "wrong" (1 when the decision attributes W to P_Z),
// "delta" and "relative-delta" (Δ and Δ / MMD²_exact(Z, W), approximations only, where the exact
// value was computed) and, on the first timedDraws draws of each batch, "seconds" (the time of one
// MMD² estimate: run.TimeMedian of the decision, halved). The figures show each batch's mean with
// the min–max band over batches; the claims read the draws.
//
// Choices the thesis leaves open, shared by the four figures:
//   - Δ is measured on MMD², not on MMD as the thesis prints it: the block estimate is an average
//     of unbiased U-statistics and can be negative, so its square root does not exist. It is
//     measured on the pair (Z, W), whose two samples come from P_Z and P_X like the thesis's (X, Z),
//     so that the exact values already computed for the decision serve.
//   - Nyström MMD uses λ = 0, the plain Nyström kernel: the thesis gives no λ, and with samples of
//     equal size made of distinct points the term λ||v||² = 2λ/n is the same in both distances of a
//     decision, so it would change no decision and only add 2λ/n to Δ. (MUTAG's samples, drawn
//     with replacement, repeat graphs: there λ > 0 would shrink D(X, W) for the graphs X and W
//     share, a help the exact MMD does not get.)
//   - Timing: the estimators run on all cores, so the tasks run one at a time (Serial). A timed
//     draw's decision is the warm-up call of run.TimeMedian, then timeCalls more decisions on the
//     same samples (with their own random numbers, so that the decisions do not depend on the
//     scale's timing) give the median; the time of one estimate is half the decision's.
//   - A task is a batch of draws at every n, so a paper-scale run shards by batch.
//
// The claims' thresholds, fixed from the thesis's words before looking at any result:
//   - "makes fewer errors" is McNemar's exact test on the same decisions; "separates" and "at chance"
//     are exact binomial tests of the error rate against 1/2; a ranking of error rates presumes that
//     the reference (the exact MMD where it ran, else the best of the compared methods) separates
//     at all, and is INCONCLUSIVE otherwise;
//   - "converges faster" compares Δ itself, which the thesis calls the speed of convergence
//     (§4.6.1), by the paired log ratio of Δ over every draw with the exact MMD²; "converges at the
//     same speed" needs both curves to converge (log-log slope of Δ against n below 0) and then
//     log-log slopes within ±mmdSlopeMargin;
//   - time orders are ratios of median times (paired bootstrap) against 1; "similar time" is a
//     ratio within a factor mmdSimilarTime either way.
const (
	mmdMetricWrong    = "wrong"
	mmdMetricDelta    = "delta"
	mmdMetricRelDelta = "relative-delta"
	mmdMetricSeconds  = "seconds"
	// mmdSetupMethod rows record the draws of each task (metric mmdMetricDraws), for titles.
	mmdSetupMethod = "setup"
	mmdMetricDraws = "draws"
	// mmdSlopeMargin is how far apart two log-log slopes of Δ against n may be for two methods to
	// "converge at the same speed": half the exponent of the n^(−1/2) rate of a sampling
	// approximation (the thesis gives no number).
	mmdSlopeMargin = 0.25
	// mmdErrorMargin is how far apart two error rates may be for two methods to have "the same
	// error": a tenth of the chance level 1/2 (the thesis gives no number).
	mmdErrorMargin = 0.05
	// mmdSimilarTime is the factor within which two times are "similar" (the thesis gives no number;
	// a factor 2 is the smallest gap a log-scale time panel shows plainly).
	mmdSimilarTime = 2.0
	// mmdNoError is the error rate below which a method makes "no error": a rate the thesis's
	// curves, plotted on a 0–0.5 scale, would not show (the thesis gives no number).
	mmdNoError = 0.01
	// mmdExplodes is the exponent above which the exact MMD's time "explodes": halfway between the
	// approximations' Θ(n log n) and the exact MMD's Θ(n²) (§4.6.1).
	mmdExplodes = 1.5
	// mmdExplodesFrom is the smallest n in the exact MMD's time slope: below it fixed costs dominate.
	mmdExplodesFrom = 1000
)

// mmdSizes are the sample sizes and draws of one figure at one scale.
type mmdSizes struct {
	n []int
	// exactMax is the largest n at which the exact MMD² is computed.
	exactMax int
	// tasks × drawsPerTask draws in all.
	tasks, drawsPerTask int
	// The first timedDraws draws of each batch are timed, each with run.TimeMedian over timeCalls
	// calls.
	timedDraws, timeCalls int
}

// threeSampleDraw is one three-sample problem: the index lists X, Z and W into points.
type threeSampleDraw struct {
	points  mmd.Points
	x, z, w []int
}

// mmdSampler draws one three-sample problem with samples of size n.
type mmdSampler func(rng *rand.Rand, n int) (threeSampleDraw, error)

// mmdFigure is one of the figures 4.2 to 4.5: what data it draws from and at what sizes.
type mmdFigure struct {
	id, title string
	seed      uint64
	// dataset names the data in the results table; describe is its description in titles.
	dataset, describe string
	sizes             map[run.Scale]mmdSizes
	// graphs marks data without random Fourier features (RFF does not apply).
	graphs bool
	// setup describes, for the caption, the data of a scale, how the samples are drawn and the
	// kernel.
	setup func(sc run.Scale) string
	// relativeDelta draws panel (b) as Δ / MMD²_exact (for an unnormalised kernel, whose raw Δ
	// has no scale a reader knows).
	relativeDelta bool
	// load prepares the data of one task and returns its sampler; it runs once per task.
	load func(ctx context.Context, sc run.Scale) (mmdSampler, error)
	// extraTasks and extraPanel, when set, add a companion study to the plan and its panel to the
	// figure (fig4_2's dimension study).
	extraTasks func(sc run.Scale) ([]run.Task, error)
	extraPanel func(res *run.Results) (*plot.Plot, error)
	// extraCaption describes the companion panel for the caption.
	extraCaption func(res *run.Results) (string, error)
}

// experiment builds the run.Experiment of the figure with the given claims.
func (f mmdFigure) experiment(claims ...run.Claim) *run.Experiment {
	return &run.Experiment{
		ID: f.id, Title: f.title, Kind: run.Figure, Seed: f.seed, Serial: true,
		Plan:   f.plan,
		Render: f.render,
		Claims: claims,
	}
}

// methods lists the methods in legend order; exact comes last, so that panel (b), which has no
// exact curve, keeps the colours of panels (a) and (c).
func (f mmdFigure) methods() []string {
	if f.graphs {
		return []string{"linear", "block", "nystrom", "exact"}
	}
	return []string{"linear", "block", "rff", "nystrom", "exact"}
}

// approximations returns the approximate estimators, in legend order, with their default s = log n.
func (f mmdFigure) approximations() []mmd.Estimator {
	ests := []mmd.Estimator{mmd.Linear{}, mmd.Block{}}
	if !f.graphs {
		ests = append(ests, mmd.RFF{})
	}
	return append(ests, mmd.Nystrom{})
}

func (f mmdFigure) plan(sc run.Scale) ([]run.Task, error) {
	sz, ok := f.sizes[sc]
	if !ok {
		return nil, fmt.Errorf("%s: no set-up for scale %q", f.id, sc)
	}
	tasks := make([]run.Task, sz.tasks)
	for b := range sz.tasks {
		tasks[b] = run.Task{Key: "batch=" + strconv.Itoa(b), Rep: b, Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
			return f.runBatch(ctx, env.RNG, sc, sz)
		}}
	}
	if f.extraTasks != nil {
		extra, err := f.extraTasks(sc)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, extra...)
	}
	return tasks, nil
}

// runBatch draws sz.drawsPerTask three-sample problems at every n and decides each with every
// method; the draws come from rng in a fixed order (n ascending, then draw, then the estimators in
// legend order), so a batch's numbers depend only on its key.
func (f mmdFigure) runBatch(ctx context.Context, rng *rand.Rand, sc run.Scale, sz mmdSizes) ([]run.Record, error) {
	sample, err := f.load(ctx, sc)
	if err != nil {
		return nil, err
	}
	recs := []run.Record{{Dataset: f.dataset, Method: mmdSetupMethod, Metric: mmdMetricDraws, Value: float64(sz.drawsPerTask)}}
	ests := append(f.approximations(), mmd.Exact{})
	for _, n := range sz.n {
		for i := range sz.drawsPerTask {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			d, err := sample(rng, n)
			if err != nil {
				return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
			}
			calls := 0
			if i < sz.timedDraws {
				calls = sz.timeCalls
			}
			// The exact MMD decides first: the approximations' Δ needs its MMD²(Z, W).
			exactZW := math.NaN()
			if n <= sz.exactMax {
				dec, secs, err := decideTimed(ctx, mmd.Exact{}, rng, d, calls, n, i)
				if err != nil {
					return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
				}
				exactZW = dec.ZW
				recs = append(recs, drawRecords(f.dataset, "exact", n, i, dec, secs, math.NaN())...)
			}
			for _, est := range ests[:len(ests)-1] {
				dec, secs, err := decideTimed(ctx, est, rng, d, calls, n, i)
				if err != nil {
					return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
				}
				recs = append(recs, drawRecords(f.dataset, est.Name(), n, i, dec, secs, exactZW)...)
			}
		}
	}
	return recs, nil
}

// decideTimed solves one three-sample problem with est and, when calls > 0, times it: the decision
// is run.TimeMedian's warm-up call, and the calls timed ones redo it on the same samples with a
// generator of their own (seeded by n and the draw), so that rng, hence every decision, is the
// same whether or not a draw is timed. It returns the decision and the time of one MMD² estimate
// (half the decision's; NaN when untimed).
func decideTimed(ctx context.Context, est mmd.Estimator, rng *rand.Rand, d threeSampleDraw, calls, n, draw int) (mmd.Decision, float64, error) {
	if calls == 0 {
		dec, err := mmd.ThreeSample(ctx, rng, est, d.points, d.x, d.z, d.w)
		return dec, math.NaN(), err
	}
	var dec mmd.Decision
	timing := rand.New(rand.NewPCG(uint64(n), uint64(draw)))
	first := true
	secs, err := run.TimeMedian(calls, func() error {
		r := timing
		if first {
			r = rng
		}
		got, err := mmd.ThreeSample(ctx, r, est, d.points, d.x, d.z, d.w)
		if first {
			dec, first = got, false
		}
		return err
	})
	return dec, secs / 2, err
}

// drawRecords returns one method's rows for one draw: whether it erred, its time when timed (secs
// not NaN), and its Δ and relative Δ when the exact MMD²(Z, W) is known (exactZW not NaN).
func drawRecords(dataset, method string, n, draw int, dec mmd.Decision, secs, exactZW float64) []run.Record {
	params := []run.Param{run.P("n", n)}
	if method == "block" || method == "rff" || method == "nystrom" {
		params = append(params, run.P("s", mmd.DefaultSize(n)))
	}
	params = append(params, run.P("draw", draw))
	wrong := 0.0
	if !dec.FromX() {
		wrong = 1
	}
	recs := []run.Record{{Dataset: dataset, Method: method, Params: params, Metric: mmdMetricWrong, Value: wrong}}
	if !math.IsNaN(secs) {
		recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: params, Metric: mmdMetricSeconds, Value: secs})
	}
	if !math.IsNaN(exactZW) {
		delta := math.Abs(dec.ZW - exactZW)
		recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: params, Metric: mmdMetricDelta, Value: delta})
		if exactZW > 0 {
			recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: params, Metric: mmdMetricRelDelta, Value: delta / exactZW})
		}
	}
	return recs
}

// vectorPools are the rows of one matrix split into the pools P_X and P_Z are drawn from, with the
// Gaussian kernel of the thesis.
type vectorPools struct {
	points *mmd.Vectors
	px, pz []int
}

// newVectorPools puts the Gaussian kernel with the thesis's bandwidth (σ² = mean squared distance
// between the rows of X, kernel.MeanSquaredDistance) on the rows of X, px and pz being the rows of
// each pool.
func newVectorPools(X *mat.Dense, px, pz []int) (*vectorPools, error) {
	k, _, err := kernel.ThesisGaussian(X)
	if err != nil {
		return nil, err
	}
	points, err := mmd.NewVectors(k, X)
	if err != nil {
		return nil, err
	}
	return &vectorPools{points: points, px: px, pz: pz}, nil
}

// sample draws X and W from px and Z from pz, without replacement: X and W are disjoint, so W is a
// fresh sample of P_X. It needs 2n points in px and n in pz.
func (v *vectorPools) sample(rng *rand.Rand, n int) (threeSampleDraw, error) {
	if 2*n > len(v.px) || n > len(v.pz) {
		return threeSampleDraw{}, fmt.Errorf("samples of %d points need %d points of P_X and %d of P_Z, the data have %d and %d",
			n, 2*n, n, len(v.px), len(v.pz))
	}
	xw, err := lowrank.UniformLandmarks(rng, len(v.px), 2*n)
	if err != nil {
		return threeSampleDraw{}, err
	}
	z, err := lowrank.UniformLandmarks(rng, len(v.pz), n)
	if err != nil {
		return threeSampleDraw{}, err
	}
	return threeSampleDraw{points: v.points, x: rowsOfPool(v.px, xw[:n]), z: rowsOfPool(v.pz, z), w: rowsOfPool(v.px, xw[n:])}, nil
}

// rowsOfPool maps positions in a pool to the rows they stand for, sorted (the order of a sample
// does not matter to any estimator, and sorted rows are gathered faster).
func rowsOfPool(pool, positions []int) []int {
	rows := make([]int, len(positions))
	for i, p := range positions {
		rows[i] = pool[p]
	}
	slices.Sort(rows)
	return rows
}

// drawKey identifies one draw: its batch (the row's repetition), its index in the batch and n.
type drawKey struct {
	rep, draw int
	n         float64
}

// nRange is the sample sizes a claim speaks of, with their description in the evidence.
type nRange struct {
	keep func(n float64) bool
	text string
}

// The sample-size ranges of the claims.
func everyN() nRange { return nRange{func(float64) bool { return true }, "over every n"} }
func atN(n float64) nRange {
	return nRange{func(x float64) bool { return x == n }, fmt.Sprintf("at n = %g", n)}
}
func fromN(lo float64) nRange {
	return nRange{func(x float64) bool { return x >= lo }, fmt.Sprintf("at n ≥ %g", lo)}
}
func uptoN(hi float64) nRange {
	return nRange{func(x float64) bool { return x <= hi }, fmt.Sprintf("at n ≤ %g", hi)}
}

// nInSet is the range of the sample sizes ns, described as text.
func nInSet(ns []float64, text string) nRange {
	return nRange{func(x float64) bool { return slices.Contains(ns, x) }, text}
}

// mmdDrawValues returns method's values of metric by draw, at the n that r keeps. A draw recorded
// twice is an error.
func mmdDrawValues(res *run.Results, dataset, method, metric string, r nRange) (map[drawKey]float64, error) {
	out := map[drawKey]float64{}
	for _, row := range res.Where(dataset, method, metric) {
		n, err := row.ParamFloat("n")
		if err != nil {
			return nil, err
		}
		if !r.keep(n) {
			continue
		}
		draw, err := row.ParamFloat("draw")
		if err != nil {
			return nil, err
		}
		k := drawKey{rep: row.Rep, draw: int(draw), n: n}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s: %s %s: draw %d of batch %d at n = %g appears twice", res.ID, method, metric, k.draw, k.rep, n)
		}
		out[k] = row.Value
	}
	return out, nil
}

// sortedDrawKeys returns the draws of v ordered by n, batch and draw.
func sortedDrawKeys(v map[drawKey]float64) []drawKey {
	keys := make([]drawKey, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b drawKey) int {
		return cmp.Or(cmp.Compare(a.n, b.n), cmp.Compare(a.rep, b.rep), cmp.Compare(a.draw, b.draw))
	})
	return keys
}

// pairedDraws returns the values of metric for methods a and b on the same draws, at the n that r
// keeps, in the order of sortedDrawKeys. The two methods must have measured exactly the same draws: an
// unpaired comparison must not pass for a paired one.
func pairedDraws(res *run.Results, dataset, metric, a, b string, r nRange) ([]float64, []float64, error) {
	va, err := mmdDrawValues(res, dataset, a, metric, r)
	if err != nil {
		return nil, nil, err
	}
	vb, err := mmdDrawValues(res, dataset, b, metric, r)
	if err != nil {
		return nil, nil, err
	}
	if len(va) != len(vb) {
		return nil, nil, fmt.Errorf("%s: %s: %d draws of %s against %d of %s %s", res.ID, metric, len(va), a, len(vb), b, r.text)
	}
	keys := sortedDrawKeys(va)
	xa, xb := make([]float64, len(keys)), make([]float64, len(keys))
	for i, k := range keys {
		v, ok := vb[k]
		if !ok {
			return nil, nil, fmt.Errorf("%s: %s: draw %d of batch %d at n = %g has %s but not %s", res.ID, metric, k.draw, k.rep, k.n, a, b)
		}
		xa[i], xb[i] = va[k], v
	}
	return xa, xb, nil
}

// mmdNs returns the sample sizes at which method has rows of metric, in increasing order.
func mmdNs(res *run.Results, dataset, method, metric string) ([]float64, error) {
	var ns []float64
	for _, row := range res.Where(dataset, method, metric) {
		n, err := row.ParamFloat("n")
		if err != nil {
			return nil, err
		}
		if !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return nil, fmt.Errorf("%s: no %s rows for %s on %s", res.ID, metric, method, dataset)
	}
	slices.Sort(ns)
	return ns, nil
}

// largestN is the largest n at which method has rows of metric.
func largestN(res *run.Results, dataset, method, metric string) (float64, error) {
	ns, err := mmdNs(res, dataset, method, metric)
	if err != nil {
		return 0, err
	}
	return ns[len(ns)-1], nil
}

// ranAt is the range of the sample sizes at which method decided.
func ranAt(res *run.Results, dataset, method string) (nRange, error) {
	ns, err := mmdNs(res, dataset, method, mmdMetricWrong)
	if err != nil {
		return nRange{}, err
	}
	return nInSet(ns, fmt.Sprintf("at n = %s (where %s ran)", formatFloats(ns), method)), nil
}

// drawErrorCount returns the errors and the decisions of method at the n that r keeps.
func drawErrorCount(res *run.Results, dataset, method string, r nRange) (k, n int, err error) {
	v, err := mmdDrawValues(res, dataset, method, mmdMetricWrong, r)
	if err != nil {
		return 0, 0, err
	}
	for _, w := range v {
		if w != 0 {
			k++
		}
	}
	return k, len(v), nil
}

// separates tests "method separates P_X from P_Z" at the n that r keeps: its error rate is below
// 1/2 (exact binomial test).
func separates(res *run.Results, dataset, method string, r nRange) (run.Test, error) {
	k, n, err := drawErrorCount(res, dataset, method, r)
	if err != nil {
		return run.Test{}, err
	}
	return run.RateBelow(fmt.Sprintf("%s error rate %s vs 1/2", method, r.text), k, n, 0.5), nil
}

// noError tests "method makes no error" at the n that r keeps: its error rate is below mmdNoError
// (exact binomial test).
func noError(res *run.Results, dataset, method string, r nRange) (run.Test, error) {
	k, n, err := drawErrorCount(res, dataset, method, r)
	if err != nil {
		return run.Test{}, err
	}
	return run.RateBelow(fmt.Sprintf("%s error rate %s", method, r.text), k, n, mmdNoError), nil
}

// fewerErrors tests "a errs less often than b" by McNemar's exact test on the decisions both made
// on the same draws at the n that r keeps.
func fewerErrors(res *run.Results, dataset, a, b string, r nRange) (run.Test, error) {
	wa, wb, err := pairedDraws(res, dataset, mmdMetricWrong, a, b, r)
	if err != nil {
		return run.Test{}, err
	}
	ba, bb := make([]bool, len(wa)), make([]bool, len(wb))
	for i := range wa {
		ba[i], bb[i] = wa[i] != 0, wb[i] != 0
	}
	return run.FewerErrors(fmt.Sprintf("%s − %s error rate %s", a, b, r.text), ba, bb), nil
}

// separationPremise tests the premise of a ranking of error rates at the n that r keeps: that the
// reference separates P_X from P_Z at all. The reference is the exact MMD where it ran there,
// otherwise the compared method with the fewest errors. ok reports whether the premise holds.
func separationPremise(res *run.Results, dataset string, compared []string, r nRange) (t run.Test, ok bool, err error) {
	ref := "exact"
	k, n, err := drawErrorCount(res, dataset, ref, r)
	if err != nil {
		return run.Test{}, false, err
	}
	if n == 0 {
		best := math.Inf(1)
		for _, m := range compared {
			km, nm, err := drawErrorCount(res, dataset, m, r)
			if err != nil {
				return run.Test{}, false, err
			}
			if nm > 0 && float64(km)/float64(nm) < best {
				ref, k, n, best = m, km, nm, float64(km)/float64(nm)
			}
		}
	}
	t = run.RateBelow(fmt.Sprintf("premise: %s error rate %s vs 1/2", ref, r.text), k, n, 0.5)
	return t, t.Outcome() == run.Supported, nil
}

// noSeparation is the verdict of a ranking whose premise fails.
func noSeparation(premise run.Test, notes ...string) run.Verdict {
	return run.Decide([]run.Test{run.Premise("ranking of error rates",
		"its premise does not hold: the reference method does not separate P_X from P_Z here, so every method may be at chance and a ranking says nothing")},
		append([]string{premise.String()}, notes...)...)
}

// deltaBelow tests "better converges faster than worse", Δ being what the thesis calls the speed
// of convergence: the mean over the draws with the exact MMD² (at the n that r keeps) of
// log(Δ_better / Δ_worse) is below 0.
func deltaBelow(res *run.Results, dataset, better, worse string, r nRange) (run.Test, error) {
	a, b, err := pairedDraws(res, dataset, mmdMetricDelta, better, worse, r)
	if err != nil {
		return run.Test{}, err
	}
	label := fmt.Sprintf("log(Δ %s / Δ %s) %s", better, worse, r.text)
	d := make([]float64, len(a))
	for i := range a {
		if !(a[i] > 0 && b[i] > 0) {
			return run.Premise(label, "a Δ is 0: its logarithm does not exist"), nil
		}
		d[i] = math.Log(a[i] / b[i])
	}
	return run.MeanBelow(label, d, 0), nil
}

// logDrawPoints returns (log n, log value) of method's metric over every draw at the n that r keeps,
// and whether every value was positive.
func logDrawPoints(res *run.Results, dataset, method, metric string, r nRange) (x, y []float64, positive bool, err error) {
	v, err := mmdDrawValues(res, dataset, method, metric, r)
	if err != nil {
		return nil, nil, false, err
	}
	positive = true
	for _, k := range sortedDrawKeys(v) {
		if !(v[k] > 0) {
			positive = false
			continue
		}
		x, y = append(x, math.Log(k.n)), append(y, math.Log(v[k]))
	}
	return x, y, positive, nil
}

// sameConvergence tests "a and b converge to the exact MMD² at the same speed": both converge (the
// least-squares slope of log Δ against log n over every draw is below 0), and then their slopes
// lie within ±mmdSlopeMargin (TOST). It returns the test and, as notes, the two convergence tests;
// when either curve does not converge the test is inconclusive with that reason.
func sameConvergence(res *run.Results, dataset, a, b string) (run.Test, []string, error) {
	label := fmt.Sprintf("slope of log Δ: %s − %s", a, b)
	var xs, ys [2][]float64
	var notes []string
	converge := true
	for i, m := range []string{a, b} {
		x, y, positive, err := logDrawPoints(res, dataset, m, mmdMetricDelta, everyN())
		if err != nil {
			return run.Test{}, nil, err
		}
		if !positive {
			return run.Premise(label, fmt.Sprintf("a Δ of %s is 0: its logarithm does not exist", m)), nil, nil
		}
		t := run.SlopeBelow(fmt.Sprintf("%s converges: slope of log Δ vs log n", m), x, y, 0)
		notes = append(notes, t.String())
		converge = converge && t.Outcome() == run.Supported
		xs[i], ys[i] = x, y
	}
	if !converge {
		return run.Premise(label, fmt.Sprintf("%s and %s do not both converge (slope of log Δ significantly below 0), so equal slopes would say nothing", a, b)), notes, nil
	}
	return run.SlopesEquivalent(label, xs[0], ys[0], xs[1], ys[1], mmdSlopeMargin), notes, nil
}

// timeKind is what a time comparison claims of a against b.
type timeKind int

const (
	timeFaster  timeKind = iota // a's median time below b's
	timeSlower                  // a's median time above b's
	timeSimilar                 // within a factor mmdSimilarTime either way
)

// timeRatio tests the ratio of the median times of a and b on the same timed draws at n, as kind
// says.
func timeRatio(res *run.Results, dataset, a, b string, n float64, kind timeKind) (run.Test, error) {
	ta, tb, err := pairedDraws(res, dataset, mmdMetricSeconds, a, b, atN(n))
	if err != nil {
		return run.Test{}, err
	}
	label := fmt.Sprintf("time %s / %s at n = %g", a, b, n)
	switch kind {
	case timeFaster:
		return run.RatioBelow(label, ta, tb, true, 1), nil
	case timeSlower:
		return run.RatioAbove(label, ta, tb, true, 1), nil
	case timeSimilar:
		return run.RatioWithin(label, ta, tb, true, mmdSimilarTime), nil
	}
	return run.Test{}, fmt.Errorf("timeRatio: unknown comparison %d", kind)
}

// claimFewestErrors is the claim that best makes fewer errors than each of others on the same
// decisions at the n of r (McNemar, a family), provided the reference separates there.
func claimFewestErrors(id, text, dataset, best string, others []string, r func(*run.Results) (nRange, error)) run.Claim {
	return run.Claim{ID: id, Text: text,
		Rule: fmt.Sprintf("McNemar's exact test of %s against each of %s on the same decisions, Holm over the family; supported if %s errs alone significantly less often than every other, contradicted if significantly more often than one; premise: the exact MMD (where it ran, else the compared method with the fewest errors) has an error rate below 1/2 (exact binomial), else INCONCLUSIVE",
			best, strings.Join(others, ", "), best),
		Check: func(res *run.Results) (run.Verdict, error) {
			rng, err := r(res)
			if err != nil {
				return run.Verdict{}, err
			}
			premise, ok, err := separationPremise(res, dataset, append([]string{best}, others...), rng)
			if err != nil {
				return run.Verdict{}, err
			}
			if !ok {
				return noSeparation(premise), nil
			}
			tests := make([]run.Test, len(others))
			for i, o := range others {
				if tests[i], err = fewerErrors(res, dataset, best, o, rng); err != nil {
					return run.Verdict{}, err
				}
			}
			return run.Decide(tests, premise.String()), nil
		}}
}

// fixedRange adapts a range that does not depend on the results to claimFewestErrors.
func fixedRange(r nRange) func(*run.Results) (nRange, error) {
	return func(*run.Results) (nRange, error) { return r, nil }
}

// claimExactFewest is the claim that the exact MMD makes fewer errors than every approximation, on
// the draws where it ran.
func claimExactFewest(id, dataset string, approximations []string) run.Claim {
	return claimFewestErrors(id, "the exact MMD makes the fewest errors: fewer than every approximation on the draws where it ran",
		dataset, "exact", approximations, func(res *run.Results) (nRange, error) { return ranAt(res, dataset, "exact") })
}

// claimSameConvergence is the claim that a and b converge to the exact MMD² at the same speed.
func claimSameConvergence(id, text, dataset, a, b string) run.Claim {
	return run.Claim{ID: id, Text: text,
		Rule: fmt.Sprintf("least-squares slopes of log Δ against log n over every draw with the exact MMD²; premise: both slopes significantly below 0 (both converge), else INCONCLUSIVE; then supported if the difference of the slopes lies within ±%g (TOST), contradicted if it lies outside", mmdSlopeMargin),
		Check: func(res *run.Results) (run.Verdict, error) {
			t, notes, err := sameConvergence(res, dataset, a, b)
			if err != nil {
				return run.Verdict{}, err
			}
			return run.Decide([]run.Test{t}, notes...), nil
		}}
}

// checkDeltaBelow is the family "every method of better converges faster than every method of
// worse" (deltaBelow over every draw with the exact MMD²).
func checkDeltaBelow(dataset string, better, worse []string) func(*run.Results) (run.Verdict, error) {
	return func(res *run.Results) (run.Verdict, error) {
		var tests []run.Test
		for _, b := range better {
			for _, w := range worse {
				t, err := deltaBelow(res, dataset, b, w, everyN())
				if err != nil {
					return run.Verdict{}, err
				}
				tests = append(tests, t)
			}
		}
		return run.Decide(tests), nil
	}
}

// deltaRule is the Rule of the claims decided by checkDeltaBelow.
const deltaRule = "Δ is what the thesis calls the speed of convergence (§4.6.1): for each pair, the mean over every draw with the exact MMD² of the paired log(Δ_a / Δ_b), 90% t interval; supported if below 0 for every pair (Holm), contradicted if above 0 for one"

// timeOrder is one comparison of a time claim: a against b.
type timeOrder struct {
	a, b string
	kind timeKind
}

// checkTimes decides a family of time comparisons at the largest n where ref was timed.
func checkTimes(dataset, ref string, orders []timeOrder) func(*run.Results) (run.Verdict, error) {
	return func(res *run.Results) (run.Verdict, error) {
		n, err := largestN(res, dataset, ref, mmdMetricSeconds)
		if err != nil {
			return run.Verdict{}, err
		}
		tests := make([]run.Test, len(orders))
		for i, o := range orders {
			if tests[i], err = timeRatio(res, dataset, o.a, o.b, n, o.kind); err != nil {
				return run.Verdict{}, err
			}
		}
		return run.Decide(tests), nil
	}
}

// timeRule is the Rule of the claims decided by checkTimes.
var timeRule = fmt.Sprintf("at the largest n timed, the ratio of median times (each draw timed by run.TimeMedian for every method) with a paired bootstrap 90%% interval: 'faster' supported if below 1, 'similar' if inside [1/%g, %g], contradicted if the ratio is shown to lie on the other side; Holm over the family", mmdSimilarTime, mmdSimilarTime)

// mmdCurves returns, for each method, the mean of metric over each batch's draws at each n,
// summarised over the batches (the mean, and the min–max band of the batch means).
func mmdCurves(res *run.Results, dataset, metric string, methods ...string) ([]curve, error) {
	out := make([]curve, 0, len(methods))
	for _, m := range methods {
		v, err := mmdDrawValues(res, dataset, m, metric, everyN())
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
		out = append(out, curve{Method: m, Points: s})
	}
	return out, nil
}

// mmdDraws returns the number of draws of the run: the sum of the draws of its tasks.
func mmdDraws(res *run.Results, dataset string) (int, error) {
	rows := res.Where(dataset, mmdSetupMethod, mmdMetricDraws)
	if len(rows) == 0 {
		return 0, fmt.Errorf("%s: no %s rows", res.ID, mmdMetricDraws)
	}
	total := 0.0
	for _, r := range rows {
		total += r.Value
	}
	return int(total), nil
}

// mmdLabels are the legend entries of the methods; each is drawn in its method's registered style
// (plotting.MethodStyle: chapter 4's exact MMD is the registry's "exact").
var mmdLabels = map[string]string{
	"linear":  "linear (√n points)",
	"block":   "block (s = log n)",
	"rff":     "RFF (s = log n)",
	"nystrom": "Nyström (s = log n, λ = 0)",
	"exact":   "exact",
}

// mmdShortNames are the methods' names in captions.
var mmdShortNames = map[string]string{"linear": "linear", "block": "block", "rff": "RFF", "nystrom": "Nyström", "exact": "exact"}

// mmdChanceLabel is the legend entry of the chance level 1/2 in the error panel.
const mmdChanceLabel = "chance (error rate 1/2)"

// mmdChanceFrom is the highest error rate (top of a band) from which the error panel draws the
// chance level: half of it.
const mmdChanceFrom = 0.25

// mmdPanelHeight is the height of one panel of a chapter-4 figure, laid out at page width.
const mmdPanelHeight = 5 * vg.Centimeter

// legendMethods maps the legend entries of f's methods to their registered methods (for the
// print checks of the tests); the chance line, when drawn, is mmdChanceLabel → "chance".
func (f mmdFigure) legendMethods() map[string]string {
	out := map[string]string{}
	for _, m := range f.methods() {
		out[mmdLabels[m]] = m
	}
	return out
}

// hiddenCurves says, for the caption, which curves of a panel lie under others: the pairs of
// plotting.Coincident (the same mean at every n they share), and, when partial, the n where
// several methods share one value (an error rate of 0, typically), whose markers sit on top of
// each other there.
func hiddenCurves(panel string, bands []plotting.Band, partial bool) string {
	var notes []string
	whole := map[[2]string]bool{}
	for _, pr := range plotting.Coincident(bands, 0.01) {
		a, b := bands[pr[0]].Method, bands[pr[1]].Method
		whole[[2]string{a, b}] = true
		notes = append(notes, fmt.Sprintf("the %s curve lies under the %s curve (the same mean at every n they share; the %s markers show through)", mmdShortNames[a], mmdShortNames[b], mmdShortNames[a]))
	}
	tail := ""
	if partial {
		shared := sharedValues(bands, whole)
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
func sharedValues(bands []plotting.Band, whole map[[2]string]bool) []string {
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
		for _, b := range bands {
			for k, bx := range b.X {
				if bx != x {
					continue
				}
				v := b.Mean[k]
				if _, ok := byValue[v]; !ok {
					values = append(values, v)
				}
				byValue[v] = append(byValue[v], b.Method)
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
				names[i] = mmdShortNames[m]
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
func (f mmdFigure) render(res *run.Results, out *run.Output) error {
	methods := f.methods()
	errs, err := mmdCurves(res, f.dataset, mmdMetricWrong, methods...)
	if err != nil {
		return err
	}
	deltaMetric, deltaAxis := mmdMetricDelta, "mean Δ on (Z, W)"
	if f.relativeDelta {
		deltaMetric, deltaAxis = mmdMetricRelDelta, "mean Δ / exact MMD² on (Z, W)"
	}
	deltas, err := mmdCurves(res, f.dataset, deltaMetric, methods[:len(methods)-1]...)
	if err != nil {
		return err
	}
	times, err := mmdCurves(res, f.dataset, mmdMetricSeconds, methods...)
	if err != nil {
		return err
	}
	a := plotting.NewPrint("three-sample error rate", "sample size n", "error rate")
	b := plotting.NewPrint("distance Δ to the exact MMD²", "sample size n", deltaAxis)
	c := plotting.NewPrint("time of one MMD² estimate", "sample size n", "median time (s)")
	bands := [3][]plotting.Band{methodBands(errs, mmdLabels), methodBands(deltas, mmdLabels), methodBands(times, mmdLabels)}
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
	chance := a.Y.Max >= mmdChanceFrom
	if chance {
		if err := plotting.AddMethodHLine(a, 0.5, mmdChanceLabel, "chance"); err != nil {
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
	if err := savePrintGrid(out, rows, cols, plotting.PageWidth, mmdPanelHeight, plotting.LegendBelow, panels...); err != nil {
		return err
	}
	caption, err := f.caption(res, errs, bands, chance)
	if err != nil {
		return err
	}
	return writeCaption(out, res, caption)
}

// caption describes the figure from its results: the problem and data, the sizes, the draws and
// their batches, what the curves and bands are, the timing protocol, the set-up choices, and the
// curves that lie under others.
func (f mmdFigure) caption(res *run.Results, errs []curve, bands [3][]plotting.Band, chance bool) (string, error) {
	draws, err := mmdDraws(res, f.dataset)
	if err != nil {
		return "", err
	}
	batches := len(res.Where(f.dataset, mmdSetupMethod, mmdMetricDraws))
	ns := make([]float64, 0, len(errs[0].Points))
	for _, s := range errs[0].Points {
		ns = append(ns, s.X)
	}
	exactMax := byMethod(errs)["exact"].last().X
	// Timed draws per batch: the linear estimate is timed at every n.
	timed := 0
	for _, r := range res.Where(f.dataset, "linear", mmdMetricSeconds) {
		if n, err := r.ParamFloat("n"); err == nil && n == ns[0] {
			timed++
		}
	}
	timing := "the first draw of each batch is timed"
	if k := timed / max(batches, 1); k != 1 {
		timing = fmt.Sprintf("the first %d draws of each batch are timed", k)
	}
	if sz, ok := f.sizes[res.Scale]; ok {
		timing += fmt.Sprintf(", each decision %d times after a warm-up call; the time of one MMD² estimate is half the median time of a decision", sz.timeCalls)
	}
	exactText := "the exact MMD² is computed at every n"
	if exactMax < ns[len(ns)-1] {
		exactText = fmt.Sprintf("the exact MMD² is computed up to n = %g, so its curves and Δ stop there", exactMax)
	}
	chanceText := fmt.Sprintf(" (every band stays below %g, far from chance, 1/2)", mmdChanceFrom)
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
		f.describe, f.setup(res.Scale), methods, plainFloats(ns), exactText, chanceText, deltaText, timing,
		draws, batches, draws/max(batches, 1), batches)
	text += hiddenCurves("(a)", bands[0], true) + hiddenCurves("(b)", bands[1], false) + hiddenCurves("(c)", bands[2], false)
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
func logYWhenPositive(p *plot.Plot, cs []curve) (bool, error) {
	for _, c := range cs {
		for _, s := range c.Points {
			if !(s.Min > 0) {
				return false, nil
			}
		}
	}
	return true, plotting.LogY(p)
}
