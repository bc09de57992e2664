package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

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
// block, RFF, Nyström), s = log n for block, RFF and Nyström (§4.6.1). Per method and n a figure
// shows (a) the error rate, the fraction of draws that attribute W to P_Z; (b) Δ, the mean of
// |MMD²_approx(Z, W) − MMD²_exact(Z, W)| on the draws where the exact value was computed; (c) the
// wall-clock time of one MMD² estimate.
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
//   - Timing: the estimators run on all cores, so the tasks run one at a time (Serial) and each
//     estimate is timed alone with the wall clock; the figure shows the mean over the draws of the
//     time of one MMD² estimate (half the time of a decision).
//   - A task is a batch of draws at every n, so a paper-scale run shards by batch; the error of a
//     batch is one row, and the bands show the spread of the batch means (min–max over batches).
const (
	mmdMetricError   = "error"
	mmdMetricDelta   = "delta"
	mmdMetricSeconds = "seconds"
	// mmdSetupMethod rows record the draws of each task (metric mmdMetricDraws), for titles and for
	// the standard errors of the claims.
	mmdSetupMethod = "setup"
	mmdMetricDraws = "draws"
	// mmdSlopeTolerance is how far apart two fitted log-log slopes of Δ against n may be for two
	// methods to "converge at the same speed".
	mmdSlopeTolerance = 0.25
	// mmdSigmas is the number of standard errors of a claim that compares error rates with chance
	// or with each other.
	mmdSigmas = 3
)

// mmdSizes are the sample sizes and draws of one figure at one scale.
type mmdSizes struct {
	n []int
	// exactMax is the largest n at which the exact MMD² is computed.
	exactMax int
	// tasks × drawsPerTask draws in all.
	tasks, drawsPerTask int
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
	// load prepares the data of one task and returns its sampler; it runs once per task.
	load func(ctx context.Context, sc run.Scale) (mmdSampler, error)
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
	return tasks, nil
}

// mmdTally accumulates one method's decisions, times and distances to the exact MMD² at one n.
type mmdTally struct {
	draws, errors, withExact int
	seconds, delta           float64
}

// runBatch draws sz.drawsPerTask three-sample problems at every n and decides each with every
// method; the draws come from rng in a fixed order (n ascending, then draw, then the estimators in
// legend order), so a batch's numbers depend only on its key.
func (f mmdFigure) runBatch(ctx context.Context, rng *rand.Rand, sc run.Scale, sz mmdSizes) ([]run.Record, error) {
	sample, err := f.load(ctx, sc)
	if err != nil {
		return nil, err
	}
	approx := f.approximations()
	recs := []run.Record{{Dataset: f.dataset, Method: mmdSetupMethod, Metric: mmdMetricDraws, Value: float64(sz.drawsPerTask)}}
	for _, n := range sz.n {
		tallies := make(map[string]*mmdTally, len(approx)+1)
		for _, m := range f.methods() {
			tallies[m] = &mmdTally{}
		}
		for range sz.drawsPerTask {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			d, err := sample(rng, n)
			if err != nil {
				return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
			}
			exactZW := math.NaN()
			if n <= sz.exactMax {
				dec, err := tallies["exact"].decide(ctx, mmd.Exact{}, rng, d)
				if err != nil {
					return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
				}
				exactZW = dec.ZW
			}
			for _, est := range approx {
				t := tallies[est.Name()]
				dec, err := t.decide(ctx, est, rng, d)
				if err != nil {
					return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
				}
				if !math.IsNaN(exactZW) {
					t.delta += math.Abs(dec.ZW - exactZW)
					t.withExact++
				}
			}
		}
		for _, m := range f.methods() {
			recs = append(recs, tallies[m].records(f.dataset, m, n)...)
		}
	}
	return recs, nil
}

// decide solves one three-sample problem with est, timing it, and counts the decision.
func (t *mmdTally) decide(ctx context.Context, est mmd.Estimator, rng *rand.Rand, d threeSampleDraw) (mmd.Decision, error) {
	start := time.Now()
	dec, err := mmd.ThreeSample(ctx, est, rng, d.points, d.x, d.z, d.w)
	if err != nil {
		return dec, err
	}
	t.seconds += time.Since(start).Seconds() / 2
	t.draws++
	if !dec.FromX() {
		t.errors++
	}
	return dec, nil
}

// records returns the batch's error rate, mean time per estimate and mean Δ (when the exact MMD²
// was computed) for one method at one n; none when the method did not run.
func (t *mmdTally) records(dataset, method string, n int) []run.Record {
	if t.draws == 0 {
		return nil
	}
	params := []run.Param{run.P("n", n)}
	if method == "block" || method == "rff" || method == "nystrom" {
		params = append(params, run.P("s", mmd.DefaultSize(n)))
	}
	recs := []run.Record{
		{Dataset: dataset, Method: method, Params: params, Metric: mmdMetricError, Value: float64(t.errors) / float64(t.draws)},
		{Dataset: dataset, Method: method, Params: params, Metric: mmdMetricSeconds, Value: t.seconds / float64(t.draws)},
	}
	if t.withExact > 0 {
		recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: params, Metric: mmdMetricDelta, Value: t.delta / float64(t.withExact)})
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

// mmdCurves returns the curves of metric for the given methods, by method.
func mmdCurves(res *run.Results, dataset, metric string, methods ...string) (map[string]curve, error) {
	cs, err := curves(res, dataset, metric, "n", methods...)
	if err != nil {
		return nil, err
	}
	return byMethod(cs), nil
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

// chanceMargin is mmdSigmas standard errors of an error rate of 1/2 over draws decisions: an error
// rate within it of 1/2 is indistinguishable from a coin toss.
func chanceMargin(draws int) float64 {
	return mmdSigmas * 0.5 / math.Sqrt(float64(draws))
}

// meanOver averages a curve's means over the sample sizes n that keep accepts, and returns the n
// it used.
func meanOver(c curve, keep func(n float64) bool) (float64, []float64) {
	var sum float64
	var used []float64
	for _, s := range c.Points {
		if keep(s.X) {
			sum += s.Mean
			used = append(used, s.X)
		}
	}
	if len(used) == 0 {
		return math.NaN(), nil
	}
	return sum / float64(len(used)), used
}

// valueAt returns the mean of a curve at n, NaN when the curve has no point there.
func valueAt(c curve, n float64) float64 {
	if s, ok := c.at(n); ok {
		return s.Mean
	}
	return math.NaN()
}

// describeAt prints the means of the methods' curves at n, e.g. "linear 0.5, block 0.45".
func describeAt(cs map[string]curve, n float64, methods ...string) string {
	parts := make([]string, len(methods))
	for i, m := range methods {
		parts[i] = fmt.Sprintf("%s %.4g", m, valueAt(cs[m], n))
	}
	return strings.Join(parts, ", ")
}

// everyN is the filter of meanOver that keeps every sample size.
func everyN(float64) bool { return true }

// claimFewestErrors checks that best makes no more errors than any of others, on average over the
// sample sizes that keep accepts (where, in words, says which), all at one n of the grid at least.
func claimFewestErrors(id, text, dataset, best string, others []string, keep func(float64) bool, where string) run.Claim {
	return run.Claim{ID: id, Text: text, Check: func(res *run.Results) (run.Verdict, error) {
		cs, err := mmdCurves(res, dataset, mmdMetricError, append([]string{best}, others...)...)
		if err != nil {
			return run.Verdict{}, err
		}
		bestMean, used := meanOver(cs[best], keep)
		if len(used) == 0 {
			return run.Verdict{Outcome: legacyOutcome(false), Evidence: fmt.Sprintf("%s has no sample size %s in this run", best, where)}, nil
		}
		inUsed := func(n float64) bool { return slices.Contains(used, n) }
		pass := true
		parts := []string{fmt.Sprintf("%s %.4g", best, bestMean)}
		for _, o := range others {
			m, _ := meanOver(cs[o], inUsed)
			pass = pass && bestMean <= m
			parts = append(parts, fmt.Sprintf("%s %.4g", o, m))
		}
		return run.Verdict{Outcome: legacyOutcome(pass), Evidence: fmt.Sprintf("mean error over n = %v: %s", used, strings.Join(parts, ", "))}, nil
	}}
}

// claimSameConvergence checks that methods a and b approach the exact MMD² at the same speed: the
// log-log slopes of their mean Δ against n differ by at most mmdSlopeTolerance.
func claimSameConvergence(id, text, dataset, a, b string) run.Claim {
	return run.Claim{ID: id, Text: text, Check: func(res *run.Results) (run.Verdict, error) {
		cs, err := mmdCurves(res, dataset, mmdMetricDelta, a, b)
		if err != nil {
			return run.Verdict{}, err
		}
		sa, err := logLogSlope(xs(cs[a]), cs[a].means())
		if err != nil {
			return run.Verdict{}, err
		}
		sb, err := logLogSlope(xs(cs[b]), cs[b].means())
		if err != nil {
			return run.Verdict{}, err
		}
		return run.Verdict{
			Outcome: legacyOutcome(math.Abs(sa-sb) <= mmdSlopeTolerance),
			Evidence: fmt.Sprintf("log-log slope of mean Δ vs n over n = %v: %s %.3f, %s %.3f (tolerance %.2f); mean Δ at n = %g: %s %.3g, %s %.3g",
				xs(cs[a]), a, sa, b, sb, mmdSlopeTolerance, cs[a].last().X, a, cs[a].last().Mean, b, cs[b].last().Mean),
		}, nil
	}}
}

// claimExactFewest checks that the exact MMD makes no more errors than any approximation, on
// average over the sample sizes where it ran.
func claimExactFewest(id, dataset string, approximations []string) run.Claim {
	return claimFewestErrors(id, "the exact MMD makes the fewest errors (mean error over the n where it ran ≤ that of every approximation over the same n)",
		dataset, "exact", approximations, everyN, "")
}

// mmdLabels are the legend entries of the methods.
var mmdLabels = map[string]string{
	"linear":  "linear (√n points)",
	"block":   "block (s = log n)",
	"rff":     "RFF (s = log n)",
	"nystrom": "Nyström (s = log n, λ = 0)",
	"exact":   "exact",
}

// render draws the three panels: error rate, Δ and time against n, each method's mean over the
// draws with the min–max band of its batch means; the exact MMD, the reference, is dashed.
func (f mmdFigure) render(res *run.Results, out *run.Output) error {
	methods := f.methods()
	errs, err := curves(res, f.dataset, mmdMetricError, "n", methods...)
	if err != nil {
		return err
	}
	deltas, err := curves(res, f.dataset, mmdMetricDelta, "n", methods[:len(methods)-1]...)
	if err != nil {
		return err
	}
	times, err := curves(res, f.dataset, mmdMetricSeconds, "n", methods...)
	if err != nil {
		return err
	}
	draws, err := mmdDraws(res, f.dataset)
	if err != nil {
		return err
	}
	a := plotting.New(fmt.Sprintf("%s: three-sample error, %d draws", f.describe, draws), "sample size n", "error rate")
	b := plotting.New("distance to the exact MMD² on (Z, W)", "sample size n", "mean |MMD²_approx − MMD²_exact|")
	c := plotting.New("time of one MMD² estimate", "sample size n", "time (s)")
	for _, panel := range []struct {
		p  *plot.Plot
		cs []curve
	}{{a, errs}, {b, deltas}, {c, times}} {
		if err := addMinMaxBands(panel.p, panel.cs, mmdLabels, "exact"); err != nil {
			return err
		}
		if err := plotting.LogX(panel.p); err != nil {
			return err
		}
	}
	a.Y.Min = 0
	if err := logYWhenPositive(b, deltas); err != nil {
		return err
	}
	if err := plotting.LogY(c); err != nil {
		return err
	}
	return saveRow(out, 11*vg.Centimeter, 9*vg.Centimeter, a, b, c)
}

// logYWhenPositive puts p's y axis on a log scale unless a band of cs reaches 0 (Δ is exactly 0
// when an approximation uses every point), in which case the axis stays linear.
func logYWhenPositive(p *plot.Plot, cs []curve) error {
	for _, c := range cs {
		for _, s := range c.Points {
			if !(s.Min > 0) {
				return nil
			}
		}
	}
	return plotting.LogY(p)
}
