package experiments

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/learn"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// The course report (seed 000) names neither its data nor its sizes. Its three figures are rebuilt
// on California housing ("houses", 20,640 points, 8 features), which the MEKA paper also used, with
// the features standardised and the Gaussian kernel exp(−γ||x − z||²) (σ = 1/√(2γ)). Standardised
// 8-dimensional data have a mean squared distance of 16, so γ = 0.1 gives kernel values around
// e^{−1.6} ≈ 0.2 between typical points: a smooth, numerically low-rank Gram matrix, the regime the
// report's first two figures study. The error is the relative Frobenius error ||G − Ĝ||_F / ||G||_F
// on all n points of the sample.
const (
	perrinDataset = "houses"
	// mekaPaperSamples is MEKA's default number of sampled rows per unit of rank; the diagnostic
	// curve of perrin_fig3 uses mekaDiagnosticSamples.
	mekaPaperSamples      = 3
	mekaDiagnosticSamples = 10
	perrinGamma           = 0.1
	metricRelErr          = "relative-frobenius"
	metricSeconds         = "seconds"
)

// perrinSetup is the size of one course-report figure at one scale.
type perrinSetup struct {
	n, reps  int
	clusters int       // k-means clusters of BKA and MEKA
	grid     []float64 // the x values (m, k or γ)
	rank     int       // fixed rank (perrin_fig3)
}

// perrinPlan makes one task per repetition: each draws its own sample of houses, so the spread over
// repetitions covers the data as well as the landmarks.
func perrinPlan(id string, setups map[run.Scale]perrinSetup, work func(context.Context, *run.Env, perrinSetup) ([]run.Record, error)) func(run.Scale) ([]run.Task, error) {
	return func(sc run.Scale) ([]run.Task, error) {
		s, ok := setups[sc]
		if !ok {
			return nil, fmt.Errorf("%s: no set-up for scale %q", id, sc)
		}
		tasks := make([]run.Task, s.reps)
		for rep := range s.reps {
			tasks[rep] = run.Task{Key: "rep=" + strconv.Itoa(rep), Rep: rep, Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
				return work(ctx, env, s)
			}}
		}
		return tasks, nil
	}
}

// housesSample draws n rows of houses uniformly without replacement and returns their features,
// standardised on the sample.
func housesSample(ctx context.Context, rng *rand.Rand, n int) (*mat.Dense, error) {
	t, err := dataset.DefaultSource().Table(ctx, perrinDataset)
	if err != nil {
		return nil, err
	}
	rows, err := dataset.Subsample(rng, t.Len(), min(n, t.Len()))
	if err != nil {
		return nil, err
	}
	sub, err := t.Subset(rows)
	if err != nil {
		return nil, err
	}
	return sub.Matrix(dataset.Prep{Standardise: true})
}

// gaussianGamma is the Gaussian kernel exp(−γ||x − z||²).
func gaussianGamma(gamma float64) (kernel.Gaussian, error) {
	return kernel.NewGaussian(1 / math.Sqrt(2*gamma))
}

// nystromError fits the rank-k Nyström approximation on m uniform landmarks (k = 0: all of them)
// and returns its relative Frobenius error on X and the seconds taken by the fit and the feature
// map (the error computation excluded).
func nystromError(rng *rand.Rand, k kernel.Kernel, X *mat.Dense, m, rank int) (relErr, seconds float64, err error) {
	n, _ := X.Dims()
	start := time.Now()
	landmarks, err := lowrank.UniformLandmarks(rng, n, m)
	if err != nil {
		return 0, 0, err
	}
	ny, err := lowrank.FitNystrom(k, X, landmarks, rank)
	if err != nil {
		return 0, 0, err
	}
	phi, err := ny.Transform(X)
	if err != nil {
		return 0, 0, err
	}
	seconds = time.Since(start).Seconds()
	relErr, err = lowrank.RelativeFrobeniusError(k, X, phi, nil)
	return relErr, seconds, err
}

// clusterLabels partitions X by k-means (k-means++ seeding, 3 restarts), the partition of BKA and
// MEKA.
func clusterLabels(rng *rand.Rand, X *mat.Dense, c int) ([]int, error) {
	km, err := learn.KMeans(rng, X, c, learn.KMeansOptions{NInit: 3})
	if err != nil {
		return nil, err
	}
	return km.Labels, nil
}

// mekaError fits MEKA with rank k per cluster and the paper's defaults (η = 0.1, 2k landmarks per
// cluster) with samplesPerRank·k rows and columns sampled per cluster to fit the off-diagonal
// blocks (the paper's default is 3), and returns its relative Frobenius error on X.
func mekaError(rng *rand.Rand, k kernel.Kernel, X *mat.Dense, labels []int, rank, samplesPerRank int) (float64, error) {
	opts := lowrank.DefaultMEKAOptions()
	opts.SamplesPerRank = samplesPerRank
	m, err := lowrank.FitMEKA(rng, k, X, labels, rank, opts)
	if err != nil {
		return 0, err
	}
	return m.RelativeFrobeniusError(X, nil)
}

// bestRankKError returns ||G − G_k||_F / ||G||_F for the best rank-k approximation G_k of the
// symmetric matrix G (Eckart–Young): √(Σ_{i>k} λ_i²) / √(Σ_i λ_i²) with the eigenvalues sorted by
// decreasing magnitude. Only eigenvalues are computed, O(n³) time and O(n²) memory.
func bestRankKError(G mat.Symmetric, k int) (float64, error) {
	var eig mat.EigenSym
	if !eig.Factorize(G, false) {
		return 0, fmt.Errorf("best rank-%d: eigenvalues did not converge", k)
	}
	vals := eig.Values(nil)
	slices.SortFunc(vals, func(a, b float64) int { return cmp.Compare(math.Abs(b), math.Abs(a)) })
	var tail, total float64
	for i, v := range vals {
		total += v * v
		if i >= k {
			tail += v * v
		}
	}
	if total == 0 {
		return 0, fmt.Errorf("best rank-%d: the matrix is zero", k)
	}
	return math.Sqrt(tail / total), nil
}

// perrin_fig1 — the accuracy / time trade-off of Nyström (seed 000 §4, first figure): relative error
// and time of the fit plus the feature map against the number m of uniformly sampled points, with
// all m eigenpairs kept, at γ = 0.1. Tasks run one at a time so that the times are not shared
// between concurrent tasks.
func perrinFig1() *run.Experiment {
	setups := map[run.Scale]perrinSetup{
		run.Smoke: {n: 400, reps: 2, grid: []float64{10, 40, 160}},
		run.Quick: {n: 4000, reps: 5, grid: []float64{10, 20, 50, 100, 200, 500, 1000}},
		run.Paper: {n: 20640, reps: 10, grid: []float64{10, 20, 50, 100, 200, 500, 1000, 2000}},
	}
	return &run.Experiment{
		ID: "perrin_fig1", Title: "Nyström error and time vs number of sampled points (course report)", Kind: run.Figure,
		Seed: 1001, Serial: true,
		Plan: perrinPlan("perrin_fig1", setups, func(ctx context.Context, env *run.Env, s perrinSetup) ([]run.Record, error) {
			X, err := housesSample(ctx, env.RNG, s.n)
			if err != nil {
				return nil, err
			}
			k, err := gaussianGamma(perrinGamma)
			if err != nil {
				return nil, err
			}
			recs := s.records()
			for _, m := range s.grid {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				relErr, secs, err := nystromError(env.RNG, k, X, int(m), 0)
				if err != nil {
					return nil, err
				}
				params := []run.Param{run.P("m", m)}
				recs = append(recs,
					run.Record{Dataset: perrinDataset, Method: "nystrom", Params: params, Metric: metricRelErr, Value: relErr},
					run.Record{Dataset: perrinDataset, Method: "nystrom", Params: params, Metric: metricSeconds, Value: secs})
			}
			return recs, nil
		}),
		Render: renderPerrinFig1,
		Claims: []run.Claim{{
			ID:   "trade-off",
			Text: "more sampled points lower the Nyström error and cost more time",
			Check: func(res *run.Results) (run.Verdict, error) {
				cs, err := curves(res, perrinDataset, metricRelErr, "m", "nystrom")
				if err != nil {
					return run.Verdict{}, err
				}
				ts, err := curves(res, perrinDataset, metricSeconds, "m", "nystrom")
				if err != nil {
					return run.Verdict{}, err
				}
				e, t := cs[0], ts[0]
				return run.Verdict{
					Outcome: legacyOutcome(e.last().Mean < e.first().Mean && t.last().Mean > t.first().Mean),
					Evidence: fmt.Sprintf("m = %g → %g: mean error %.4g → %.4g, mean time %.3g s → %.3g s (%d repetitions)",
						e.first().X, e.last().X, e.first().Mean, e.last().Mean, t.first().Mean, t.last().Mean, e.last().N),
				}, nil
			},
		}},
	}
}

func renderPerrinFig1(res *run.Results, out *run.Output) error {
	errs, err := curves(res, perrinDataset, metricRelErr, "m", "nystrom")
	if err != nil {
		return err
	}
	times, err := curves(res, perrinDataset, metricSeconds, "m", "nystrom")
	if err != nil {
		return err
	}
	n := setupValue(res, "n")
	labels := map[string]string{"nystrom": "Nyström (mean, min–max over repetitions)"}
	a := plotting.New(fmt.Sprintf("relative error, houses n = %s, γ = %g", n, perrinGamma), "sampled points m", "||G − Ĝ||_F / ||G||_F")
	if err := addMinMaxBands(a, errs, labels); err != nil {
		return err
	}
	b := plotting.New("time of the fit and the feature map", "sampled points m", "time (s)")
	if err := addMinMaxBands(b, times, labels); err != nil {
		return err
	}
	if err := logLog(a, b); err != nil {
		return err
	}
	return saveRow(out, 12*vg.Centimeter, 10*vg.Centimeter, a, b)
}

// records records the sizes of a run (method "setup") so that renderers can title figures from
// the results alone.
func (s perrinSetup) records() []run.Record {
	return []run.Record{
		{Dataset: perrinDataset, Method: "setup", Metric: "n", Value: float64(s.n)},
		{Dataset: perrinDataset, Method: "setup", Metric: "clusters", Value: float64(s.clusters)},
		{Dataset: perrinDataset, Method: "setup", Metric: "rank", Value: float64(s.rank)},
	}
}

// setupValue reads a size recorded by perrinSetup.records, for titles.
func setupValue(res *run.Results, name string) string {
	rows := res.Where(perrinDataset, "setup", name)
	if len(rows) == 0 {
		return "?"
	}
	return strconv.Itoa(int(rows[0].Value))
}

// logLog puts both axes of the plots on log scales.
func logLog(plots ...*plot.Plot) error {
	for _, p := range plots {
		if err := plotting.LogX(p); err != nil {
			return err
		}
		if err := plotting.LogY(p); err != nil {
			return err
		}
	}
	return nil
}

// perrin_fig2 — Nyström against MEKA as the rank k grows (seed 000 §4, second figure), at γ = 0.1.
// Both use the same memory, about n·k numbers: Nyström keeps rank k of 2k uniform landmarks (MEKA's
// landmark ratio), MEKA has rank k in each of c = 10 k-means clusters (η = 0.1, the paper's
// defaults).
func perrinFig2() *run.Experiment {
	setups := map[run.Scale]perrinSetup{
		run.Smoke: {n: 400, reps: 2, clusters: 4, grid: []float64{2, 5, 10}},
		run.Quick: {n: 4000, reps: 5, clusters: 10, grid: []float64{5, 10, 20, 50, 100}},
		run.Paper: {n: 20640, reps: 10, clusters: 10, grid: []float64{5, 10, 20, 50, 100, 200}},
	}
	return &run.Experiment{
		ID: "perrin_fig2", Title: "Nyström vs MEKA error vs rank (course report)", Kind: run.Figure, Seed: 1002,
		Plan: perrinPlan("perrin_fig2", setups, func(ctx context.Context, env *run.Env, s perrinSetup) ([]run.Record, error) {
			X, err := housesSample(ctx, env.RNG, s.n)
			if err != nil {
				return nil, err
			}
			k, err := gaussianGamma(perrinGamma)
			if err != nil {
				return nil, err
			}
			labels, err := clusterLabels(env.RNG, X, s.clusters)
			if err != nil {
				return nil, err
			}
			recs := s.records()
			for _, rank := range s.grid {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				ny, _, err := nystromError(env.RNG, k, X, int(2*rank), int(rank))
				if err != nil {
					return nil, err
				}
				me, err := mekaError(env.RNG, k, X, labels, int(rank), mekaPaperSamples)
				if err != nil {
					return nil, err
				}
				params := []run.Param{run.P("k", rank)}
				recs = append(recs,
					run.Record{Dataset: perrinDataset, Method: "nystrom", Params: params, Metric: metricRelErr, Value: ny},
					run.Record{Dataset: perrinDataset, Method: "meka", Params: params, Metric: metricRelErr, Value: me})
			}
			return recs, nil
		}),
		Render: renderPerrinFig2,
		Claims: []run.Claim{{
			ID:   "both-improve-with-rank",
			Text: "the error of both Nyström and MEKA falls as the rank grows",
			Check: func(res *run.Results) (run.Verdict, error) {
				cs, err := curves(res, perrinDataset, metricRelErr, "k", "nystrom", "meka")
				if err != nil {
					return run.Verdict{}, err
				}
				pass := true
				var ev []string
				for _, c := range cs {
					means := c.means()
					for i := 1; i < len(means); i++ {
						pass = pass && means[i] <= means[i-1]
					}
					ev = append(ev, fmt.Sprintf("%s mean error over k = %v: %s", c.Method, xs(c), formatFloats(means)))
				}
				return run.Verdict{Outcome: legacyOutcome(pass), Evidence: strings.Join(ev, "; ") + " (must not increase at any step)"}, nil
			},
		}},
	}
}

func renderPerrinFig2(res *run.Results, out *run.Output) error {
	cs, err := curves(res, perrinDataset, metricRelErr, "k", "nystrom", "meka")
	if err != nil {
		return err
	}
	p := plotting.New(fmt.Sprintf("houses n = %s, γ = %g: same memory n·k", setupValue(res, "n"), perrinGamma),
		"rank k", "||G − Ĝ||_F / ||G||_F")
	if err := addMinMaxBands(p, cs, map[string]string{
		"nystrom": "Nyström, rank k of 2k landmarks",
		"meka":    "MEKA, rank k per cluster (" + setupValue(res, "clusters") + " clusters)",
	}); err != nil {
		return err
	}
	if err := logLog(p); err != nil {
		return err
	}
	return plotting.SavePlot(filepath.Join(out.Dir, out.ID), p, 14*vg.Centimeter, 11*vg.Centimeter)
}

// perrin_fig3 — error against the kernel scale γ (seed 000 §4, third figure): Nyström (rank k of 2k
// landmarks), MEKA (rank k per cluster), BKA on the same k-means clusters and the best rank-k
// approximation, on a log grid γ = 2⁻⁶ … 2² that goes from a smooth, low-rank Gram matrix to a
// nearly block-diagonal one. The report's claims: Nyström is good only for small γ, MEKA for both.
//
// MEKA fits each off-diagonal link matrix by least squares on 3k sampled rows and columns per
// cluster (the paper's default), with the authors' absolute tolerance 1e-6 in its pseudo-inverses
// (lowrank.DefaultLinkTolerance). At large γ that fit still extrapolates badly to the rows not
// sampled, and its error exceeds 1 in some repetitions; the figure therefore also shows MEKA with
// 10k sampled rows as a diagnostic (added after seeing the default's failure; the claim is checked
// on the paper's default only).
func perrinFig3() *run.Experiment {
	gammas := func(exps ...int) []float64 {
		out := make([]float64, len(exps))
		for i, e := range exps {
			out[i] = math.Ldexp(1, e)
		}
		return out
	}
	setups := map[run.Scale]perrinSetup{
		run.Smoke: {n: 300, reps: 2, clusters: 3, rank: 10, grid: gammas(-6, -2, 2)},
		run.Quick: {n: 2000, reps: 5, clusters: 10, rank: 50, grid: gammas(-6, -4, -2, 0, 2)},
		run.Paper: {n: 8000, reps: 10, clusters: 10, rank: 50, grid: gammas(-6, -5, -4, -3, -2, -1, 0, 1, 2)},
	}
	return &run.Experiment{
		ID: "perrin_fig3", Title: "Nyström, MEKA, BKA and best rank-k error vs kernel scale (course report)", Kind: run.Figure, Seed: 1003,
		Plan:   perrinPlan("perrin_fig3", setups, perrinFig3Rep),
		Render: renderPerrinFig3,
		Claims: []run.Claim{
			{
				ID:   "nystrom-small-gamma-only",
				Text: "Nyström is accurate only for small γ (low-rank Gram matrix): its error at the largest γ is at least 10× that at the smallest",
				Check: func(res *run.Results) (run.Verdict, error) {
					cs, err := curves(res, perrinDataset, metricRelErr, "gamma", "nystrom")
					if err != nil {
						return run.Verdict{}, err
					}
					c := cs[0]
					return run.Verdict{
						Outcome: legacyOutcome(c.last().Mean >= 10*c.first().Mean),
						Evidence: fmt.Sprintf("Nyström mean error %.4g at γ = %g, %.4g at γ = %g (ratio %.3g, threshold 10)",
							c.first().Mean, c.first().X, c.last().Mean, c.last().X, c.last().Mean/c.first().Mean),
					}, nil
				},
			},
			{
				ID:   "meka-both-regimes",
				Text: "MEKA is good for both small and large γ: below Nyström at the largest γ, within 2× of it at the smallest",
				Check: func(res *run.Results) (run.Verdict, error) {
					cs, err := curves(res, perrinDataset, metricRelErr, "gamma", "nystrom", "meka", "meka-10k", "bka", "best-rank-k")
					if err != nil {
						return run.Verdict{}, err
					}
					ny, me, more, bka, best := cs[0], cs[1], cs[2], cs[3], cs[4]
					at := func(c curve) string {
						return fmt.Sprintf("%.4g (median %.4g, max %.4g)", c.last().Mean, c.last().Median, c.last().Max)
					}
					return run.Verdict{
						Outcome: legacyOutcome(me.last().Mean < ny.last().Mean && me.first().Mean <= 2*ny.first().Mean),
						Evidence: fmt.Sprintf("mean error at γ = %g: MEKA %.4g, Nyström %.4g (BKA %.4g, best rank-k %.4g); at γ = %g: MEKA %s, Nyström %.4g (BKA %.4g, best rank-k %.4g; diagnostic: MEKA with 10k sampled rows %s)",
							me.first().X, me.first().Mean, ny.first().Mean, bka.first().Mean, best.first().Mean,
							me.last().X, at(me), ny.last().Mean, bka.last().Mean, best.last().Mean, at(more)),
					}, nil
				},
			},
		},
	}
}

// perrinFig3Rep is one repetition of perrin_fig3: one sample, one clustering, every γ.
func perrinFig3Rep(ctx context.Context, env *run.Env, s perrinSetup) ([]run.Record, error) {
	X, err := housesSample(ctx, env.RNG, s.n)
	if err != nil {
		return nil, err
	}
	labels, err := clusterLabels(env.RNG, X, s.clusters)
	if err != nil {
		return nil, err
	}
	recs := s.records()
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
		ny, _, err := nystromError(env.RNG, k, X, 2*s.rank, s.rank)
		if err != nil {
			return nil, err
		}
		me, err := mekaError(env.RNG, k, X, labels, s.rank, mekaPaperSamples)
		if err != nil {
			return nil, err
		}
		meMore, err := mekaError(env.RNG, k, X, labels, s.rank, mekaDiagnosticSamples)
		if err != nil {
			return nil, err
		}
		block, err := lowrank.BKA(G, labels)
		if err != nil {
			return nil, err
		}
		bka, err := lowrank.RelativeFrobenius(G, block)
		if err != nil {
			return nil, err
		}
		best, err := bestRankKError(G, s.rank)
		if err != nil {
			return nil, err
		}
		params := []run.Param{run.P("gamma", gamma)}
		for _, r := range []struct {
			method string
			value  float64
		}{{"nystrom", ny}, {"meka", me}, {"meka-10k", meMore}, {"bka", bka}, {"best-rank-k", best}} {
			recs = append(recs, run.Record{Dataset: perrinDataset, Method: r.method, Params: params, Metric: metricRelErr, Value: r.value})
		}
	}
	return recs, nil
}

func renderPerrinFig3(res *run.Results, out *run.Output) error {
	cs, err := curves(res, perrinDataset, metricRelErr, "gamma", "nystrom", "meka", "meka-10k", "bka", "best-rank-k")
	if err != nil {
		return err
	}
	p := plotting.New(fmt.Sprintf("houses n = %s, rank k = %s, %s k-means clusters", setupValue(res, "n"), setupValue(res, "rank"), setupValue(res, "clusters")),
		"kernel scale γ in exp(−γ||x − z||²)", "||G − Ĝ||_F / ||G||_F")
	if err := addMinMaxBands(p, cs, map[string]string{
		"nystrom":     "Nyström (rank k, 2k landmarks)",
		"meka":        "MEKA (rank k per cluster, 3k sampled rows)",
		"meka-10k":    "MEKA with 10k sampled rows",
		"bka":         "BKA (diagonal blocks)",
		"best-rank-k": "best rank k (eigen)",
	}, "best-rank-k", "meka-10k"); err != nil {
		return err
	}
	if err := logLog(p); err != nil {
		return err
	}
	return plotting.SavePlot(filepath.Join(out.Dir, out.ID), p, 15*vg.Centimeter, 11*vg.Centimeter)
}

// xs lists a curve's x values.
func xs(c curve) []float64 {
	out := make([]float64, len(c.Points))
	for i, s := range c.Points {
		out[i] = s.X
	}
	return out
}

// formatFloats prints values with four significant digits.
func formatFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', 4, 64)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
