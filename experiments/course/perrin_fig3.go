package course

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/vg"
)

// pairedLogRatio returns ln(a) − ln(b) for the rows of methods a and b at x = v, paired by
// repetition (the same sample and clustering measured by both).
func pairedLogRatio(res *run.Results, a, b, x string, v float64) ([]float64, error) {
	logRows := func(method string) ([]run.Row, error) {
		rows, err := rowsAt(res, method, metricRelErr, x, v)
		if err != nil {
			return nil, err
		}
		out := make([]run.Row, len(rows))
		for i, r := range rows {
			if !(r.Value > 0) {
				return nil, fmt.Errorf("%s: %s error %g at %s = %g has no logarithm", res.ID, method, r.Value, x, v)
			}
			out[i] = r
			out[i].Value = math.Log(r.Value)
		}
		return out, nil
	}
	ra, err := logRows(a)
	if err != nil {
		return nil, err
	}
	rb, err := logRows(b)
	if err != nil {
		return nil, err
	}
	return run.PairedDifferences(ra, rb)
}

// The MEKA variants of perrin_fig3: the paper's defaults, and one change each that isolates a cause
// of the defaults' failures (see perrinFig3).
const (
	mekaDefault = "meka"          // η = 0.1, 3k sampled rows per cluster
	mekaAllRows = "meka-all-rows" // η = 0.1, links fitted on every row of each cluster
	mekaEtaZero = "meka-eta0"     // η = 0, 3k sampled rows per cluster
)

// perrinFig3Input is what every series of perrin_fig3 is computed from at one γ: the kernel, the
// sample, its Gram matrix and clustering, and the set-up.
type perrinFig3Input struct {
	k      kernel.Kernel
	X      *mat.Dense
	G      *mat.SymDense
	labels []int
	s      perrinSetup
}

// perrinFig3Series computes one series' relative Frobenius error; ok is false where the series is
// not computed (the best rank-k error, O(n³), in the first bestReps repetitions only).
type perrinFig3Series func(rng *rand.Rand, in perrinFig3Input) (err float64, ok bool, _ error)

// perrinFig3Table is perrin_fig3's method table in legend order, which is also the order the
// series draw from the repetition's generator.
var perrinFig3Table = kit.Methods[perrinFig3Series]{
	{ID: "nystrom", Label: "Nyström (2k landmarks)", Run: func(rng *rand.Rand, in perrinFig3Input) (float64, bool, error) {
		e, _, err := nystromError(rng, in.k, in.X, 2*in.s.rank, in.s.rank, 0)
		return e, true, err
	}},
	{ID: mekaDefault, Label: "MEKA, paper defaults", Run: mekaVariant(lowrank.MEKAOptions{})},
	{ID: mekaAllRows, Label: "MEKA, links on all rows", Run: func(rng *rand.Rand, in perrinFig3Input) (float64, bool, error) {
		return mekaVariant(lowrank.MEKAOptions{SamplesPerRank: in.s.n})(rng, in) // capped at each cluster's size: every row
	}},
	{ID: mekaEtaZero, Label: "MEKA, η = 0", Run: mekaVariant(lowrank.MEKAOptions{Eta: lowrank.KeepAllBlocks})},
	{ID: "bka", Label: "BKA", Run: func(_ *rand.Rand, in perrinFig3Input) (float64, bool, error) {
		block, err := lowrank.BKA(in.G, in.labels)
		if err != nil {
			return 0, false, err
		}
		e, err := lowrank.RelativeFrobenius(in.G, block)
		return e, true, err
	}},
	{ID: "best-rank-k", Label: "best rank k", Run: func(_ *rand.Rand, in perrinFig3Input) (float64, bool, error) {
		if in.s.rep >= in.s.bestReps {
			return 0, false, nil
		}
		e, err := lowrank.BestRankKError(in.G, in.s.rank)
		return e, true, err
	}},
}

// mekaVariant is the series of MEKA with rank k per cluster and the given options.
func mekaVariant(opts lowrank.MEKAOptions) perrinFig3Series {
	return func(rng *rand.Rand, in perrinFig3Input) (float64, bool, error) {
		e, err := mekaError(rng, in.k, in.X, in.labels, in.s.rank, opts)
		return e, true, err
	}
}

// perrinFig3Methods are the series of perrin_fig3, in legend order; perrinFig3Labels their legend
// entries (the caption gives the set-up).
var (
	perrinFig3Methods = perrinFig3Table.IDs()
	perrinFig3Labels  = perrinFig3Table.Labels()
)

// perrin_fig3 — error against the kernel scale γ (the course report, §4, third figure): Nyström (rank k of 2k
// landmarks), MEKA (rank k per cluster), BKA on the same k-means clusters and the best rank-k
// approximation, on a log grid γ = 2⁻⁶ … 2² that goes from a smooth, low-rank Gram matrix to a
// nearly block-diagonal one. The report's claims: Nyström is good only for small γ, MEKA for both
// (one claim per MEKA variant below, since the verdict depends on it).
// Every method of a repetition sees the same sample and (for MEKA and BKA) the same clusters, so
// the claims compare them paired by repetition.
//
// Our MEKA was run against the authors' MATLAB code on identical clusters and landmarks: the errors
// agree to 10 significant digits. With the paper's defaults it fails at both ends of the grid, for
// two reasons of its own that the figure isolates with one change each:
//   - at large γ the off-diagonal least squares, fitted on 3k sampled rows and columns per cluster,
//     extrapolates badly to the rows not sampled, and the error exceeds 1 in many repetitions (the
//     authors' code is above 1 in 29 of 38 runs at γ = 4); fitted on all rows ("meka-all-rows") it
//     falls to about 0.55. At quick scale (n = 2000, 10 clusters of about 200 points, k = 50) 3k =
//     150 rows is most of each cluster already, and any larger sample (the former "10k rows"
//     diagnostic) is every row.
//   - at small γ, η = 0.1 drops the 4 least similar of the 45 off-diagonal blocks, which carry
//     real mass when the kernel is wide: the error stays near 0.013, while η = 0 ("meka-eta0")
//     gives about 1e-4.
//
// The figure shows the median and the quartiles over the repetitions (MEKA's errors have a heavy
// upper tail, which a mean would follow), and a caption (perrin_fig3.md) says the above. The best
// rank-k error, an O(n³) eigendecomposition per γ that would dominate the cost, is computed in the
// first 5 repetitions only: it is a reference line that hardly varies between samples.
func perrinFig3() *run.Experiment {
	gammas := func(exps ...int) []float64 {
		out := make([]float64, len(exps))
		for i, e := range exps {
			out[i] = math.Ldexp(1, e)
		}
		return out
	}
	setups := run.PerScale[perrinSetup]{
		Smoke: perrinSetup{n: 300, reps: 3, bestReps: 3, clusters: 3, rank: 10, grid: gammas(-6, -2, 2)},
		Quick: perrinSetup{n: 2000, reps: 20, bestReps: 5, clusters: 10, rank: 50, grid: gammas(-6, -4, -2, 0, 2)},
		Paper: perrinSetup{n: 8000, reps: 20, bestReps: 5, clusters: 10, rank: 50, grid: gammas(-6, -5, -4, -3, -2, -1, 0, 1, 2)},
	}
	return &run.Experiment{
		ID: "perrin_fig3", Title: "Nyström, MEKA, BKA and best rank-k error vs kernel scale (course report)", Kind: run.Figure, Seed: 1003,
		Plan:   perrinPlan("perrin_fig3", setups, perrinFig3Rep),
		Render: renderPerrinFig3,
		Claims: append([]run.Claim{
			{
				ID:   "nystrom-small-gamma-only",
				Kind: run.Finding,
				Text: "Nyström is accurate only for small γ (low-rank Gram matrix): its error at the largest γ is at least 10× that at the smallest",
				Rule: "per repetition (the same sample at every γ), ln error at the largest γ − ln error at the smallest; one-sided t test: " +
					"supported if the mean is above ln 10 (an order of magnitude, fixed from the claim's words 'only for small γ'), contradicted if below",
				Check: checkPerrinFig3Nystrom,
			},
		}, perrinFig3MEKAClaims()...),
	}
}

// perrinFig3Variant is a MEKA variant of perrin_fig3 as its claim names it: the method, the suffix
// of its claim's ID and what sets it apart.
type perrinFig3Variant struct{ method, suffix, name string }

// perrinFig3Variants are the MEKA variants, one meka-both-regimes claim each: the report's sentence
// is about MEKA, and its verdict depends on the variant (the defaults fail at large γ through the
// least squares on sampled rows and at small γ through η; each other variant removes one cause).
var perrinFig3Variants = []perrinFig3Variant{
	{mekaDefault, "defaults", "MEKA with the paper's defaults (η = 0.1, links fitted on 3k sampled rows per cluster)"},
	{mekaAllRows, "all-rows", "MEKA with its links fitted on every row of each cluster (η = 0.1)"},
	{mekaEtaZero, "eta0", "MEKA with η = 0, no off-diagonal block dropped (links on 3k sampled rows per cluster)"},
}

// perrinFig3MEKAClaims are the course report's "MEKA is good for both small and large γ", one
// claim per variant.
func perrinFig3MEKAClaims() []run.Claim {
	claims := make([]run.Claim, len(perrinFig3Variants))
	for i, v := range perrinFig3Variants {
		claims[i] = run.Claim{
			ID:   "meka-both-regimes-" + v.suffix,
			Kind: run.Finding,
			Text: v.name + " is good for both small and large γ: below Nyström at the largest γ, within 2× of it at the smallest",
			Rule: "per repetition, ln(MEKA error) − ln(Nyström error) on the same sample, this variant of MEKA; family of two one-sided t tests (Holm): " +
				"supported if the mean is below 0 at the largest γ and below ln 2 at the smallest, contradicted if either is shown above; " +
				"the report's MEKA is tested as each of three variants, one claim each (meka-both-regimes-defaults, -all-rows, -eta0)",
			Check: func(res *run.Results) (verdict.Verdict, error) { return checkPerrinFig3MEKA(res, v) },
		}
	}
	return claims
}

// perrinFig3Rep is one repetition of perrin_fig3: one sample, one clustering, every γ.
func perrinFig3Rep(ctx context.Context, env *run.Env, s perrinSetup) ([]run.Record, error) {
	X, labels, err := clusteredSample(ctx, env.Data, env.RNG, s)
	if err != nil {
		return nil, err
	}
	recs := s.records()
	sizes := map[int]int{}
	for _, l := range labels {
		sizes[l]++
	}
	sampled := 0
	for _, size := range sizes {
		sampled += min(3*s.rank, size)
	}
	recs = append(recs, run.Record{Dataset: perrinDataset, Method: mekaDefault, Metric: metricSampledRows, Value: float64(sampled) / float64(len(labels))})
	for _, gamma := range s.grid {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, err := gaussianGamma(gamma)
		if err != nil {
			return nil, err
		}
		G, err := kernel.Gram(k, X)
		if err != nil {
			return nil, err
		}
		in := perrinFig3Input{k: k, X: X, G: G, labels: labels, s: s}
		values := map[string]float64{}
		for _, m := range perrinFig3Table {
			v, ok, err := m.Run(env.RNG, in)
			if err != nil {
				return nil, fmt.Errorf("%s at γ = %g: %w", m.ID, gamma, err)
			}
			if ok {
				values[m.ID] = v
			}
		}
		params := []run.Param{run.P("gamma", gamma)}
		for _, m := range perrinFig3Methods {
			if v, ok := values[m]; ok {
				recs = append(recs, run.Record{Dataset: perrinDataset, Method: m, Params: params, Metric: metricRelErr, Value: v})
			}
		}
	}
	return recs, nil
}

// perrinFig3Range returns the smallest and the largest γ of the results.
func perrinFig3Range(res *run.Results) (lo, hi float64, err error) {
	cs, err := kit.Curves(res, perrinDataset, metricRelErr, "gamma", "nystrom")
	if err != nil {
		return 0, 0, err
	}
	return cs[0].First().X, cs[0].Last().X, nil
}

func checkPerrinFig3Nystrom(res *run.Results) (verdict.Verdict, error) {
	lo, hi, err := perrinFig3Range(res)
	if err != nil {
		return verdict.Verdict{}, err
	}
	at := func(g float64) ([]run.Row, error) {
		rows, err := rowsAt(res, "nystrom", metricRelErr, "gamma", g)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			if !(rows[i].Value > 0) {
				return nil, fmt.Errorf("%s: Nyström error %g has no logarithm", res.ID, rows[i].Value)
			}
			rows[i].Value = math.Log(rows[i].Value)
			rows[i].Params = nil // pair the two γ by repetition
		}
		return rows, nil
	}
	a, err := at(hi)
	if err != nil {
		return verdict.Verdict{}, err
	}
	b, err := at(lo)
	if err != nil {
		return verdict.Verdict{}, err
	}
	d, err := run.PairedDifferences(a, b)
	if err != nil {
		return verdict.Verdict{}, err
	}
	t := verdict.MeanAbove(fmt.Sprintf("Nyström: ln error at γ = %g − at γ = %g", hi, lo), d, math.Log(10))
	return verdict.Decide([]verdict.Test{t}, fmt.Sprintf("mean ratio of the errors e^d = %.3g", math.Exp(t.Estimate))), nil
}

// perrinFig3MEKATests are the two tests of meka-both-regimes for one MEKA variant.
func perrinFig3MEKATests(res *run.Results, method string) ([]verdict.Test, error) {
	lo, hi, err := perrinFig3Range(res)
	if err != nil {
		return nil, err
	}
	dHi, err := pairedLogRatio(res, method, "nystrom", "gamma", hi)
	if err != nil {
		return nil, err
	}
	dLo, err := pairedLogRatio(res, method, "nystrom", "gamma", lo)
	if err != nil {
		return nil, err
	}
	return []verdict.Test{
		verdict.MeanBelow(fmt.Sprintf("%s: ln(MEKA/Nyström) at γ = %g", method, hi), dHi, 0),
		verdict.MeanBelow(fmt.Sprintf("%s: ln(MEKA/Nyström) at γ = %g", method, lo), dLo, math.Log(2)),
	}, nil
}

// checkPerrinFig3MEKA decides meka-both-regimes for one MEKA variant, with the variant's and
// Nyström's medians at both ends of the grid and, for the defaults, how often their error exceeds 1.
func checkPerrinFig3MEKA(res *run.Results, v perrinFig3Variant) (verdict.Verdict, error) {
	tests, err := perrinFig3MEKATests(res, v.method)
	if err != nil {
		return verdict.Verdict{}, err
	}
	lo, hi, err := perrinFig3Range(res)
	if err != nil {
		return verdict.Verdict{}, err
	}
	var notes []string
	for _, g := range []float64{hi, lo} {
		parts := make([]string, 0, 2)
		for _, m := range []string{v.method, "nystrom"} {
			values, err := valuesAt(res, m, metricRelErr, "gamma", g)
			if err != nil {
				return verdict.Verdict{}, err
			}
			q := quartiles(values)
			parts = append(parts, fmt.Sprintf("%s %.3g [%.3g, %.3g]", m, q[1], q[0], q[2]))
		}
		notes = append(notes, fmt.Sprintf("median [quartiles] at γ = %g: %s", g, strings.Join(parts, ", ")))
	}
	if v.method == mekaDefault {
		above, err := valuesAt(res, mekaDefault, metricRelErr, "gamma", hi)
		if err != nil {
			return verdict.Verdict{}, err
		}
		count := 0
		for _, e := range above {
			if e > 1 {
				count++
			}
		}
		notes = append(notes, fmt.Sprintf("MEKA (defaults) error above 1 at γ = %g in %d of %d repetitions: the off-diagonal least squares on 3k sampled rows extrapolates badly there (the authors' code too)", hi, count, len(above)))
	}
	if f := res.Where(perrinDataset, mekaDefault, metricSampledRows); len(f) > 0 && v.method != mekaAllRows {
		notes = append(notes, fmt.Sprintf("3k sampled rows per cluster are %.0f%% of the rows here", 100*f[0].Value))
	}
	return verdict.Decide(tests, notes...), nil
}

// quartiles returns the first quartile, the median and the third quartile of v (empirical).
func quartiles(v []float64) [3]float64 {
	sorted := slices.Clone(v)
	slices.Sort(sorted)
	var q [3]float64
	for i, p := range []float64{0.25, 0.5, 0.75} {
		q[i] = stat.Quantile(p, stat.Empirical, sorted, nil)
	}
	return q
}

// quartileBands draws each method's median over the repetitions against x with a band from the
// first to the third quartile.
func quartileBands(res *run.Results, metric, x string, labels map[string]string, methods ...string) ([]plotting.Band, error) {
	bands := make([]plotting.Band, 0, len(methods))
	for _, m := range methods {
		cs, err := kit.Curves(res, perrinDataset, metric, x, m)
		if err != nil {
			return nil, err
		}
		b, err := styles.Band(labels[m], m)
		if err != nil {
			return nil, err
		}
		for _, p := range cs[0].Points {
			v, err := valuesAt(res, m, metric, x, p.X)
			if err != nil {
				return nil, err
			}
			q := quartiles(v)
			b.X, b.Lo, b.Mean, b.Hi = append(b.X, p.X), append(b.Lo, q[0]), append(b.Mean, q[1]), append(b.Hi, q[2])
		}
		bands = append(bands, b)
	}
	return bands, nil
}

func renderPerrinFig3(res *run.Results, out *run.Output) error {
	share := "?"
	if f := res.Where(perrinDataset, mekaDefault, metricSampledRows); len(f) > 0 {
		share = fmt.Sprintf("%.0f%%", 100*f[0].Value)
	}
	bands, err := quartileBands(res, metricRelErr, "gamma", perrinFig3Labels, perrinFig3Methods...)
	if err != nil {
		return err
	}
	reps := "?"
	if len(bands) > 0 {
		if v, err := valuesAt(res, "nystrom", metricRelErr, "gamma", bands[0].X[0]); err == nil {
			reps = strconv.Itoa(len(v))
		}
	}
	bestReps := "?"
	if v, err := valuesAt(res, "best-rank-k", metricRelErr, "gamma", bands[0].X[0]); err == nil {
		bestReps = strconv.Itoa(len(v))
	}
	p := plotting.NewPrint("", "kernel scale γ in exp(−γ‖x − z‖²)", "relative Frobenius error")
	if err := kit.LogLog(p); err != nil {
		return err
	}
	if err := plotting.AddBands(p, bands...); err != nil {
		return err
	}
	if err := kit.SavePrintGrid(out, 1, 1, plotting.PageWidth, 7*vg.Centimeter, plotting.LegendRight, p); err != nil {
		return err
	}
	result, caption, err := perrinFig3CaptionText(res, reps, bestReps, share)
	if err != nil {
		return err
	}
	caption += perrinFig3Overlap(bands, mekaDefault, mekaEtaZero)
	for _, pair := range plotting.Coincident(bands, 0.01) {
		caption += fmt.Sprintf(" %s and %s agree within 1%% at every γ: the line of the first lies under the second, their markers show both.",
			bands[pair[0]].Label, bands[pair[1]].Label)
	}
	return kit.WriteCaption(out, res, result, caption)
}

// perrinFig3Overlap says at which γ the medians of two series (by method) agree within 5%, so that
// one line lies on the other there; "" when they agree nowhere.
func perrinFig3Overlap(bands []plotting.Band, a, b string) string {
	ia, ib := slices.Index(perrinFig3Methods, a), slices.Index(perrinFig3Methods, b)
	if ia < 0 || ib < 0 || ia >= len(bands) || ib >= len(bands) {
		return ""
	}
	var at []float64
	for k, x := range bands[ia].X {
		for l, y := range bands[ib].X {
			u, v := bands[ia].Mean[k], bands[ib].Mean[l]
			if x == y && math.Abs(u-v) <= 0.05*max(math.Abs(u), math.Abs(v)) {
				at = append(at, x)
			}
		}
	}
	if len(at) == 0 {
		return ""
	}
	where := make([]string, len(at))
	for i, g := range at {
		where[i] = fmt.Sprintf("γ = %g", g)
	}
	return fmt.Sprintf(" At %s the medians of “%s” and “%s” agree within 5%%: the line of “%s” lies on that of “%s” there (their markers differ).",
		strings.Join(where, " and at "), bands[ia].Label, bands[ib].Label, bands[ib].Label, bands[ia].Label)
}

// perrinFig3CaptionText returns the result and the set-up of the caption, with the medians they
// refer to read from the results.
func perrinFig3CaptionText(res *run.Results, reps, bestReps, share string) (result, setup string, err error) {
	lo, hi, err := perrinFig3Range(res)
	if err != nil {
		return "", "", err
	}
	median := func(method string, g float64) (float64, error) {
		v, err := valuesAt(res, method, metricRelErr, "gamma", g)
		if err != nil {
			return 0, err
		}
		return quartiles(v)[1], nil
	}
	var med [6]float64
	for i, q := range []struct {
		m string
		g float64
	}{{mekaDefault, hi}, {mekaAllRows, hi}, {"nystrom", hi}, {mekaDefault, lo}, {mekaEtaZero, lo}, {"nystrom", lo}} {
		if med[i], err = median(q.m, q.g); err != nil {
			return "", "", err
		}
	}
	above, err := valuesAt(res, mekaDefault, metricRelErr, "gamma", hi)
	if err != nil {
		return "", "", err
	}
	count := 0
	for _, v := range above {
		if v > 1 {
			count++
		}
	}
	result = fmt.Sprintf("At γ = %g MEKA with the paper's defaults has median error %.3g (above 1 in %d of %d samples), %.3g with its links fitted on all rows, "+
		"against Nyström's %.3g; at γ = %g its median is %.3g, %.3g with η = 0, against Nyström's %.3g.",
		hi, med[0], count, len(above), med[1], med[2], lo, med[3], med[4], med[5])
	var b strings.Builder
	fmt.Fprintf(&b, "Relative Frobenius error ‖G − Ĝ‖_F / ‖G‖_F against the kernel scale γ (course report, third figure). Data: %s points "+
		"drawn uniformly from California housing (8 standardised features), a new sample and k-means clustering (%s clusters) in "+
		"each of %s repetitions, shared by the methods; rank k = %s (Nyström: rank k of 2k uniform landmarks; "+
		"MEKA and BKA: rank k per cluster, so up to %s clusters × k in all: the best rank-k error, computed in the first %s repetitions only, does not bound them). "+
		"MEKA's defaults: η = 0.1 (the least similar tenth of the off-diagonal blocks set to zero), links fitted by least squares on 3k sampled rows per cluster (here %s of all rows); "+
		"our MEKA agrees with the authors' MATLAB code to 10 significant digits on identical clusters and landmarks, and their code is above 1 in 29 of 38 runs at γ = 4. "+
		"Lines: median over the repetitions; bands: first to third quartile (MEKA's errors have a heavy upper tail). Log-log axes.",
		setupValue(res, "n"), setupValue(res, "clusters"), reps, setupValue(res, "rank"), setupValue(res, "clusters"), bestReps, share)
	if f := res.Where(perrinDataset, mekaDefault, metricSampledRows); len(f) > 0 && f[0].Value > 0.5 {
		b.WriteString(" At this scale the clusters are small: 3k sampled rows are already most of each, and any larger sample is every row.")
	}
	return result, b.String(), nil
}
