package ch6

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"github.com/fastkernels/kernellab/lab/run"
)

// meanScore is a method's score on part of a data set averaged over every pruned size and
// repetition (the full forest's over the repetitions), as the claims average it.
func meanScore(res *run.Results, key, part, method string) (float64, error) {
	v, err := meanOf(res.Where(key, method, metric(part, classification(res, key))))
	if err != nil {
		return 0, fmt.Errorf("%s: %s score of %s on %s: %w", res.ID, part, method, key, err)
	}
	return v, nil
}

// meanOf is the mean value of rows; no rows is an error.
func meanOf(rows []run.Row) (float64, error) {
	if len(rows) == 0 {
		return 0, fmt.Errorf("no rows to average")
	}
	var s float64
	for _, r := range rows {
		s += r.Value
	}
	return s / float64(len(rows)), nil
}

// measureName is how a caption names a data set's measure.
func measureName(cls bool) string {
	if cls {
		return "accuracy"
	}
	return "MSE"
}

// listed joins names as "A", "A and B" or "A, B and C".
func listed(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// comparison is the result sentence of fig6_1–fig6_4: on each data set, which method of the
// figure has the best mean score on part (averaged over sizes and repetitions), and on which data
// sets OMP's mean is better than OMP w/o weights'.
func comparison(res *run.Results, keys []string, part string) (string, error) {
	best := map[string][]string{} // method → "Kin8nm (MSE 0.41)"
	var order, ompAhead, ompBehind []string
	for _, k := range keys {
		cls := classification(res, k)
		var top string
		var topScore float64
		for _, m := range baselines {
			s, err := meanScore(res, k, part, m)
			if err != nil {
				return "", err
			}
			if top == "" || better(cls, s) > better(cls, topScore) {
				top, topScore = m, s
			}
		}
		if _, ok := best[top]; !ok {
			order = append(order, top)
		}
		best[top] = append(best[top], fmt.Sprintf("%s (%s %.3g)", name(k), measureName(cls), topScore))
		a, err := meanScore(res, k, part, omp)
		if err != nil {
			return "", err
		}
		b, err := meanScore(res, k, part, ompNoWeights)
		if err != nil {
			return "", err
		}
		if better(cls, a) > better(cls, b) {
			ompAhead = append(ompAhead, name(k))
		} else {
			ompBehind = append(ompBehind, name(k))
		}
	}
	var parts []string
	for _, m := range order {
		parts = append(parts, fmt.Sprintf("%s on %s", labels[m], listed(best[m])))
	}
	where := "test"
	if part == partFit {
		where = "train+validation"
	}
	s := fmt.Sprintf("Averaged over the pruned sizes and repetitions, the best %s score of the seven methods is that of %s.", where, listed(parts))
	switch {
	case len(ompBehind) == 0:
		s += fmt.Sprintf(" OMP's mean beats that of OMP w/o weights on all %d data sets.", len(keys))
	case len(ompAhead) == 0:
		s += fmt.Sprintf(" OMP w/o weights' mean beats OMP's on all %d data sets.", len(keys))
	default:
		s += fmt.Sprintf(" OMP's mean beats that of OMP w/o weights on %s, and trails it on %s.", listed(ompAhead), listed(ompBehind))
	}
	return s, nil
}

// setUpText is the set-up a chapter-6 caption states for a grid drawn as v on the data sets
// keys: what the lines and bands are, then the chapter's set-up (chapterSetUp).
func setUpText(res *run.Results, keys []string, v view) (string, error) {
	var bandNames []string
	for _, m := range v.banded {
		bandNames = append(bandNames, labels[m])
	}
	s, err := chapterSetUp(res, keys)
	if err != nil {
		return "", err
	}
	outlined := ""
	if len(bandNames) > 1 {
		outlined = fmt.Sprintf(" (%s: its edges only)", listed(bandNames[1:]))
	}
	return fmt.Sprintf("Lines: means over the repetitions; bands (%s only): minimum to maximum%s; full forest: the initial, unpruned one. %s",
		listed(bandNames), outlined, s), nil
}

// chapterSetUp is chapter 6's set-up (§6.3.1) at the results' scale, with the runs behind the
// data sets keys and the pruned sizes left out because they repeat a forest.
func chapterSetUp(res *run.Results, keys []string) (string, error) {
	cfg := scales.At(res.Scale)
	rows := "whole data sets"
	if cfg.maxRows > 0 {
		rows = fmt.Sprintf("≤ %d rows drawn afresh per repetition", cfg.maxRows)
	}
	grid := make([]float64, len(cfg.forests))
	for i, f := range cfg.forests {
		grid[i] = float64(f)
	}
	g := kit.PlainFloats(grid)
	if cfg.thesisSize {
		g += " and Table 6.1's size"
	}
	pct := make([]float64, len(fractions))
	for i, f := range fractions {
		pct[i] = 100 * f
	}
	runs, err := runsText(res, keys)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Set-up (§6.3.1): %s, split 60/20/20 (train/test/validation); a forest grown on train, its size chosen on validation among %s trees, "+
		"pruned and weighted on train+validation, scored on test (regression: MSE of the standardised target). "+
		"Pruned sizes: %s%% of the T trees (no grid in the thesis), round(f·T), at least one. %s",
		rows, g, kit.PlainFloats(pct), runs), nil
}

// runsText states the repetitions and initial forest sizes of the data sets keys, and the pruned
// sizes not drawn on each because they repeat a smaller size's forest in some repetition.
func runsText(res *run.Results, keys []string) (string, error) {
	var forests []string
	reps := map[int]bool{}
	skipped := map[string][]string{} // "2.5% and 5%" → data sets
	var skipOrder []string
	for _, k := range keys {
		rows := res.Where(k, methodFull, metricForestSize)
		v := make([]float64, len(rows))
		for i, r := range rows {
			v[i] = r.Value
		}
		slices.Sort(v)
		reps[len(v)] = true
		forests = append(forests, fmt.Sprintf("%s %s", name(k), rangeOf(v)))
		_, left, err := distinctFractions(res, k)
		if err != nil {
			return "", err
		}
		if len(left) == 0 {
			continue
		}
		pct := make([]string, len(left))
		for i, f := range left {
			pct[i] = fmt.Sprintf("%g%%", 100*f)
		}
		id := listed(pct)
		if _, ok := skipped[id]; !ok {
			skipOrder = append(skipOrder, id)
		}
		skipped[id] = append(skipped[id], name(k))
	}
	var counts []string
	for _, n := range slices.Sorted(maps.Keys(reps)) {
		counts = append(counts, fmt.Sprint(n))
	}
	s := fmt.Sprintf("%s repetitions per data set; initial trees: %s.", strings.Join(counts, " or "), strings.Join(forests, ", "))
	if len(skipOrder) == 0 {
		return s + " Every pruned size is a distinct forest in every repetition.", nil
	}
	var parts []string
	for _, id := range skipOrder {
		parts = append(parts, fmt.Sprintf("%s on %s", id, listed(skipped[id])))
	}
	return s + fmt.Sprintf(" Not drawn, as they repeat a smaller size's forest in some repetition: %s.", strings.Join(parts, "; ")), nil
}

// rangeOf prints sorted values as "v" when all equal, else "min–max".
func rangeOf(v []float64) string {
	if len(v) == 0 {
		return "none"
	}
	if v[0] == v[len(v)-1] {
		return fmt.Sprintf("%g", v[0])
	}
	return fmt.Sprintf("%g–%g", v[0], v[len(v)-1])
}
