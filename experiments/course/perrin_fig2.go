package course

import (
	"context"
	"fmt"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
	"gonum.org/v1/plot/vg"
)

// perrin_fig2 — Nyström against MEKA as the rank k grows (the course report, §4, second figure), at γ = 0.1.
// Both use the same memory, about n·k numbers: Nyström keeps rank k of 2k uniform landmarks (MEKA's
// landmark ratio), MEKA has rank k in each of c = 10 k-means clusters (η = 0.1, the paper's
// defaults).
func perrinFig2() *run.Experiment {
	setups := run.PerScale[perrinSetup]{
		Smoke: perrinSetup{n: 400, reps: 2, clusters: 4, grid: []float64{2, 5, 10}},
		Quick: perrinSetup{n: 4000, reps: 5, clusters: 10, grid: []float64{5, 10, 20, 50, 100}},
		Paper: perrinSetup{n: 20640, reps: 10, clusters: 10, grid: []float64{5, 10, 20, 50, 100, 200}},
	}
	return &run.Experiment{
		ID: "perrin_fig2", Title: "Nyström vs MEKA error vs rank (course report)", Kind: run.Figure, Seed: 1002,
		Plan: perrinPlan("perrin_fig2", setups, func(ctx context.Context, env *run.Env, s perrinSetup) ([]run.Record, error) {
			X, labels, err := clusteredSample(ctx, env.Data, env.RNG, s)
			if err != nil {
				return nil, err
			}
			k, err := gaussianGamma(perrinGamma)
			if err != nil {
				return nil, err
			}
			recs := s.records()
			for _, rank := range s.grid {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				ny, _, err := nystromError(env.RNG, k, X, int(2*rank), int(rank), 0)
				if err != nil {
					return nil, err
				}
				me, err := mekaError(env.RNG, k, X, labels, int(rank), lowrank.MEKAOptions{})
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
			Kind: run.Finding,
			Text: "the error of both Nyström and MEKA falls as the rank grows",
			Rule: "per method, least-squares slope of ln error against ln k over every repetition, 90% t interval; family of two (Holm): " +
				"supported if both slopes are below 0, contradicted if either is shown above",
			Check: func(res *run.Results) (verdict.Verdict, error) {
				var tests []verdict.Test
				for _, m := range []string{"nystrom", "meka"} {
					lk, le, err := logDraws(res, m, metricRelErr, "k")
					if err != nil {
						return verdict.Verdict{}, err
					}
					tests = append(tests, verdict.SlopeBelow(m+": slope of ln error against ln k", lk, le, 0))
				}
				cs, err := kit.Curves(res, perrinDataset, metricRelErr, "k", "nystrom", "meka")
				if err != nil {
					return verdict.Verdict{}, err
				}
				var notes []string
				for _, c := range cs {
					notes = append(notes, fmt.Sprintf("%s mean error over k = %v: %s", c.Method, kit.Xs(c), kit.FormatFloats(c.Means())))
				}
				return verdict.Decide(tests, notes...), nil
			},
		}},
	}
}

func renderPerrinFig2(res *run.Results, out *run.Output) error {
	cs, err := kit.Curves(res, perrinDataset, metricRelErr, "k", "nystrom", "meka")
	if err != nil {
		return err
	}
	p := plotting.NewPrint("error at equal memory", "rank k", "relative Frobenius error")
	if err := kit.LogLog(p); err != nil {
		return err
	}
	if err := kit.AddMethodBands(p, cs, perrinFig2Labels); err != nil {
		return err
	}
	if err := kit.SavePrintGrid(out, 1, 1, plotting.ColumnWidth, 5.5*vg.Centimeter, plotting.LegendBelow, p); err != nil {
		return err
	}
	ny, meka := cs[0], cs[1]
	result := fmt.Sprintf("From k = %g to k = %g, Nyström's mean relative error goes from %.3g to %.3g and MEKA's from %.3g to %.3g; "+
		"at k = %g MEKA's error is %.2f times Nyström's.", ny.First().X, ny.Last().X, ny.First().Mean, ny.Last().Mean,
		meka.First().Mean, meka.Last().Mean, meka.Last().X, meka.Last().Mean/ny.Last().Mean)
	return kit.WriteCaption(out, res, result, fmt.Sprintf(
		"Nyström against MEKA as the rank k grows, at the same memory of about n·k numbers (course report, second figure). "+
			"Data: %s points drawn uniformly from California housing (8 standardised features), a new sample and a new "+
			"k-means clustering (%s clusters) in each of %d repetitions; Gaussian kernel exp(−γ‖x − z‖²), γ = %g. Nyström keeps "+
			"rank k of 2k uniform landmarks (MEKA's landmark ratio); MEKA has rank k in each cluster with the paper's defaults "+
			"(η = 0.1, 3k sampled rows per cluster). k = %s. Relative Frobenius error on all sampled points; lines: mean over the "+
			"repetitions, bands: minimum to maximum. Log-log axes.",
		setupValue(res, "n"), setupValue(res, "clusters"), kit.Reps(cs[0]), perrinGamma, kit.PlainFloats(kit.Xs(cs[0]))))
}

// perrinFig2Labels are the legend entries of perrin_fig2 (the set-up is in the caption).
var perrinFig2Labels = map[string]string{"nystrom": "Nyström (2k landmarks)", "meka": "MEKA (rank k per cluster)"}
