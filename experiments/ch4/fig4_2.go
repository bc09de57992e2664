package ch4

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/mmd"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// Set-up of fig4_2.
const (
	fig4_2Dataset = "gaussians"
	// fig4_2Dim is the dimension of the two Gaussians, which the thesis does not state: 1, the
	// reading of its univariate notation N(0, 1), N(0, 1.001), kept after the dimension study (see
	// fig4_2) showed that no dimension makes the two separable at the sizes of the figure.
	fig4_2Dim = 1
	// fig4_2Variance is the variance of P_Z = N(0, 1.001): the thesis writes N(0, 1.001), read as
	// N(mean, variance).
	fig4_2Variance = 1.001
	// fig4_2StudyDataset names the rows of the dimension study.
	fig4_2StudyDataset = "gaussians-dimension-study"
	// fig4_2MetricMargin is the exact MMD²'s decision margin MMD²(Z, W) − MMD²(X, W) of one draw
	// of the study (positive: W rightly attributed to P_X), fig4_2MetricPopulation the population
	// MMD²(P_X, P_Z) of a dimension.
	fig4_2MetricMargin     = "margin"
	fig4_2MetricPopulation = "population-mmd2"
)

// fig4_2Sizes are the sample sizes and draws of fig4_2 at each scale.
var fig4_2Sizes = run.PerScale[sizes]{
	Smoke: sizes{n: []int{100, 400}, exactMax: 400, tasks: 2, drawsPerTask: 2, timedDraws: 1, timeCalls: 1},
	Quick: sizes{n: []int{100, 300, 1000, 3000, 10000, 30000, 100000}, exactMax: 3000, tasks: 4, drawsPerTask: 10, timedDraws: 2, timeCalls: 3},
	Paper: sizes{n: []int{100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000}, exactMax: 10000, tasks: 20, drawsPerTask: 10, timedDraws: 2, timeCalls: 5},
}

// gaussianStudy is the dimension study of one scale: the exact MMD² at the sizes n in each
// dimension of dims, draws draws each.
type gaussianStudy struct {
	dims, n []int
	draws   int
}

// fig4_2Study are the sizes of the dimension study at each scale.
var fig4_2Study = run.PerScale[gaussianStudy]{
	Smoke: gaussianStudy{dims: []int{1, 10}, n: []int{50, 100}, draws: 4},
	Quick: gaussianStudy{dims: []int{1, 10, 100}, n: []int{100, 300, 1000}, draws: 40},
	Paper: gaussianStudy{dims: []int{1, 10, 100}, n: []int{100, 300, 1000, 3000}, draws: 200},
}

// fig4_2 — the three-sample problem between two very close Gaussians, P_X = N(0, 1) and
// P_Z = N(0, 1.001) (variance 1.001), in dimension 1 (thesis §4.6.2, Figure 4.2). Every draw
// generates fresh samples X, W ~ P_X and Z ~ P_Z of n points each; the Gaussian kernel's σ² is the
// mean squared distance of the draw's pooled sample X ∪ Z ∪ W (the set F of §4.6.1). The exact MMD²
// is computed up to n = 10⁴ (3·10³ at quick scale), as in the thesis, whose Δ panel stops at 10⁴.
// Sizes: paper 200 draws, n = 100 … 10⁵; quick 40 draws, n = 100 … 10⁵; smoke 4 draws. See
// common.go for the protocol and the choices shared by figures 4.2 to 4.5.
//
// The dimension study (panel d). The thesis states no dimension, and in dimension 1 the population
// MMD² of the two Gaussians is about 3·10⁻⁸ while an empirical MMD² fluctuates by O(1/n): every
// method, the exact one included, is at chance. The study asks whether another dimension would
// let the figure separate them: in d = 1, 10 and 100 it draws the same problem at a few n, records
// the exact MMD²'s decision margin MMD²(Z, W) − MMD²(X, W) of each draw and the population
// MMD²(P_X, P_Z), in closed form for the bandwidth σ² = 2d(1 + 0.001/3) the pooled sample tends to:
// MMD² = (1 + 2/σ²)^(−d/2) + (1 + 2.002/σ²)^(−d/2) − 2(1 + 2.001/σ²)^(−d/2). A draw can be decided
// only where the margin's spread over draws falls to the population MMD²; extrapolating the
// spread's fitted power of n gives the n where that happens. With σ² growing as the dimension, the
// population MMD² stays about 3·10⁻⁸ in every dimension while the spread shrinks only slowly with
// d, so no dimension brings the separation within n ≤ 10⁵ (our quick run extrapolates it to
// n ≈ 2·10⁸ in d = 1, 10⁷ in d = 10 and 2·10⁶ in d = 100; the evidence of the separation claims
// gives each run's numbers). The figure therefore keeps d = 1, the reading of the thesis's
// univariate notation, and the claims that presume a separation are INCONCLUSIVE with that reason
// rather than decided on draws that are all at chance: "cannot separate" and "the same error"
// (checkSeparation, checkSameError). The claim that Nyström and RFF end up separating asserts the
// separation itself, so it is decided on the error rates at the largest n against the target
// separateRate, with the study's prediction as the reason in its evidence; the claims that need no
// separation (Δ, times) are decided as usual.
func fig4_2() *run.Experiment {
	f := figure{
		id: "fig4_2", title: "Three-sample problem N(0, 1) vs N(0, 1.001): error, Δ to exact MMD², time vs n, and a dimension study",
		seed: 4002, dataset: fig4_2Dataset, describe: "N(0, 1) vs N(0, 1.001)",
		compared: [2]string{"nystrom", "rff"},
		sizes:    fig4_2Sizes,
		load: func(context.Context, dataset.Source, run.Scale) (sampler, error) {
			return gaussianPairSampler(fig4_2Dim), nil
		},
		setup: func(run.Scale) string {
			return "Fresh samples at every draw, in dimension 1 (variance 1.001 for P_Z). Gaussian kernel, σ² = the mean squared distance of the draw's pooled X ∪ Z ∪ W (§4.6.1)."
		},
		extraTasks:   fig4_2StudyTasks,
		extraPanel:   fig4_2StudyPanel,
		extraCaption: fig4_2StudyCaption,
	}
	const d = fig4_2Dataset
	approx := []string{"linear", "block", "rff", "nystrom"}
	e := f.experiment(
		run.Claim{
			ID:    "nystrom-rff-same-error",
			Kind:  run.Finding,
			Text:  "Nyström and RFF have the same error",
			Rule:  fmt.Sprintf("on the n where Nyström or RFF does better than chance (error rate below 1/2, exact binomial, Holm over every n and both methods), the mean of the paired differences of their 0/1 errors on the same draws, TOST with margin ±%g; premise: such an n exists, else INCONCLUSIVE (equal errors at chance say nothing)", errorMargin),
			Check: checkSameError(d, "nystrom", "rff"),
		},
		run.Claim{
			ID:    "linear-block-cannot-separate",
			Kind:  run.Finding,
			Text:  "linear and block cannot separate the two Gaussians (while Nyström and RFF end up doing so)",
			Rule:  fmt.Sprintf("read as: at the largest n, the error rates of linear and block above %g (they do not reach the separation target of nystrom-rff-separate) and those of Nyström and RFF below it; %s. %s", separateRate, separationRule, separableRule),
			Check: checkCannotSeparate(d, []string{"nystrom", "rff"}, []string{"linear", "block"}),
		},
		run.Claim{
			ID:    "nystrom-rff-separate",
			Kind:  run.Finding,
			Text:  "Nyström and RFF, computable for large n, end up separating the two Gaussians",
			Rule:  fmt.Sprintf("'end up separating' read as: at the largest n, the error rates of Nyström and of RFF below %g; %s. No premise: the claim says that they do separate in the figure, so a rate shown above the target contradicts it whatever the reason; whether the exact MMD could reach the target there is given as a note", separateRate, separationRule),
			Check: checkSeparate(d, "nystrom", "rff"),
		},
		claimSameConvergence("nystrom-rff-same-convergence",
			"Nyström and RFF converge to the exact MMD at the same speed", d, "nystrom", "rff"),
		run.Claim{
			ID:    "nystrom-rff-closer-than-linear-block",
			Kind:  run.Finding,
			Text:  "Nyström and RFF converge to the exact MMD faster than linear and block",
			Rule:  deltaRule,
			Check: checkDeltaBelow(d, []string{"nystrom", "rff"}, []string{"linear", "block"}),
		},
		run.Claim{
			ID:    "linear-fastest",
			Kind:  run.Timing,
			Text:  "linear is the fastest",
			Rule:  timeRule,
			Check: checkTimes(d, "linear", []timeOrder{{"linear", "block", verdict.Faster}, {"linear", "rff", verdict.Faster}, {"linear", "nystrom", verdict.Faster}}),
		},
		run.Claim{
			ID:    "nystrom-rff-similar-time-beat-block",
			Kind:  run.Timing,
			Text:  "for large n Nyström and RFF take similar time, and both are faster than block",
			Rule:  timeRule,
			Check: checkTimes(d, "nystrom", []timeOrder{{"nystrom", "rff", verdict.SameTime}, {"nystrom", "block", verdict.Faster}, {"rff", "block", verdict.Faster}}),
		},
		run.Claim{
			ID:   "exact-time-explodes",
			Kind: run.Timing,
			Text: "the exact MMD's time explodes",
			Rule: fmt.Sprintf("least-squares slope of log time against log n over every timed draw of the exact MMD at n ≥ %d above %g (halfway between the approximations' Θ(n log n) and the exact Θ(n²) of §4.6.1), and at its largest n its time above %g times every approximation's (geometric-mean ratio of times, t test on log ratios paired by draw; %g = verdict.TimeMargin, the one practical margin of timing claims); Holm over the family",
				explodesFrom, explodes, verdict.TimeMargin, verdict.TimeMargin),
			Check: checkExactExplodes(d, approx),
		},
	)
	// Δ is the difference of two MMD² estimates of about 3e-8 (the population value), each a
	// difference of kernel means of order 1: the subtractions cancel all but the last bits, which
	// differ between BLAS kernels (up to 1.8e-4 relative at quick scale, SkylakeX kernels against
	// the references' Haswell).
	why := "differences of nearly equal MMD² estimates keep only their last bits"
	e.BySpread = map[string]string{metricDelta: why, metricRelDelta: why}
	return e
}

// separationRule is the part of the separation claims' rules that says how they are decided, and
// separableRule the premise of linear-block-cannot-separate only.
var (
	separationRule = fmt.Sprintf("'separates' is an error rate below %g: at least three draws in four decided right, halfway from chance (1/2) to no error on the figure's 0–0.5 error axis (the thesis gives no number; fixed from its word 'discriminer', not from the data). Exact binomial tests each way against that one boundary (Clopper–Pearson interval; Holm over the family): supported if every rate is shown on its side, contradicted if one is shown on the other",
		separateRate)
	separableRule = fmt.Sprintf("Premise: the target is within reach at that n at all: the exact MMD's error rate there shown below %g (exact binomial) where it ran, else its error rate predicted by the dimension study in the figure's dimension (normal decision margin with the population MMD² as mean and its spread extrapolated along the fitted power of n) at most %g; else INCONCLUSIVE, since failing where even the exact MMD must fail says nothing of linear and block",
		separateRate, separateRate)
)

// gaussianPairSampler returns the sampler of fig4_2's draws in dimension dim: X and W from
// N(0, I), Z from N(0, fig4_2Variance·I), n points each, as rows 0..n-1, n..2n-1 and 2n..3n-1 of
// one matrix, with the Gaussian kernel of σ² = the mean squared distance of all 3n rows.
func gaussianPairSampler(dim int) sampler {
	return func(rng *rand.Rand, n int) (threeSampleDraw, error) {
		if n < 1 || dim < 1 {
			return threeSampleDraw{}, fmt.Errorf("sample size %d in dimension %d, want both at least 1", n, dim)
		}
		data := mat.NewDense(3*n, dim, nil)
		raw := data.RawMatrix().Data
		for i := range raw {
			raw[i] = rng.NormFloat64()
		}
		scale := math.Sqrt(fig4_2Variance)
		for i := n * dim; i < 2*n*dim; i++ {
			raw[i] *= scale
		}
		k, _, err := kernel.ThesisGaussian(data)
		if err != nil {
			return threeSampleDraw{}, err
		}
		points, err := mmd.NewVectors(k, data)
		if err != nil {
			return threeSampleDraw{}, err
		}
		return threeSampleDraw{points: points, x: kit.IndexRange(0, n), z: kit.IndexRange(n, 2*n), w: kit.IndexRange(2*n, 3*n)}, nil
	}
}

// gaussianPopulationMMD2 is the population MMD²(N(0, I_d), N(0, v·I_d)) of the Gaussian kernel
// exp(−||x − y||²/(2σ²)): E k(x, x') = (1 + 2a/σ²)^(−d/2) for x, x' ~ N(0, a·I), and
// (1 + (a + b)/σ²)^(−d/2) across. The three terms nearly cancel, so each is computed as
// exp(−d/2 · log1p(·)) and the sum as differences of expm1, which keeps its relative accuracy.
func gaussianPopulationMMD2(d int, v, sigma2 float64) float64 {
	e := func(s float64) float64 { return -float64(d) / 2 * math.Log1p(s/sigma2) }
	xx, zz, xz := e(2), e(2*v), e(1+v)
	// e^xx + e^zz − 2e^xz = e^xz (expm1(xx − xz) + expm1(zz − xz)).
	return math.Exp(xz) * (math.Expm1(xx-xz) + math.Expm1(zz-xz))
}

// fig4_2StudySigma2 is the bandwidth σ² the pooled sample's mean squared distance tends to in
// dimension d: twice the trace of the pooled covariance, 2d(2 + v)/3.
func fig4_2StudySigma2(d int) float64 { return 2 * float64(d) * (2 + fig4_2Variance) / 3 }

// fig4_2StudyTasks are the dimension study's tasks, one per dimension.
func fig4_2StudyTasks(sc run.Scale) ([]run.Task, error) {
	st := fig4_2Study.At(sc)
	tasks := make([]run.Task, len(st.dims))
	for i, dim := range st.dims {
		tasks[i] = run.Task{Key: "study/d=" + strconv.Itoa(dim), Rep: i, Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
			sample := gaussianPairSampler(dim)
			recs := []run.Record{{Dataset: fig4_2StudyDataset, Method: "exact", Params: []run.Param{run.P("d", dim)}, Metric: fig4_2MetricPopulation,
				Value: gaussianPopulationMMD2(dim, fig4_2Variance, fig4_2StudySigma2(dim))}}
			for _, n := range st.n {
				for draw := range st.draws {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					s, err := sample(env.RNG, n)
					if err != nil {
						return nil, err
					}
					dec, err := mmd.ThreeSample(ctx, env.RNG, mmd.Exact{}, s.points, s.x, s.z, s.w)
					if err != nil {
						return nil, fmt.Errorf("fig4_2 study: d = %d, n = %d: %w", dim, n, err)
					}
					recs = append(recs, run.Record{Dataset: fig4_2StudyDataset, Method: "exact",
						Params: []run.Param{run.P("d", dim), run.P("n", n), run.P("draw", draw)}, Metric: fig4_2MetricMargin, Value: dec.ZW - dec.XW})
				}
			}
			return recs, nil
		}}
	}
	return tasks, nil
}

// studyDimension is what the dimension study found in one dimension.
type studyDimension struct {
	d          int
	population float64
	// ns and sds are the sizes and the standard deviations over draws of the decision margin.
	ns, sds []float64
	// exponent is the fitted power of n of the spread, nSeparate the n at which the extrapolated
	// spread reaches the population MMD² (+Inf when the spread does not fall).
	exponent, nSeparate float64
}

// fig4_2StudyResults reads the dimension study, one entry per dimension in increasing order.
func fig4_2StudyResults(res *run.Results) ([]studyDimension, error) {
	byDim := map[int]*studyDimension{}
	margins := map[[2]int][]float64{}
	var dims []int
	get := func(d int) *studyDimension {
		if s, ok := byDim[d]; ok {
			return s
		}
		s := &studyDimension{d: d, population: math.NaN()}
		byDim[d] = s
		dims = append(dims, d)
		return s
	}
	for _, row := range res.Where(fig4_2StudyDataset, "exact", "") {
		d, err := row.ParamFloat("d")
		if err != nil {
			return nil, err
		}
		s := get(int(d))
		switch row.Metric {
		case fig4_2MetricPopulation:
			s.population = row.Value
		case fig4_2MetricMargin:
			n, err := row.ParamFloat("n")
			if err != nil {
				return nil, err
			}
			margins[[2]int{int(d), int(n)}] = append(margins[[2]int{int(d), int(n)}], row.Value)
		}
	}
	if len(dims) == 0 {
		return nil, fmt.Errorf("%s: no dimension-study rows", res.ID)
	}
	slices.Sort(dims)
	out := make([]studyDimension, len(dims))
	for i, d := range dims {
		s := byDim[d]
		var ns []int
		for k := range margins {
			if k[0] == d {
				ns = append(ns, k[1])
			}
		}
		slices.Sort(ns)
		for _, n := range ns {
			m := margins[[2]int{d, n}]
			if len(m) < 2 {
				continue
			}
			s.ns, s.sds = append(s.ns, float64(n)), append(s.sds, stat.StdDev(m, nil))
		}
		if len(s.ns) < 2 || math.IsNaN(s.population) {
			return nil, fmt.Errorf("%s: dimension study d = %d: %d sizes with two draws or more, population MMD² %g", res.ID, d, len(s.ns), s.population)
		}
		exp, err := kit.LogLogSlope(s.ns, s.sds)
		if err != nil {
			return nil, err
		}
		s.exponent, s.nSeparate = exp, math.Inf(1)
		last := len(s.ns) - 1
		if exp < 0 && s.population > 0 {
			// sd(n) = sd(n_last)·(n/n_last)^exp reaches the population MMD² at:
			s.nSeparate = s.ns[last] * math.Pow(s.population/s.sds[last], 1/exp)
		}
		out[i] = *s
	}
	return out, nil
}

// sdAt is the spread of the exact decision margin at n, extrapolated from the largest n studied
// along the fitted power of n.
func (s studyDimension) sdAt(n float64) float64 {
	last := len(s.ns) - 1
	return s.sds[last] * math.Pow(n/s.ns[last], s.exponent)
}

// exactError is the exact MMD's error rate at n that the study predicts: the probability that a
// normal decision margin with mean the population MMD² and spread sdAt(n) falls below 0.
func (s studyDimension) exactError(n float64) float64 {
	return distuv.UnitNormal.CDF(-s.population / s.sdAt(n))
}

// nReaching is the n at which exactError falls to rate (< 1/2): where the spread is
// MMD²/Φ⁻¹(1 − rate); +Inf when the spread does not fall or the population MMD² is not positive.
func (s studyDimension) nReaching(rate float64) float64 {
	if !(s.exponent < 0 && s.population > 0) {
		return math.Inf(1)
	}
	last := len(s.ns) - 1
	sd := s.population / distuv.UnitNormal.Quantile(1-rate)
	return s.ns[last] * math.Pow(sd/s.sds[last], 1/s.exponent)
}

// fig4_2StudyNote summarises the dimension study for the evidence of the separation claims.
func fig4_2StudyNote(res *run.Results) string {
	st, err := fig4_2StudyResults(res)
	if err != nil {
		return "dimension study: " + err.Error()
	}
	parts := make([]string, len(st))
	for i, s := range st {
		last := len(s.ns) - 1
		parts[i] = fmt.Sprintf("d = %d: population MMD² %.2g, sd of the exact decision margin %.2g at n = %g (∝ n^%.2f), reaching the population MMD² at n ≈ %.2g",
			s.d, s.population, s.sds[last], s.ns[last], s.exponent, s.nSeparate)
	}
	return "dimension study (exact MMD²; a draw is decided by the margin MMD²(Z, W) − MMD²(X, W), whose mean is the population MMD²): " + strings.Join(parts, "; ")
}

// fig4_2StudyColors are the palette indices of the dimension study's curves: d = 1, the figure's
// own set-up, in the exact MMD's black; the other dimensions in the two colours that no method of
// the figure uses (vermillion, orange), so that no curve of the study reads as an approximation.
var fig4_2StudyColors = []int{6, 1, 4}

// fig4_2StudyPanel draws the dimension study: per dimension, the spread of the exact MMD²'s
// decision margin against n (solid, with markers), and the population MMD² it would have to fall
// to (dashed, in the same colour). Its curves are not methods, so they are labelled in the panel
// ("d = 10" at the end of each spread, one label over the dashed lines, which nearly coincide)
// rather than in the figure's method legend.
func fig4_2StudyPanel(res *run.Results) (*plot.Plot, error) {
	st, err := fig4_2StudyResults(res)
	if err != nil {
		return nil, err
	}
	p := plotting.NewPrint("dimension study: can the exact MMD separate?", "sample size n", "sd of the decision margin")
	if err := plotting.LogX(p); err != nil {
		return nil, err
	}
	if err := plotting.LogY(p); err != nil {
		return nil, err
	}
	var ends []textLabel
	for i, s := range st {
		c := fig4_2StudyColors[i%len(fig4_2StudyColors)]
		if err := plotting.AddLine(p, s.ns, s.sds, "", c, false); err != nil {
			return nil, err
		}
		if err := plotting.AddScatter(p, s.ns, s.sds, "", c); err != nil {
			return nil, err
		}
		if err := plotting.AddHLine(p, s.population, "", c); err != nil {
			return nil, err
		}
		last := len(s.ns) - 1
		ends = append(ends, textLabel{s.ns[last], s.sds[last], fmt.Sprintf("d = %d", s.d), c, draw.YCenter})
	}
	// The population label sits above its lines (which nearly coincide), from the first n.
	ends = append(ends, textLabel{st[0].ns[0], st[0].population, "population MMD² (dashed, each d)", fig4_2StudyColors[0], draw.YBottom})
	if err := addTextLabels(p, ends); err != nil {
		return nil, err
	}
	return p, nil
}

// fig4_2StudyCaption describes the dimension study's panel from its results.
func fig4_2StudyCaption(res *run.Results) (string, error) {
	st, err := fig4_2StudyResults(res)
	if err != nil {
		return "", err
	}
	perN := map[string]int{}
	for _, r := range res.Where(fig4_2StudyDataset, "exact", fig4_2MetricMargin) {
		d, _ := r.Param("d")
		n, _ := r.Param("n")
		perN[d+"/"+n]++
	}
	draws := slices.Min(slices.Collect(maps.Values(perN)))
	figN := 0.0
	for _, n := range fig4_2Ns(res) {
		figN = max(figN, n)
	}
	var within []string
	dims := make([]string, len(st))
	pops := make([]string, len(st))
	exps := make([]string, len(st))
	reach := make([]string, len(st))
	for i, s := range st {
		dims[i] = strconv.Itoa(s.d)
		if s.nSeparate <= figN {
			within = append(within, "d = "+strconv.Itoa(s.d))
		}
		pops[i] = fmt.Sprintf("%.2g", s.population)
		exps[i] = fmt.Sprintf("n^%.2f", s.exponent)
		reach[i] = fmt.Sprintf("%.1g", s.nSeparate)
	}
	conclusion := fmt.Sprintf("No dimension separates within the figure's n (up to %g); the figure keeps d = 1, the thesis's notation.", figN)
	if len(within) > 0 {
		conclusion = fmt.Sprintf("The extrapolation separates within the figure's n (up to %g) for %s; the figure keeps d = 1, the thesis's notation.", figN, strings.Join(within, ", "))
	}
	return fmt.Sprintf("(d) Dimension study (the thesis states no dimension): the exact MMD² alone, d = %s, %d draws at each n = %s. Solid: standard deviation of the decision margin MMD²(Z, W) − MMD²(X, W); dashed: its mean, the population MMD² (closed form). "+
		"Draws are decided once the spread falls to the mean: the spreads (∝ %s) reach the population MMD² (%s) at n ≈ %s. %s",
		strings.Join(dims, ", "), draws, kit.PlainFloats(st[0].ns), strings.Join(exps, ", "), strings.Join(pops, ", "), strings.Join(reach, ", "), conclusion), nil
}

// fig4_2Ns returns the sample sizes of fig4_2's three-sample draws in the results.
func fig4_2Ns(res *run.Results) []float64 {
	var ns []float64
	for _, r := range res.Where(fig4_2Dataset, "linear", metricWrong) {
		if n, err := r.ParamFloat("n"); err == nil && !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	return ns
}

// checkSameError decides "a and b have the same error" on the n where one of them does better than
// chance. The n are picked by the binomial tests of beatsChance for both methods at every n, Holm-adjusted
// over all of them, so that one lucky run of errors among many looks does not make a premise.
func checkSameError(dataset, a, b string) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		ns, err := ns(res, dataset, a, metricWrong)
		if err != nil {
			return verdict.Verdict{}, err
		}
		var looks []verdict.Test
		var lookN []float64
		for _, n := range ns {
			for _, m := range []string{a, b} {
				t, err := beatsChance(res, dataset, m, atN(n))
				if err != nil {
					return verdict.Verdict{}, err
				}
				looks, lookN = append(looks, t), append(lookN, n)
			}
		}
		ps := make([]float64, len(looks))
		for i, t := range looks {
			ps[i] = t.PSupport
		}
		var sep []float64
		best := 0
		for i, p := range verdict.Holm(ps) {
			if p < verdict.Alpha && !slices.Contains(sep, lookN[i]) {
				sep = append(sep, lookN[i])
			}
			if looks[i].PSupport < looks[best].PSupport {
				best = i
			}
		}
		label := fmt.Sprintf("%s − %s error rate", a, b)
		if len(sep) == 0 {
			return verdict.Decide([]verdict.Test{verdict.Premise(label, fmt.Sprintf("neither %s nor %s does better than chance at any n (error rate below 1/2 by an exact binomial test, Holm over the %d looks), so equal errors at chance say nothing", a, b, len(looks)))},
				"the most separating look: "+looks[best].String(), fig4_2StudyNote(res)), nil
		}
		wa, wb, err := pairedDraws(res, dataset, metricWrong, a, b, nInSet(sep, "at n = "+kit.FormatFloats(sep)))
		if err != nil {
			return verdict.Verdict{}, err
		}
		d := make([]float64, len(wa))
		for i := range wa {
			d[i] = wa[i] - wb[i]
		}
		return verdict.Decide([]verdict.Test{verdict.Equivalent(label+" at n = "+kit.FormatFloats(sep)+" (where one beats chance)", d, errorMargin)}), nil
	}
}

// checkSeparate decides "each of methods ends up separating P_X from P_Z": see checkSeparation.
func checkSeparate(dataset string, methods ...string) func(*run.Results) (verdict.Verdict, error) {
	return checkSeparation(dataset, methods, nil)
}

// checkCannotSeparate decides "the methods of worse cannot separate P_X from P_Z while those of
// better do": see checkSeparation.
func checkCannotSeparate(dataset string, better, worse []string) func(*run.Results) (verdict.Verdict, error) {
	return checkSeparation(dataset, better, worse)
}

// checkSeparation decides, at the largest n of the figure, that every method of separate has an
// error rate below separateRate and every method of cannot one above it: exact binomial tests each
// way against that one boundary (Holm over the family), so that a method is shown to separate,
// shown not to, or neither, and never both. Whether separation to that target is possible at that
// n at all (separable) is a premise of "cannot separate" only (cannot non-empty): failing where
// even the exact MMD must fail says nothing of a method, and the claim is then INCONCLUSIVE with
// the reason, its tests shown as notes. "Ends up separating" (cannot empty) asserts that the
// methods do separate in the figure; a rate shown above the target contradicts it whatever the
// reason, and the premise is a note that gives the reason.
func checkSeparation(dataset string, separate, cannot []string) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		n, err := largestN(res, dataset, separate[0], metricWrong)
		if err != nil {
			return verdict.Verdict{}, err
		}
		var tests []verdict.Test
		for i, m := range append(slices.Clone(separate), cannot...) {
			k, draws, err := drawErrorCount(res, dataset, m, atN(n))
			if err != nil {
				return verdict.Verdict{}, err
			}
			label := fmt.Sprintf("%s error rate at n = %g vs %g", m, n, separateRate)
			if i < len(separate) {
				tests = append(tests, verdict.RateBelow(label, k, draws, separateRate))
			} else {
				tests = append(tests, verdict.RateAbove(label, k, draws, separateRate))
			}
		}
		premise, ok, err := separable(res, dataset, n)
		if err != nil {
			return verdict.Verdict{}, err
		}
		if len(cannot) == 0 {
			return verdict.Decide(tests, "can the exact MMD reach the target at this n: "+premise, fig4_2StudyNote(res)), nil
		}
		notes := []string{"premise: " + premise, fig4_2StudyNote(res)}
		if ok {
			return verdict.Decide(tests, notes...), nil
		}
		for _, t := range tests {
			notes = append(notes, "not decided: "+t.String())
		}
		return verdict.Decide([]verdict.Test{verdict.Premise(fmt.Sprintf("separation at n = %g", n),
			fmt.Sprintf("its premise does not hold: an error rate of %g is out of reach at this n even for the exact MMD, so the claim speaks of an n this figure does not reach", separateRate))},
			notes...), nil
	}
}

// separable is the premise of the separation claims: whether an error rate of separateRate can be
// reached at n at all, and the evidence for the answer. Where the exact MMD decided at n, its own
// error rate must be shown below separateRate (exact binomial). Where it did not (fig4_2's exact
// MMD stops at 10⁴ while the claims look at 10⁵), the dimension study in the figure's dimension
// predicts its error rate at n, Φ(−MMD²/sd(n)) for a normal decision margin whose mean is the
// population MMD² and whose spread sd(n) is extrapolated along its fitted power of n; that must be
// at most separateRate. Without either, the premise does not hold.
func separable(res *run.Results, dataset string, n float64) (string, bool, error) {
	k, draws, err := drawErrorCount(res, dataset, "exact", atN(n))
	if err != nil {
		return "", false, err
	}
	if draws > 0 {
		t := verdict.RateBelow(fmt.Sprintf("exact error rate at n = %g vs %g", n, separateRate), k, draws, separateRate)
		return t.String(), t.Outcome() == verdict.Supported, nil
	}
	st, err := fig4_2StudyResults(res)
	if err != nil {
		return fmt.Sprintf("the exact MMD did not run at n = %g and no dimension study predicts it (%v)", n, err), false, nil
	}
	for _, s := range st {
		if s.d != fig4_2Dim {
			continue
		}
		pred := s.exactError(n)
		return fmt.Sprintf("the exact MMD did not run at n = %g; the dimension study in d = %d predicts its error rate there at %.4g (population MMD² %.2g, decision-margin spread extrapolated to %.2g), reaching %g only at n ≈ %.2g; supported if at most %g",
			n, s.d, pred, s.population, s.sdAt(n), separateRate, s.nReaching(separateRate), separateRate), pred <= separateRate, nil
	}
	return fmt.Sprintf("the exact MMD did not run at n = %g and the dimension study has no d = %d", n, fig4_2Dim), false, nil
}

// checkExactExplodes decides "the exact MMD's time explodes": the slope of its log time against
// log n (timed draws at n ≥ explodesFrom) above explodes, and at its largest n its time above
// verdict.TimeMargin times every approximation's.
func checkExactExplodes(dataset string, approximations []string) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		x, y, _, err := logDrawPoints(res, dataset, "exact", metricSeconds, fromN(explodesFrom))
		if err != nil {
			return verdict.Verdict{}, err
		}
		tests := []verdict.Test{verdict.SlopeAbove(fmt.Sprintf("exact: slope of log time vs log n at n ≥ %d", explodesFrom), x, y, explodes)}
		n, err := largestN(res, dataset, "exact", metricSeconds)
		if err != nil {
			return verdict.Verdict{}, err
		}
		for _, m := range approximations {
			t, err := timeRatio(res, dataset, "exact", m, n, verdict.Slower)
			if err != nil {
				return verdict.Verdict{}, err
			}
			tests = append(tests, t)
		}
		return verdict.Decide(tests), nil
	}
}
