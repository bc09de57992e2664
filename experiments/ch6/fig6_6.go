package ch6

import (
	"fmt"
	"math"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// fig6_6 — every data set with NN-OMP and NN-OMP w/o weights added (thesis Figure 6.6). Its tasks
// are chapter 6's runs (tasks: one forest per data set and repetition, every method pruning it),
// which fig6_1–fig6_5 and table6_1 render and check as well. The leak-free variants of Gamma and
// Steel Plates are run beside the thesis's column sets and drawn in the last two panels.
func fig6_6() *run.Experiment {
	return &run.Experiment{
		ID: "fig6_6", Title: "Pruned forests with NN-OMP: test score vs pruned size, every data set (thesis Figure 6.6)",
		Source: "thesis Figure 6.6 (§6.3.2)",
		Kind:   run.Figure, Seed: 6006,
		// Every metric is read off discrete choices: CART's split thresholds (an argmax over
		// candidates), OMP's and the baselines' tree selections (an argmax of correlations), NN-OMP's
		// stopping point. A tie that last-bit differences between BLAS kernels break the other way
		// changes a tree or a pruned forest (5 of 5120 test accuracies, 3 of 910 negative-weight
		// shares at quick scale, SkylakeX kernels against the references' Haswell).
		BySpread: map[string]string{"*": "a split or tree choice decided by the last bits"},
		Plan:     tasks,
		Render:   renderFig6_6,
		Claims: []run.Claim{
			{
				ID:   "nn-omp-stops-by-itself",
				Kind: run.Finding,
				Text: "NN-OMP picks the pruned size by itself: it stops before using the whole initial forest",
				Rule: "over every repetition of the 11 data sets: the share of runs where NN-OMP stopped by itself before holding every tree of the initial forest; exact binomial test, supported if the share is above 90% (Clopper–Pearson), contradicted if below",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					stops, runs := 0, 0
					for _, k := range thesisKeys() {
						for _, r := range res.Where(k, nnomp, metricStopped) {
							runs++
							if r.Value > 0 {
								stops++
							}
						}
					}
					if runs == 0 {
						return verdict.Verdict{}, fmt.Errorf("%s: no NN-OMP runs", res.ID)
					}
					return verdict.Decide([]verdict.Test{verdict.RateAbove("NN-OMP stopped by itself", stops, runs, 0.9)}), nil
				},
			},
			{
				ID:   "nn-omp-generalises",
				Kind: run.Finding,
				Text: "NN-OMP generalises very well: where it stops, its test score is at least as good as the full forest's (within one accuracy point, or 10% of the full forest's MSE) on every data set",
				Rule: fmt.Sprintf("per data set, one value per repetition: NN-OMP's test score where it stopped (or with the whole forest) and the full forest's; non-inferiority: "+
					"on the 6 classification sets NN-OMP's accuracy minus the full forest's above −%g, on the 5 regression sets NN-OMP's MSE over the full forest's below %g (%s); family of the 11 data sets, Holm at 0.05", accuracyMargin, mseFactor, marginRule),
				Check: checkFig6_6Generalises,
			},
		},
	}
}

// fig6_6Sets are the panels of fig6_6: every data set of chapter 6.
func fig6_6Sets() []string {
	keys := make([]string, len(sets))
	for i, s := range sets {
		keys[i] = s.key
	}
	return keys
}

func renderFig6_6(res *run.Results, out *run.Output) error {
	keys := fig6_6Sets()
	v := view{part: partTest, methods: methods, banded: []string{nnomp, methodFull}, stop: true}
	if err := grid(out, res, keys, 4, v); err != nil {
		return err
	}
	result, err := fig6_6Result(res)
	if err != nil {
		return err
	}
	var partial []string
	farthest, farthestSet := 0.0, ""
	for _, k := range keys {
		x, _, n, err := stopPoint(res, k)
		if err != nil {
			return err
		}
		if x > farthest {
			farthest, farthestSet = x, name(k)
		}
		if runs := len(res.Where(k, nnomp, metricStopped)); n < runs {
			partial = append(partial, fmt.Sprintf("%s %d of %d", name(k), n, runs))
		}
	}
	stopped := "every repetition stopped"
	if len(partial) > 0 {
		stopped = "repetitions that stopped, where not all did: " + strings.Join(partial, ", ")
	}
	sharedX := ""
	if farthest > 0 {
		sharedX = fmt.Sprintf(" Every panel shares one x axis, up to the farthest star (%s, %.0f%%).", farthestSet, farthest)
	}
	setup, err := setUpText(res, keys, v)
	if err != nil {
		return err
	}
	what := "Test MSE or accuracy against the pruned forest's size, every method, every data set of chapter 6 (thesis Figure 6.6). " +
		"Star: where NN-OMP stopped by itself (no tree left positively correlated with the residual), mean size and score over the " +
		"repetitions that stopped before taking every tree (" + stopped + "); beyond it NN-OMP's curve is flat. " +
		"Last two panels: leak-free variants, Gamma without its ID column, Steel Plates without the six other fault flags." + sharedX
	return kit.WriteCaption(out, res, result, what+" "+setup)
}

// fig6_6Result is fig6_6's result sentence: how often NN-OMP stopped by itself on the thesis's 11
// data sets and where, and on how many its mean test score where it stopped is within the claims'
// margin of the full forest's.
func fig6_6Result(res *run.Results) (string, error) {
	stops, runs := 0, 0
	lo, hi := math.Inf(1), math.Inf(-1)
	var within, outside []string
	for _, k := range thesisKeys() {
		x, _, n, err := stopPoint(res, k)
		if err != nil {
			return "", err
		}
		stops += n
		runs += len(res.Where(k, nnomp, metricStopped))
		if !math.IsNaN(x) {
			lo, hi = min(lo, x), max(hi, x)
		}
		cls := classification(res, k)
		stop, err := meanOf(res.Where(k, nnomp, metricStopPrefix+metric(partTest, cls)))
		if err != nil {
			return "", err
		}
		full, err := meanScore(res, k, partTest, methodFull)
		if err != nil {
			return "", err
		}
		ok := stop-full >= -accuracyMargin
		if !cls {
			ok = stop <= mseFactor*full
		}
		if ok {
			within = append(within, name(k))
		} else {
			outside = append(outside, name(k))
		}
	}
	if runs == 0 {
		return "", fmt.Errorf("%s: no NN-OMP runs", res.ID)
	}
	s := fmt.Sprintf("NN-OMP stopped by itself in %d of %d runs on the thesis's %d data sets", stops, runs, len(thesisKeys()))
	switch {
	case stops > 0 && lo == hi:
		s += fmt.Sprintf(", on average at %.3g%% of the initial forest", lo)
	case stops > 0:
		s += fmt.Sprintf(", on average at %.3g%% to %.3g%% of the initial forest depending on the data set", lo, hi)
	}
	s += fmt.Sprintf(". Where it stopped, its mean test score is within %g accuracy point, or %g%% of the MSE, of the full forest's on %d of them",
		100*accuracyMargin, math.Round(100*(mseFactor-1)), len(within))
	if len(outside) > 0 {
		s += " (not on " + listed(outside) + ")"
	}
	return s + ".", nil
}

func checkFig6_6Generalises(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, k := range thesisKeys() {
		cls := classification(res, k)
		stop, err := kit.PerRep(res.Where(k, nnomp, metricStopPrefix+metric(partTest, cls)))
		if err != nil {
			return verdict.Verdict{}, err
		}
		full, err := kit.PerRep(res.Where(k, methodFull, metric(partTest, cls)))
		if err != nil {
			return verdict.Verdict{}, err
		}
		if len(stop) == 0 || len(stop) != len(full) {
			return verdict.Verdict{}, fmt.Errorf("%s: %s: %d NN-OMP repetitions against %d of the full forest", res.ID, k, len(stop), len(full))
		}
		s, f := make([]float64, 0, len(stop)), make([]float64, 0, len(stop))
		for rep := range len(stop) {
			vf, ok := full[rep]
			vs, ok2 := stop[rep]
			if !ok || !ok2 {
				return verdict.Verdict{}, fmt.Errorf("%s: %s: repetition %d missing", res.ID, k, rep)
			}
			s, f = append(s, vs), append(f, vf)
		}
		tests = append(tests, atLeastAsGood(fmt.Sprintf("%s: NN-OMP where it stops vs full forest on test", name(k)), cls, s, f))
	}
	return verdict.Decide(tests, "one value per repetition, paired on the same split and forest: a difference is oriented so that positive means NN-OMP is better, an MSE ratio is NN-OMP's over the full forest's (below 1: NN-OMP is better)"), nil
}
