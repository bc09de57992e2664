package course

import (
	"context"
	"fmt"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
	"gonum.org/v1/plot/vg"
)

// perrin_fig1 — the accuracy / time trade-off of Nyström (the course report, §4, first figure): relative error
// and time of the fit plus the feature map against the number m of uniformly sampled points, with
// all m eigenpairs kept, at γ = 0.1. Each time is the median of 3 timed calls after a warm-up
// (run.TimeMedian; 1 at smoke, 5 at paper scale) on landmarks drawn once; tasks run one at a time so
// that the times are not shared between concurrent tasks.
func perrinFig1() *run.Experiment {
	setups := run.PerScale[perrinSetup]{
		Smoke: perrinSetup{n: 400, reps: 2, calls: 1, grid: []float64{10, 40, 160}},
		Quick: perrinSetup{n: 4000, reps: 5, calls: 3, grid: []float64{10, 20, 50, 100, 200, 500, 1000}},
		Paper: perrinSetup{n: 20640, reps: 10, calls: 5, grid: []float64{10, 20, 50, 100, 200, 500, 1000, 2000}},
	}
	return &run.Experiment{
		ID: "perrin_fig1", Title: "Nyström error and time vs number of sampled points (course report)", Kind: run.Figure,
		Seed: 1001, Serial: true, Timings: []string{kit.MetricSeconds},
		Plan: perrinPlan("perrin_fig1", setups, func(ctx context.Context, env *run.Env, s perrinSetup) ([]run.Record, error) {
			X, err := housesSample(ctx, env.Data, env.RNG, s.n)
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
				relErr, secs, err := nystromError(env.RNG, k, X, int(m), 0, s.calls)
				if err != nil {
					return nil, err
				}
				params := []run.Param{run.P("m", m)}
				recs = append(recs,
					run.Record{Dataset: perrinDataset, Method: "nystrom", Params: params, Metric: metricRelErr, Value: relErr},
					run.Record{Dataset: perrinDataset, Method: "nystrom", Params: params, Metric: kit.MetricSeconds, Value: secs})
			}
			return recs, nil
		}),
		Render: renderPerrinFig1,
		Claims: []run.Claim{{
			ID:   "trade-off",
			Kind: run.Timing,
			Text: "more sampled points lower the Nyström error and cost more time",
			Rule: fmt.Sprintf("family of two (Holm at 0.05): least-squares slope of ln error against ln m over every repetition, supported if below 0, contradicted if above; and the ratio of "+
				"the times at the largest and the smallest m (each time a median of timed calls; geometric mean over the repetitions, t test "+
				"on log ratios paired by repetition), supported if shown above %g, contradicted if shown below %g (\"costs more time\" = slower by more than "+
				"verdict.TimeMargin = %g, the catalogue's one margin for timing claims: the smallest difference a reader sees on a logarithmic time axis)",
				verdict.TimeMargin, verdict.TimeMargin, verdict.TimeMargin),
			Check: checkPerrinFig1,
		}},
	}
}

// checkPerrinFig1 decides the trade-off claim of perrin_fig1: the error's slope against m below 0,
// the time's ratio between the largest and the smallest m above verdict.TimeMargin.
func checkPerrinFig1(res *run.Results) (verdict.Verdict, error) {
	lm, le, err := logDraws(res, "nystrom", metricRelErr, "m")
	if err != nil {
		return verdict.Verdict{}, err
	}
	ts, err := kit.Curves(res, perrinDataset, kit.MetricSeconds, "m", "nystrom")
	if err != nil {
		return verdict.Verdict{}, err
	}
	lo, hi := ts[0].First().X, ts[0].Last().X
	small, err := valuesAt(res, "nystrom", kit.MetricSeconds, "m", lo)
	if err != nil {
		return verdict.Verdict{}, err
	}
	large, err := valuesAt(res, "nystrom", kit.MetricSeconds, "m", hi)
	if err != nil {
		return verdict.Verdict{}, err
	}
	return verdict.Decide([]verdict.Test{
		verdict.SlopeBelow("Nyström: slope of ln error against ln m", lm, le, 0),
		verdict.RatioAbove(fmt.Sprintf("Nyström: time at m = %g / time at m = %g", hi, lo), large, small, true, verdict.TimeMargin),
	}), nil
}

func renderPerrinFig1(res *run.Results, out *run.Output) error {
	errs, err := kit.Curves(res, perrinDataset, metricRelErr, "m", "nystrom")
	if err != nil {
		return err
	}
	times, err := kit.Curves(res, perrinDataset, kit.MetricSeconds, "m", "nystrom")
	if err != nil {
		return err
	}
	labels := map[string]string{"nystrom": "Nyström"}
	a := plotting.NewPrint("relative error", "sampled points m", "relative Frobenius error")
	b := plotting.NewPrint("time of the fit and the feature map", "sampled points m", "time (s)")
	if err := kit.LogLog(a, b); err != nil {
		return err
	}
	if err := kit.AddMethodBands(a, errs, labels); err != nil {
		return err
	}
	if err := kit.AddMethodBands(b, times, labels); err != nil {
		return err
	}
	if err := kit.SavePrintRow(out, 5.5*vg.Centimeter, a, b); err != nil {
		return err
	}
	e0, e1, t0, t1 := errs[0].First(), errs[0].Last(), times[0].First(), times[0].Last()
	fitted, err := kit.LogLogSlope(kit.Xs(errs[0]), errs[0].Means())
	if err != nil {
		return fmt.Errorf("%s: %w", res.ID, err)
	}
	result := fmt.Sprintf("From m = %g to m = %g sampled points, Nyström's mean relative error falls from %.3g to %.3g (fitted log-log slope %s) "+
		"while its time grows from %.3g s to %.3g s (%.0f times).", e0.X, e1.X, e0.Mean, e1.Mean, slope(fitted), t0.Mean, t1.Mean, t1.Mean/t0.Mean)
	return kit.WriteCaption(out, res, result, fmt.Sprintf(
		"Nyström's accuracy-time trade-off (course report, first figure). Data: %s points drawn uniformly from California "+
			"housing (8 standardised features), a new sample in each of %d repetitions; Gaussian kernel exp(−γ‖x − z‖²) with γ = %g. "+
			"Nyström with m uniformly sampled points (m = %s), full rank m. (a) Relative Frobenius error of the approximation "+
			"on all sampled points; (b) wall-clock time of the fit and of the feature map of all points (the landmarks drawn once, "+
			"the error computation excluded), each the median of repeated timed calls. Lines: mean over the repetitions; bands: "+
			"minimum to maximum. Log-log axes. The report names neither its data nor its sizes: these are our choices.",
		setupValue(res, "n"), kit.Reps(errs[0]), perrinGamma, kit.PlainFloats(kit.Xs(errs[0]))))
}
