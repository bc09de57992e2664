package course

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// Set-up of notes_fig_nystrom.
const (
	notesNystromData   = "houses"
	notesNystromRank   = 20 // k, open in the source
	notesNystromMetric = "frobenius-error"
	// The methods (series) of the results table.
	nystromAll         = "nystrom"             // rank-k Nyström on the whole subsample
	bestRankAll        = "best-rank-k"         // ||G − G_k||_F on the whole subsample
	nystromTrain       = "nystrom-train"       // fitted on the training half, error on it
	nystromHeldOut     = "nystrom-heldout"     // the same map on the held-out half
	bestRankHeldOut    = "best-rank-k-heldout" // ||G − G_k||_F of the held-out half's Gram matrix
	notesNystromGapLaw = 0.25                  // exponent of c in the additive term of Drineas and Mahoney's bound
)

// notesNystromSizes are the subsample size, the landmark grid and the repetitions at a scale.
type notesNystromSizes struct {
	n, reps   int
	landmarks []int
}

var notesNystromScales = run.PerScale[notesNystromSizes]{
	Smoke: notesNystromSizes{n: 300, reps: 2, landmarks: []int{20, 40, 80}},
	Quick: notesNystromSizes{n: 2000, reps: 4, landmarks: []int{20, 40, 80, 160, 320, 640}},
	Paper: notesNystromSizes{n: 5000, reps: 10, landmarks: []int{20, 40, 80, 160, 320, 640, 1280}},
}

// notesFigNystrom — rank-k Nyström against the best rank-k approximation (lecture notes:
// ||G − Ĝ_k||_F ≤ ||G − G_k||_F + an additive term that vanishes as c grows), and its out-of-sample
// feature map Φ̂(x) = k_{x,S} V_k Σ_k^{-1/2}. The source names no data set and no sizes: we use
// Houses (California housing, 8 features), a uniform subsample of n points per repetition (300 / 2000
// / 5000 at smoke / quick / paper scale) standardised on itself, the Gaussian kernel with the thesis's
// σ² (mean squared distance of the subsample), k = 20, and c uniform landmarks doubling from k. The
// best rank-k error is √(Σ_{i>k} λ_i²) from the eigenvalues of G (Eckart–Young: the error of
// lowrank.BestRankK, without forming G_k). For the out-of-sample map the subsample is split in
// halves: Nyström is fitted on one (landmarks drawn from it) and Φ̂ applied to the other, whose Gram
// matrix it approximates by Φ̂Φ̂ᵀ; the best rank-k error of that Gram matrix bounds it from below.
func notesFigNystrom() *run.Experiment {
	return &run.Experiment{
		ID: "notes_fig_nystrom", Title: "Nyström rank-k error vs landmarks, and its out-of-sample map",
		Kind: run.Figure, Seed: 1002,
		Plan:   planNotesNystrom,
		Render: renderNotesNystrom,
		Claims: []run.Claim{
			notesNystromGapClaim("gap-shrinks", run.Check, "the additive gap ||G − Ĝ_k||_F − ||G − G_k||_F shrinks as c grows",
				nystromAll, bestRankAll),
			notesNystromGapClaim("heldout-gap-shrinks", run.Finding, "on held-out points the out-of-sample map's gap to the best rank-k error shrinks as c grows",
				nystromHeldOut, bestRankHeldOut),
		},
	}
}

func planNotesNystrom(sc run.Scale) ([]run.Task, error) {
	sz := notesNystromScales.At(sc)
	tasks := make([]run.Task, sz.reps)
	for rep := range sz.reps {
		tasks[rep] = run.Task{Key: fmt.Sprintf("%s/rep=%d", notesNystromData, rep), Rep: rep,
			Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
				X, err := housesSample(ctx, env.Data, env.RNG, sz.n)
				if err != nil {
					return nil, err
				}
				return notesNystromRecords(ctx, env.RNG, X, sz.landmarks)
			}}
	}
	return tasks, nil
}

// notesNystromRecords measures one repetition on the subsample X: the rank-k Nyström error for every
// landmark count and the best rank-k error, on the whole subsample and out of sample.
func notesNystromRecords(ctx context.Context, rng *rand.Rand, X *mat.Dense, landmarks []int) ([]run.Record, error) {
	n, _ := X.Dims()
	kern, s2, err := kernel.ThesisGaussian(X)
	if err != nil {
		return nil, err
	}
	rank := notesNystromRank
	record := func(method string, size, c int, value float64) run.Record {
		params := []run.Param{run.P("n", size), run.P("k", rank), run.P("sigma2", s2)}
		if c > 0 {
			params = append(params, run.P("c", c))
		}
		return run.Record{Dataset: notesNystromData, Method: method, Params: params, Metric: notesNystromMetric, Value: value}
	}
	best := func(Y *mat.Dense) (float64, error) {
		G, err := kernel.Gram(kern, Y)
		if err != nil {
			return 0, err
		}
		rel, err := lowrank.BestRankKError(G, rank)
		return rel * mat.Norm(G, 2), err
	}
	var recs []run.Record
	bestAll, err := best(X)
	if err != nil {
		return nil, err
	}
	recs = append(recs, record(bestRankAll, n, 0, bestAll))
	for _, c := range landmarks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		S, err := lowrank.UniformLandmarks(rng, n, c)
		if err != nil {
			return nil, err
		}
		e, err := nystromErrorsOn(kern, X, S, rank, X)
		if err != nil {
			return nil, err
		}
		recs = append(recs, record(nystromAll, n, c, e[0]))
	}

	halves, err := dataset.Split(rng, n, 0.5, 0.5)
	if err != nil {
		return nil, err
	}
	train, test := kit.SelectRows(X, halves[0]), kit.SelectRows(X, halves[1])
	bestTest, err := best(test)
	if err != nil {
		return nil, err
	}
	recs = append(recs, record(bestRankHeldOut, len(halves[1]), 0, bestTest))
	for _, c := range landmarks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		S, err := lowrank.UniformLandmarks(rng, len(halves[0]), c)
		if err != nil {
			return nil, err
		}
		errs, err := nystromErrorsOn(kern, train, S, rank, train, test)
		if err != nil {
			return nil, err
		}
		recs = append(recs, record(nystromTrain, len(halves[0]), c, errs[0]), record(nystromHeldOut, len(halves[1]), c, errs[1]))
	}
	return recs, nil
}

// nystromErrorsOn fits rank-k Nyström on the landmarks S of fit and returns, for each Y,
// ||K(Y) − Φ̂(Y)Φ̂(Y)ᵀ||_F with the feature map Φ̂(x) = k_{x,S} V_k Σ_k^{-1/2}.
func nystromErrorsOn(kern kernel.Kernel, fit *mat.Dense, S []int, rank int, ys ...*mat.Dense) ([]float64, error) {
	ny, err := lowrank.FitNystrom(kern, fit, S, rank)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ys))
	for i, Y := range ys {
		phi, err := ny.Transform(Y)
		if err != nil {
			return nil, err
		}
		if out[i], err = lowrank.FrobeniusError(kern, Y, phi, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// nystromGaps returns, for every repetition and landmark count, the additive gap of the method to
// the best rank-k error of the same repetition, as rows with parameter c.
func nystromGaps(res *run.Results, method, bestMethod string) ([]run.Row, error) {
	bestOf := map[int]float64{}
	for _, r := range res.Where(notesNystromData, bestMethod, notesNystromMetric) {
		bestOf[r.Rep] = r.Value
	}
	var gaps []run.Row
	for _, r := range res.Where(notesNystromData, method, notesNystromMetric) {
		b, ok := bestOf[r.Rep]
		if !ok {
			return nil, fmt.Errorf("%s: repetition %d has %s but no %s", res.ID, r.Rep, method, bestMethod)
		}
		g := r
		g.Method, g.Metric, g.Value = method+"-gap", "gap", r.Value-b
		gaps = append(gaps, g)
	}
	if len(gaps) == 0 {
		return nil, fmt.Errorf("%s: no %s rows", res.ID, method)
	}
	return gaps, nil
}

// notesNystromGapClaim tests that the additive gap falls at least as fast as c^{-1/4}, the
// slowest decay of the additive term that theory guarantees (Drineas and Mahoney: ε ∝ c^{-1/4};
// the notes' O(√(n/c)) decays faster), by the least-squares slope of ln gap against ln c over every
// repetition and landmark count. kind is Check on the points the approximation was built from,
// where the bound is a theorem, and Finding out of sample, where no theorem gives it.
func notesNystromGapClaim(id string, kind run.ClaimKind, text, method, bestMethod string) run.Claim {
	return run.Claim{ID: id, Kind: kind, Text: text,
		Rule: fmt.Sprintf("gap = Nyström error − best rank-k error of the same repetition (≥ 0 by Eckart–Young); least-squares slope of ln gap "+
			"against ln c over every repetition and c, 90%% t interval; supported if below −%g (the slowest decay Drineas and Mahoney's "+
			"additive bound guarantees, c^{-1/4}), contradicted if above", notesNystromGapLaw),
		Check: func(res *run.Results) (verdict.Verdict, error) {
			gaps, err := nystromGaps(res, method, bestMethod)
			if err != nil {
				return verdict.Verdict{}, err
			}
			var lc, lg []float64
			for _, g := range gaps {
				c, err := g.ParamFloat("c")
				if err != nil {
					return verdict.Verdict{}, err
				}
				if !(g.Value > 0) {
					return verdict.Decide([]verdict.Test{verdict.Premise(method+": slope of ln gap against ln c",
						fmt.Sprintf("a gap is %.3g at c = %g (repetition %d): no logarithm, and below Eckart–Young's floor if negative", g.Value, c, g.Rep))}), nil
				}
				lc, lg = append(lc, math.Log(c)), append(lg, math.Log(g.Value))
			}
			sums, err := run.Summarise(gaps, "c")
			if err != nil {
				return verdict.Verdict{}, err
			}
			first, last := sums[0], sums[len(sums)-1]
			return verdict.Decide([]verdict.Test{verdict.SlopeBelow(method+": slope of ln gap against ln c", lc, lg, -notesNystromGapLaw)},
				fmt.Sprintf("mean gap %.4g at c = %g, %.4g at c = %g", first.Mean, first.X, last.Mean, last.X)), nil
		}}
}

// notesNystromLabels are the legend entries of notes_fig_nystrom: the same series reads the same
// in every panel (the gap curves of panel (b) are labelled as their Nyström curves, the y axis
// saying they are gaps), so the shared legend lists each once.
var notesNystromLabels = map[string]string{
	nystromAll:      "Nyström, all n points",
	bestRankAll:     "best rank k, all n points",
	nystromTrain:    "Nyström, training half",
	nystromHeldOut:  "Nyström, held-out half",
	bestRankHeldOut: "best rank k, held-out half",
}

// renderNotesNystrom draws (a) the errors against c, (b) the additive gap on log-log axes with the
// notes' c^{-1/2} rate, (c) the out-of-sample map's errors on the training and held-out halves.
func renderNotesNystrom(res *run.Results, out *run.Output) error {
	param := func(method, name string) string {
		rows := res.Where(notesNystromData, method, notesNystromMetric)
		if len(rows) == 0 {
			return "?"
		}
		v, _ := rows[0].Param(name)
		return v
	}
	n, k := param(bestRankAll, "n"), param(bestRankAll, "k")
	xLabel := "number of landmarks c"
	yLabel := "Frobenius error ‖G − Ĝ‖"

	a := plotting.NewPrint("all n points", xLabel, yLabel)
	ny, err := kit.Curves(res, notesNystromData, notesNystromMetric, "c", nystromAll)
	if err != nil {
		return err
	}
	bestA, err := constantCurve(res, bestRankAll, ny[0])
	if err != nil {
		return err
	}
	if err := kit.LogLog(a); err != nil {
		return err
	}
	if err := kit.AddMethodBands(a, append(ny, bestA), notesNystromLabels); err != nil {
		return err
	}

	b := plotting.NewPrint("additive gap", xLabel, "Nyström error − best rank-k error")
	gapCurves := make([]kit.Curve, 0, 2)
	for _, m := range []struct{ method, best string }{{nystromAll, bestRankAll}, {nystromHeldOut, bestRankHeldOut}} {
		gaps, err := nystromGaps(res, m.method, m.best)
		if err != nil {
			return err
		}
		sums, err := run.Summarise(gaps, "c")
		if err != nil {
			return err
		}
		gapCurves = append(gapCurves, kit.Curve{Method: m.method, Points: sums})
	}
	if err := kit.LogLog(b); err != nil {
		return err
	}
	if err := kit.AddMethodBands(b, gapCurves, notesNystromLabels); err != nil {
		return err
	}
	first, last := gapCurves[0].First(), gapCurves[0].Last()
	if last.X > first.X {
		ref := func(c float64) float64 { return 1.5 * first.Mean * math.Sqrt(first.X/c) }
		if err := styles.AddLine(b, []float64{first.X, last.X}, []float64{ref(first.X), ref(last.X)}, "slope −1/2", "slope"); err != nil {
			return err
		}
	}

	c := plotting.NewPrint("out-of-sample map", xLabel, yLabel)
	split, err := kit.Curves(res, notesNystromData, notesNystromMetric, "c", nystromTrain, nystromHeldOut)
	if err != nil {
		return err
	}
	bestC, err := constantCurve(res, bestRankHeldOut, split[0])
	if err != nil {
		return err
	}
	if err := kit.LogLog(c); err != nil {
		return err
	}
	if err := kit.AddMethodBands(c, append(split, bestC), notesNystromLabels); err != nil {
		return err
	}

	if err := kit.SavePrintRow(out, 5.5*vg.Centimeter, a, b, c); err != nil {
		return err
	}
	var gapSlopes [2]float64
	for i, g := range gapCurves {
		if gapSlopes[i], err = kit.LogLogSlope(kit.Xs(g), g.Means()); err != nil {
			return fmt.Errorf("%s: %s gap: %w", res.ID, g.Method, err)
		}
	}
	result := fmt.Sprintf("The additive gap falls with fitted log-log slopes %s (all points) and %s (held-out half; the notes' bound: −1/2); "+
		"at c = %g Nyström's error on all points is %.2f times the best rank-%s error.",
		slope(gapSlopes[0]), slope(gapSlopes[1]), ny[0].Last().X, ny[0].Last().Mean/bestA.Last().Mean, k)
	return kit.WriteCaption(out, res, result, fmt.Sprintf(
		"Rank-k Nyström against the best rank-k approximation (lecture notes: ‖G − Ĝ_k‖_F ≤ ‖G − G_k‖_F + an additive term that "+
			"vanishes as c grows), and its out-of-sample feature map Φ̂(x) = k_{x,S} V_k Σ_k^{-1/2}. Data: California housing, a "+
			"uniform subsample of n = %s points per repetition standardised on itself, %d repetitions; Gaussian kernel with σ² the "+
			"mean squared distance of the subsample; rank k = %s; c uniform landmarks, c = %s. (a) Frobenius error on all n points, "+
			"with the best rank-k error √(Σ_{i>k} λ_i²) (Eckart–Young; flat in c). (b) The additive gap, Nyström error minus the "+
			"best rank-k error of the same repetition, on all points and on the held-out half, with a line of slope −1/2 (the notes' "+
			"O(√(n/c)) rate) through 1.5× the first mean. (c) The subsample split in halves of %s points: Nyström fitted on the "+
			"training half (landmarks drawn from it) and its feature map applied to the held-out half, whose Gram matrix Φ̂Φ̂ᵀ "+
			"approximates; the held-out half's best rank-k error bounds it from below. Lines: mean over the repetitions; bands: "+
			"minimum to maximum. Log-log axes. The notes name no data set and no sizes: these are our choices.",
		n, kit.Reps(ny[0]), k, kit.PlainFloats(kit.Xs(ny[0])), param(nystromHeldOut, "n")))
}

// constantCurve makes a curve of a quantity that does not depend on c (one value per repetition,
// such as the best rank-k error) over the c values of along: mean, min and max over the repetitions
// at every point, so that it draws as a flat band beside the curves it bounds.
func constantCurve(res *run.Results, method string, along kit.Curve) (kit.Curve, error) {
	rows := res.Where(notesNystromData, method, notesNystromMetric)
	if len(rows) == 0 {
		return kit.Curve{}, fmt.Errorf("%s: no %s rows", res.ID, method)
	}
	s := run.Summary{Dataset: notesNystromData, Method: method, Metric: notesNystromMetric, N: len(rows),
		Min: math.Inf(1), Max: math.Inf(-1)}
	for _, r := range rows {
		s.Mean += r.Value / float64(len(rows))
		s.Min, s.Max = math.Min(s.Min, r.Value), math.Max(s.Max, r.Value)
	}
	c := kit.Curve{Method: method, Points: make([]run.Summary, len(along.Points))}
	for i, a := range along.Points {
		c.Points[i] = s
		c.Points[i].X = a.X
	}
	return c, nil
}
