package ch6

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/forest"
	"github.com/fastkernels/kernellab/lab/run"
)

// Chapter 6 (thesis §6.3): random forests pruned by OMP, NN-OMP and five baselines. One task is one
// repetition on one data set: the 60/20/20 split, the initial forest (its size chosen on validation),
// and every pruning method on the same forest, so that methods are compared paired. fig6_6 runs the
// tasks; fig6_1–fig6_5 and table6_1 render and check its results (run.Experiment.Uses).

// set is one data set of chapter 6 as the experiments load it.
type set struct {
	key     string // the results' dataset column
	name    string // as the figures name it
	dataset string // manifest name
	variant string // loader variant ("" = default)
	// thesisForest is Table 6.1's initial forest size; paper scale adds it to the grid.
	thesisForest int
	// leakFree marks the leak-free variants run beside the thesis's column sets (not in fig6_1–fig6_5).
	leakFree bool
}

// sets are the 11 data sets of Table 6.1 in the figures' order, then the leak-free variants of
// Gamma and Steel Plates. LFW pairs are the mirror's 10 folds (6,000 pairs of two 62×47 images).
var sets = []set{
	{key: "kin8nm", name: "Kin8nm", dataset: "kin8nm", thesisForest: 1000},
	{key: "houses", name: "California", dataset: "houses", thesisForest: 1000},
	{key: "kr_vs_kp", name: "KR-VS-KP", dataset: "kr_vs_kp", thesisForest: 1000},
	{key: "steel_plates", name: "Steel Plates", dataset: "steel_plates", variant: "openml", thesisForest: 1000},
	{key: "diamonds", name: "Diamonds", dataset: "diamonds", thesisForest: 429},
	{key: "lfw_pairs", name: "LFW pairs", dataset: "lfw_pairs", variant: "10_folds", thesisForest: 1000},
	{key: "gamma", name: "Gamma", dataset: "gamma", variant: "openml", thesisForest: 100},
	{key: "spambase", name: "Spambase", dataset: "spambase", thesisForest: 1000},
	{key: "diabetes", name: "Diabetes", dataset: "diabetes", thesisForest: 108},
	{key: "boston", name: "Boston", dataset: "boston", thesisForest: 100},
	{key: "breast_cancer", name: "Breast Cancer", dataset: "breast_cancer", thesisForest: 1000},
	{key: "gamma_uci", name: "Gamma (leak-free)", dataset: "gamma", variant: "uci", thesisForest: 100, leakFree: true},
	{key: "steel_plates_uci", name: "Steel Plates (leak-free)", dataset: "steel_plates", variant: "uci", thesisForest: 1000, leakFree: true},
}

// setByKey finds a data set of chapter 6 by its results key.
func setByKey(key string) (set, bool) {
	for _, s := range sets {
		if s.key == key {
			return s, true
		}
	}
	return set{}, false
}

// name is a data set's name in figures and evidence.
func name(key string) string {
	if s, ok := setByKey(key); ok {
		return s.name
	}
	return key
}

// scale is chapter 6 at one scale.
type scale struct {
	reps int
	// maxRows caps the rows drawn (uniformly, afresh in each repetition) before the split; 0 = all.
	maxRows int
	// forests is the grid of initial forest sizes the validation part chooses from.
	forests []int
	// thesisSize adds each data set's Table 6.1 forest size to the grid.
	thesisSize bool
}

// scales: paper as §6.3.1 (whole data sets, 10 repetitions, grids up to 1,000 trees with Table
// 6.1's size added); quick caps the large sets at 4,000 rows and the forests at 200 trees with the
// paper's 10 repetitions, so that the whole chapter runs in minutes on two cores; smoke in seconds.
var scales = run.PerScale[scale]{
	Smoke: scale{reps: 2, maxRows: 300, forests: []int{10, 20}},
	Quick: scale{reps: 10, maxRows: 4000, forests: []int{25, 50, 100, 200}},
	Paper: scale{reps: 10, forests: []int{100, 250, 500, 1000}, thesisSize: true},
}

// fractions are the pruned sizes as fractions of the initial forest: the thesis prints no grid,
// so the grid reaches 30% of the forest (issue 13).
var fractions = []float64{0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3}

// Chapter 6's methods (lab/plotting's registered names) in legend order.
const (
	omp          = "omp"
	ompNoWeights = "omp-unweighted"
	nnomp        = "nn-omp"
	nnNoWeights  = "nn-omp-unweighted"
	random       = "random"
	ensemble     = "caruana"
	zhangPred    = "zhang-predictions"
	zhangSim     = "zhang-similarity"
	kMeans       = "kmeans"
	methodFull   = "full-forest"
)

// pruner prunes a forest, given its per-tree predictions P on the pruning rows, to each of sizes.
type pruner func(rng *rand.Rand, P mat.Matrix, y []float64, sizes []int, opts forest.PruneOptions) (*forest.Pruning, error)

// deterministic makes a pruner of a pruning method that draws nothing.
func deterministic(f func(P mat.Matrix, y []float64, sizes []int, opts forest.PruneOptions) (*forest.Pruning, error)) pruner {
	return func(_ *rand.Rand, P mat.Matrix, y []float64, sizes []int, opts forest.PruneOptions) (*forest.Pruning, error) {
		return f(P, y, sizes, opts)
	}
}

// unweighted runs f without its weights (the selected trees averaged).
func unweighted(f pruner) pruner {
	return func(rng *rand.Rand, P mat.Matrix, y []float64, sizes []int, opts forest.PruneOptions) (*forest.Pruning, error) {
		opts.NoWeights = true
		return f(rng, P, y, sizes, opts)
	}
}

// table is chapter 6's method table: the pruning methods with their legend names as the thesis
// names them, then the full forest, the reference line (not run: it is the unpruned forest).
var table = kit.Methods[pruner]{
	{ID: omp, Label: "OMP", Run: deterministic(forest.PruneOMP)},
	{ID: ompNoWeights, Label: "OMP w/o weights", Run: unweighted(deterministic(forest.PruneOMP))},
	{ID: nnomp, Label: "NN-OMP", Run: deterministic(forest.PruneNNOMP)},
	{ID: nnNoWeights, Label: "NN-OMP w/o weights", Run: unweighted(deterministic(forest.PruneNNOMP))},
	{ID: random, Label: "Random", Run: forest.PruneRandom},
	{ID: ensemble, Label: "Ensemble", Run: deterministic(forest.PruneEnsemble)},
	{ID: zhangPred, Label: "Zhang Predictions", Run: deterministic(forest.PruneZhangPredictions)},
	{ID: zhangSim, Label: "Zhang Similarities", Run: deterministic(forest.PruneZhangSimilarity)},
	{ID: kMeans, Label: "Kmeans", Run: forest.PruneKMeans},
	{ID: methodFull, Label: "full forest"},
}

// methods are every pruning method; baselines all but the NN-OMP pair (fig6_1–fig6_3); labels
// the legend names.
var (
	methods   = kit.Without(table.IDs(), methodFull)
	baselines = kit.Without(methods, nnomp, nnNoWeights)
	labels    = table.Labels()
)

// The metrics of chapter 6. A score is "<part>_<measure>": part test (generalisation), fit (the
// train+validation rows the trees were pruned and weighted on) or val (the validation part, for
// the initial forest's size); measure mse (regression, on the target standardised with the
// training part's mean and deviation, so 1 is about its variance) or accuracy (classification).
const (
	partTest         = "test"
	partFit          = "fit"
	partVal          = "val"
	metricForestSize = "forest_size"    // full-forest: the initial size chosen on validation
	metricKept       = "kept"           // trees a pruned forest holds (distinct)
	metricNegative   = "negative_share" // omp: share of negative weights
	metricStopped    = "stopped"        // nn-omp: trees held when it stopped by itself (0: it never did)
	metricStopPrefix = "stop_"          // nn-omp: "stop_test_<measure>" is its score where it stopped
	fractionParam    = "fraction"
	treesParam       = "trees"
)

// measure is the score of a data set's task: "mse" or "accuracy".
func measure(classification bool) string {
	if classification {
		return kit.MetricAccuracy
	}
	return kit.MetricMSE
}

// metric is the metric name of part ("test", "fit", "val") on a task.
func metric(part string, classification bool) string {
	return part + "_" + measure(classification)
}

// tasks plans one task per data set and repetition, and one per thesis data set that records its
// shape for table6_1.
func tasks(sc run.Scale) ([]run.Task, error) {
	cfg := scales.At(sc)
	tasks := table6_1Tasks()
	for _, set := range sets {
		for rep := range cfg.reps {
			tasks = append(tasks, run.Task{
				Key: fmt.Sprintf("%s/rep=%d", set.key, rep), Rep: rep,
				Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
					return draw(ctx, env, cfg, set)
				},
			})
		}
	}
	return tasks, nil
}

// data is one data set loaded for chapter 6: features as they are (trees need no scaling) and the
// raw target (class codes, or values).
type data struct {
	X              *mat.Dense
	y              []float64
	classification bool
}

// loadSet loads a data set once per run (run.Cached): every repetition reads the same rows, and
// loading LFW pairs decodes 12,000 JPEG images (half a minute). The data are never modified. A
// classification target must have two classes.
func loadSet(ctx context.Context, env *run.Env, set set) (*data, error) {
	return run.Cached(env, "ch6/"+set.key, func() (*data, error) { return readSet(ctx, env.Data, set) })
}

// readSet reads a data set from src.
func readSet(ctx context.Context, src dataset.Source, set set) (*data, error) {
	var opts []dataset.LoadOption
	if set.variant != "" {
		opts = append(opts, dataset.Variant(set.variant))
	}
	t, err := src.Table(ctx, set.dataset, opts...)
	if err != nil {
		return nil, err
	}
	d := &data{classification: t.Target.Kind == dataset.Classification}
	if d.classification && len(t.Target.Classes) != 2 {
		return nil, fmt.Errorf("%s: %d classes, chapter 6 prunes binary classifiers", set.key, len(t.Target.Classes))
	}
	if d.X, err = t.Matrix(dataset.Prep{}); err != nil {
		return nil, err
	}
	d.y = slices.Clone(t.Target.Values)
	return d, nil
}

// draw is one repetition on one data set (§6.3.1): draw the rows (all of them, or maxRows),
// split them 60/20/20 into train, test and validation (stratified for classification), grow the
// largest forest of the grid on train and choose the initial size on validation among the grid's
// prefixes (trees are independent, so the first k trees of a forest are a forest of k trees; ties
// go to the smaller forest), then prune that forest with every method on train+validation and
// score each pruned forest on test and on train+validation.
func draw(ctx context.Context, env *run.Env, cfg scale, set set) ([]run.Record, error) {
	d, err := loadSet(ctx, env, set)
	if err != nil {
		return nil, err
	}
	parts, pick, err := kit.DrawSplit(env.RNG, d.X, d.y, cfg.maxRows, d.classification, 0.6, 0.2, 0.2)
	if err != nil {
		return nil, err
	}
	train, test, val := parts[0], parts[1], parts[2]
	fit := append(slices.Clone(train), val...)
	Xtr, ytr := pick(train)
	Xte, yte := pick(test)
	Xval, yval := pick(val)
	Xfit, yfit := pick(fit)
	if err := targets(d.classification, ytr, yte, yval, yfit); err != nil {
		return nil, fmt.Errorf("%s: %w", set.key, err)
	}
	task := forest.Regression
	if d.classification {
		task = forest.Classification
	}

	grid := slices.Clone(cfg.forests)
	if cfg.thesisSize && !slices.Contains(grid, set.thesisForest) {
		grid = append(grid, set.thesisForest)
		slices.Sort(grid)
	}
	f, err := forest.FitContext(ctx, env.RNG, task, Xtr, ytr, forest.Options{Trees: grid[len(grid)-1]})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", set.key, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var recs []run.Record
	rec := func(method, metric string, v float64, params ...run.Param) {
		recs = append(recs, run.Record{Dataset: set.key, Method: method, Params: params, Metric: metric, Value: v})
	}
	Pval, err := f.TreePredictions(Xval)
	if err != nil {
		return nil, err
	}
	T, best := 0, math.Inf(-1)
	for _, k := range grid {
		s := score(d.classification, Pval, yval, firstTrees(k))
		rec(methodFull, metric(partVal, d.classification), s, run.P(treesParam, k))
		if b := better(d.classification, s); b > best {
			T, best = k, b
		}
	}
	rec(methodFull, metricForestSize, float64(T))
	Pte, err := f.TreePredictions(Xte)
	if err != nil {
		return nil, err
	}
	PfitAll, err := f.TreePredictions(Xfit)
	if err != nil {
		return nil, err
	}
	nFit, _ := PfitAll.Dims()
	Pfit := PfitAll.Slice(0, nFit, 0, T).(*mat.Dense)
	full := firstTrees(T)
	rec(methodFull, metric(partTest, d.classification), score(d.classification, Pte, yte, full))
	rec(methodFull, metric(partFit, d.classification), score(d.classification, PfitAll, yfit, full))

	sizes := make([]int, len(fractions))
	for i, fr := range fractions {
		sizes[i] = prunedSize(fr, T)
	}
	for _, method := range methods {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pr, err := prune(env.RNG, method, task, Pfit, yfit, append(slices.Clone(sizes), T))
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", set.key, method, err)
		}
		for i, fr := range fractions {
			sel := pr.Selections[i]
			x := run.P(fractionParam, fr)
			rec(method, metric(partTest, d.classification), score(d.classification, Pte, yte, sel), x)
			rec(method, metric(partFit, d.classification), score(d.classification, Pfit, yfit, sel), x)
			rec(method, metricKept, float64(len(sel.Trees)), x)
			if method == omp {
				rec(method, metricNegative, negativeShare(sel.Weights), x)
			}
		}
		if method == nnomp {
			stop := pr.Selections[len(sizes)]
			rec(method, metricStopped, float64(pr.Stopped))
			rec(method, metricStopPrefix+metric(partTest, d.classification), score(d.classification, Pte, yte, stop))
		}
	}
	return recs, nil
}

// prunedSize is the number of trees a pruned forest of fraction fr of a T-tree forest holds:
// round(fr·T), at least one tree. Small forests make neighbouring fractions the same forest (with
// T = 25, 1%, 2.5% and 5% are all one tree); the figures draw distinct sizes only (distinctFractions).
func prunedSize(fr float64, T int) int {
	return max(1, int(math.Round(fr*float64(T))))
}

// targets prepares the targets in place: ±1 labels (class code 1 is +1) for classification, and
// for regression values standardised with the mean and (population) deviation of the training part,
// which must not be constant.
func targets(classification bool, train []float64, others ...[]float64) error {
	all := append([][]float64{train}, others...)
	mean, sd := 0.5, 0.5 // 2c − 1 = (c − ½)/½
	if !classification {
		mean, sd = stat.PopMeanStdDev(train, nil)
		if !(sd > 0) {
			return fmt.Errorf("the training target is constant")
		}
	}
	for _, y := range all {
		for i := range y {
			y[i] = (y[i] - mean) / sd
		}
	}
	return nil
}

// prune runs one pruning method over the sizes (the last one the whole initial forest, so that
// NN-OMP runs until it stops by itself).
func prune(rng *rand.Rand, method string, task forest.Task, P *mat.Dense, y []float64, sizes []int) (*forest.Pruning, error) {
	m, ok := table.Lookup(method)
	if !ok || m.Run == nil {
		return nil, fmt.Errorf("unknown pruning method %q", method)
	}
	return m.Run(rng, P, y, sizes, forest.PruneOptions{Task: task})
}

// firstTrees is the unpruned forest of the first k trees: each with weight 1/k.
func firstTrees(k int) forest.Selection {
	sel := forest.Selection{Trees: make([]int, k), Weights: make([]float64, k)}
	for i := range k {
		sel.Trees[i], sel.Weights[i] = i, 1/float64(k)
	}
	return sel
}

// score scores the forest sel on the rows of the per-tree predictions P: the MSE of Σ wᵢ tᵢ(x)
// (regression) or the accuracy of its sign, 0 giving +1 (classification), as forest.PrunedForest
// predicts. An empty selection predicts 0 (+1 for classification).
func score(classification bool, P *mat.Dense, y []float64, sel forest.Selection) float64 {
	var s float64
	for i, yi := range y {
		var v float64
		for k, t := range sel.Trees {
			v += sel.Weights[k] * P.At(i, t)
		}
		if classification {
			pred := 1.0
			if v < 0 {
				pred = -1
			}
			if pred == yi {
				s++
			}
			continue
		}
		s += (v - yi) * (v - yi)
	}
	return s / float64(len(y))
}

// better orients a score so that larger is better: the accuracy, or minus the MSE.
func better(classification bool, score float64) float64 {
	if classification {
		return score
	}
	return -score
}

// negativeShare is the share of negative weights (0 for none).
func negativeShare(w []float64) float64 {
	if len(w) == 0 {
		return 0
	}
	neg := 0
	for _, x := range w {
		if x < 0 {
			neg++
		}
	}
	return float64(neg) / float64(len(w))
}
