package ch6

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// classification reports whether a data set of the results is a classification task (its full
// forest has test accuracies).
func classification(res *run.Results, key string) bool {
	return len(res.Where(key, methodFull, metric(partTest, true))) > 0
}

// panel draws one data set of chapter 6: the score on part ("test" or "fit") against the pruned
// size (% of the initial forest, log axis) for each method, the mean over the repetitions with a
// min–max band, and the full forest's score as a horizontal band. With stop, NN-OMP's stopping point
// is marked by a star (its mean size and score over the repetitions where it stopped by itself).
func panel(res *run.Results, key, part string, methods []string, stop bool) (*plot.Plot, error) {
	cls := classification(res, key)
	metric := metric(part, cls)
	cs, err := kit.Curves(res, key, metric, fractionParam, methods...)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		for j := range c.Points {
			c.Points[j].X *= 100
		}
	}
	bands, err := kit.MethodBands(cs, labels)
	if err != nil {
		return nil, err
	}
	full := res.Where(key, methodFull, metric)
	if len(full) == 0 {
		return nil, fmt.Errorf("%s: no full-forest %s on %s", res.ID, metric, key)
	}
	v := make([]float64, len(full))
	for i, r := range full {
		v[i] = r.Value
	}
	lo, hi := 100*fractions[0], 100*fractions[len(fractions)-1]
	m := floats.Sum(v) / float64(len(v))
	forest, err := styles.Band(labels[methodFull], methodFull)
	if err != nil {
		return nil, err
	}
	forest.X, forest.Mean, forest.Lo, forest.Hi = []float64{lo, hi}, []float64{m, m}, []float64{floats.Min(v), floats.Min(v)}, []float64{floats.Max(v), floats.Max(v)}
	bands = append(bands, forest)
	yLabel := "test MSE"
	if part == partFit {
		yLabel = "train+validation MSE"
	}
	if cls {
		yLabel = strings.Replace(yLabel, "MSE", "accuracy", 1)
	}
	p := plotting.NewPrint(name(key), "pruned size (% of the forest)", yLabel)
	if err := plotting.LogX(p); err != nil {
		return nil, err
	}
	if err := plotting.AddBands(p, bands...); err != nil {
		return nil, err
	}
	if stop {
		x, y, _, err := stopPoint(res, key)
		if err != nil {
			return nil, err
		}
		if !floats.HasNaN([]float64{x, y}) {
			if err := styles.AddScatter(p, []float64{x}, []float64{y}, "NN-OMP stops", "nn-omp-stop"); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// stopPoint is where NN-OMP stopped by itself on a data set: the mean over the repetitions where
// it stopped before using the whole initial forest of its size (% of that forest) and of its test
// score there, with the number of such repetitions; NaNs when it never stopped.
func stopPoint(res *run.Results, key string) (x, y float64, stops int, err error) {
	size, err := kit.PerRep(res.Where(key, methodFull, metricForestSize))
	if err != nil {
		return 0, 0, 0, err
	}
	stopped, err := kit.PerRep(res.Where(key, nnomp, metricStopped))
	if err != nil {
		return 0, 0, 0, err
	}
	score, err := kit.PerRep(res.Where(key, nnomp, metricStopPrefix+metric(partTest, classification(res, key))))
	if err != nil {
		return 0, 0, 0, err
	}
	var xs, ys []float64
	for rep, s := range stopped {
		if s > 0 {
			xs, ys = append(xs, 100*s/size[rep]), append(ys, score[rep])
		}
	}
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), 0, nil
	}
	return floats.Sum(xs) / float64(len(xs)), floats.Sum(ys) / float64(len(ys)), len(xs), nil
}

// grid saves one panel per data set, cols to a row at page width, with the legend below.
func grid(out *run.Output, res *run.Results, keys []string, cols int, part string, methods []string, stop bool) error {
	panels := make([]*plot.Plot, len(keys))
	for i, k := range keys {
		p, err := panel(res, k, part, methods, stop)
		if err != nil {
			return err
		}
		panels[i] = p
	}
	rows := (len(keys) + cols - 1) / cols
	return kit.SavePrintGrid(out, rows, cols, plotting.PageWidth, 4.6*vg.Centimeter, plotting.LegendBelow, panels...)
}

// setUp describes the runs behind a chapter-6 figure for its caption: the data sets with their
// sizes, the initial forests chosen and the repetitions.
func setUp(res *run.Results, keys []string) string {
	var parts []string
	for _, k := range keys {
		sizes := res.Where(k, methodFull, metricForestSize)
		v := make([]float64, len(sizes))
		for i, r := range sizes {
			v[i] = r.Value
		}
		slices.Sort(v)
		parts = append(parts, fmt.Sprintf("%s %d repetitions, initial forest %s trees", name(k), len(v), rangeOf(v)))
	}
	return strings.Join(parts, "; ")
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

// setUpText is the set-up every chapter-6 caption states.
func setUpText(sc run.Scale) string {
	cfg := scales.At(sc)
	rows := "whole data sets"
	if cfg.maxRows > 0 {
		rows = fmt.Sprintf("at most %d rows drawn afresh per repetition", cfg.maxRows)
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
	return fmt.Sprintf("Set-up (§6.3.1): %s, split 60/20/20 into train, test and validation (stratified for classification); "+
		"a random forest (fully grown trees, bootstrap, max_features d for regression and √d for classification) is grown on train and its size "+
		"chosen on validation among %s trees; its per-tree predictions on train+validation are the dictionary every method prunes "+
		"and weighs on; the pruned forests are scored on test. Pruned sizes: %s%% of the chosen forest (the thesis prints no grid). "+
		"Regression targets are standardised with the training part's mean and deviation (MSE 1 ≈ the target's variance); "+
		"classification votes sign(Σ wᵢtᵢ(x)) with labels ±1. Lines: mean over the repetitions; bands: minimum to maximum; "+
		"the full forest (dashed black) is the initial forest. The same forest serves every method in a repetition.",
		rows, g, kit.PlainFloats(pct))
}

// figure renders a chapter-6 figure of test (or fit) scores on the data sets keys, cols panels to
// a row, every method but the NN-OMP pair, with its caption: lead, then the set-up and the runs.
func figure(res *run.Results, out *run.Output, keys []string, cols int, part, lead string) error {
	if err := grid(out, res, keys, cols, part, baselines, false); err != nil {
		return err
	}
	return kit.WriteCaption(out, res, "", lead+" "+setUpText(res.Scale)+" Runs (those of fig6_6): "+setUp(res, keys)+".")
}
