package slides

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// printed1 is one row of the slides' table of experiment 1.
type printed1 struct {
	factorTime, knnTime float64 // seconds
	components, k       int
	score               float64
}

// table1Printed are the slides' values ("Результаты лучших запусков": the best runs).
var table1Printed = map[string]printed1{
	methodClassic:    {22.1, 1.8, 81, 4, 0.98},
	methodRandomized: {4.8, 2.2, 124, 4, 0.94},
	methodSparse:     {28.3, 11.7, 423, 4, 0.94},
	methodBayesian:   {4.1, 1.8, 100, 5, 0.95},
}

// The margins of experiment 1's claims, fixed from the slides' words before any run: a "serious"
// speed-up is at least twofold (the slides' are 4.6× and 5.4×), a claim of its own size and so
// stricter than "faster" (a ratio below 1/verdict.TimeMargin = 0.8, the catalogue's margin for
// timings); a "comparatively small" loss of quality is less than 0.05 of the score (theirs are
// 0.03 and 0.04).
const (
	speedUp   = 0.5
	smallLoss = 0.05
)

// slides_table1 — experiment 1 of the student slides: KNN on the faces projected by
// each factorisation. It runs the tasks of slides_fig1 and slides_fig2 as well.
func table1() *run.Experiment {
	return &run.Experiment{
		ID: "slides_table1", Title: "Faces: factorisation time, KNN time, |Σ̃|, K and score per factorisation (student slides, experiment 1)",
		Source: "student slides, experiment 1 results table",
		Kind:   run.Table, Seed: 2001, Serial: true, Timings: []string{metricFactorTime, metricKNNTime},
		Plan:   facesTasks,
		Render: renderSlidesTable1,
		Claims: []run.Claim{
			{
				ID:   "randomized-speedup-small-loss",
				Kind: run.Timing,
				Text: "the randomized SVD methods (randomized SVD, Bayesian PCA) buy a serious speed-up of both training and inference " +
					"for a comparatively small loss of quality",
				Rule: fmt.Sprintf("per method, one value per repetition: (a) factorisation time over the classic SVD's, geometric-mean ratio below %g (t test on log ratios, paired) "+
					"(a serious speed-up is at least twofold, stricter than the catalogue's \"faster\", below 1/verdict.TimeMargin = %g); (b) KNN time on the projections over KNN on the raw pixels, below %g; "+
					"(c) the classic SVD's score minus the method's, mean below %g (paired t; premise: KNN on the raw pixels is shown better than chance, ROC-AUC above 0.5); family of 6, Holm at 0.05; thresholds fixed from the slides' words before any run",
					speedUp, 1/verdict.TimeMargin, speedUp, smallLoss),
				Check: checkSlidesSpeedUp,
			},
			{
				ID:   "sparse-slowest-largest",
				Kind: run.Timing,
				Text: "sparse PCA does worst: the longest factorisation and the poorest reduction (the largest |Σ̃|)",
				Rule: "against each other factorisation, one value per repetition: sparse PCA's factorisation time over the other's, " + slowerRule + "; sparse PCA's |Σ̃| minus the other's, mean above 0 (paired t); family of 6, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					return checkSlidesAboveOthers(res, []string{facesDataset}, methodSparse, metricFactorTime, metricComponents)
				},
			},
			{
				ID:    "bayesian-fastest-best-randomized",
				Kind:  run.Timing,
				Text:  "Bayesian PCA is the fastest factorisation and has the best quality among the randomized models",
				Rule:  "one value per repetition: Bayesian PCA's factorisation time over each other method's, " + fasterRule + " (3 tests); its score minus the randomized SVD's and minus sparse PCA's, mean above 0 (paired t, 2 tests; premise: KNN on the raw pixels is shown better than chance); family of 5, Holm at 0.05",
				Check: checkSlidesBayesianBest,
			},
		},
	}
}

// scoreTest is a test on the faces' score (a ratio of ROC-AUCs), made only when its premise
// holds: KNN on the raw pixels, the ratio's denominator, is shown better than chance (ROC-AUC
// above 0.5, one-sided t over the repetitions). Otherwise the ratio is noise over noise and the
// test is inconclusive, saying so.
func scoreTest(res *run.Results, label string, d []float64, test func(string, []float64, float64) verdict.Test, c float64) verdict.Test {
	raw := values(res, facesDataset, methodRaw, metricAUC)
	if p := verdict.MeanAbove("", raw, 0.5); p.Outcome() != verdict.Supported {
		return verdict.Premise(label, fmt.Sprintf("KNN on the raw pixels is not shown better than chance (ROC-AUC %s over the repetitions), so the score, a ratio over its ROC-AUC, says nothing", cell(raw, "%.3f")))
	}
	return test(label, d, c)
}

func checkSlidesSpeedUp(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, m := range []string{methodRandomized, methodBayesian} {
		t, err := timeRatio(res, facesDataset, metricFactorTime, m, methodClassic, speedUp, true)
		if err != nil {
			return verdict.Verdict{}, err
		}
		tests = append(tests, t)
		if t, err = timeRatio(res, facesDataset, metricKNNTime, m, methodRaw, speedUp, true); err != nil {
			return verdict.Verdict{}, err
		}
		tests = append(tests, t)
		d, err := diff(res, facesDataset, metricScore, methodClassic, m)
		if err != nil {
			return verdict.Verdict{}, err
		}
		tests = append(tests, scoreTest(res, fmt.Sprintf("%s: score %s − %s", facesDataset, labels[methodClassic], labels[m]), d, verdict.MeanBelow, smallLoss))
	}
	return verdict.Decide(tests, "one value per repetition: the same images, split and admitted people for every method"), nil
}

// aboveOthers tests "method's metric is above every other factorisation's" on a data set,
// one test per other method: for a time, "slower" (the paired geometric-mean ratio above
// verdict.TimeMargin); for anything else, the paired difference above 0 (t). A degenerate score
// column (degenerateScores) fails the premise of its tests instead.
func aboveOthers(res *run.Results, dataset, method, metric string) ([]verdict.Test, error) {
	var tests []verdict.Test
	for _, m := range kit.Without(methodOrder, method) {
		if strings.HasSuffix(metric, "_time") {
			t, err := slower(res, dataset, metric, method, m)
			if err != nil {
				return nil, err
			}
			tests = append(tests, t)
			continue
		}
		label := fmt.Sprintf("%s: %s %s − %s", dataset, metric, labels[method], labels[m])
		if v, bad := degenerateScores(res, dataset); metric == metricScore && bad {
			tests = append(tests, verdict.Premise(label, fmt.Sprintf("the score column of %s is degenerate (a value of %.3g, beyond %g or not finite): it carries no information", dataset, v, scoreBound)))
			continue
		}
		d, err := diff(res, dataset, metric, method, m)
		if err != nil {
			return nil, err
		}
		tests = append(tests, verdict.MeanAbove(label, d, 0))
	}
	return tests, nil
}

// checkSlidesAboveOthers decides "method's metrics are all above every other factorisation's" on
// the data sets.
func checkSlidesAboveOthers(res *run.Results, datasets []string, method string, metrics ...string) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, d := range datasets {
		for _, metric := range metrics {
			t, err := aboveOthers(res, d, method, metric)
			if err != nil {
				return verdict.Verdict{}, err
			}
			tests = append(tests, t...)
		}
	}
	return verdict.Decide(tests, "one value per repetition, paired: every method factorises the same data"), nil
}

func checkSlidesBayesianBest(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, m := range kit.Without(methodOrder, methodBayesian) {
		t, err := faster(res, facesDataset, metricFactorTime, methodBayesian, m)
		if err != nil {
			return verdict.Verdict{}, err
		}
		tests = append(tests, t)
	}
	for _, m := range []string{methodRandomized, methodSparse} {
		d, err := diff(res, facesDataset, metricScore, methodBayesian, m)
		if err != nil {
			return verdict.Verdict{}, err
		}
		tests = append(tests, scoreTest(res, fmt.Sprintf("%s: score %s − %s", facesDataset, labels[methodBayesian], labels[m]), d, verdict.MeanAbove, 0))
	}
	return verdict.Decide(tests, "one value per repetition: the same images, split and admitted people for every method"), nil
}

func renderSlidesTable1(res *run.Results, out *run.Output) error {
	header := []string{"method", "factorisation time, s", "(slides)", "KNN time, s", "(slides)", "|Σ̃|", "(slides)", "K", "(slides)", "ROC-AUC", "score", "(slides)"}
	var rows [][]string
	for _, m := range append(append([]string(nil), methodOrder...), methodRaw) {
		v := func(metric, format string) string {
			return cell(values(res, facesDataset, m, metric), format)
		}
		factorTime := "—"
		if m != methodRaw {
			factorTime = v(metricFactorTime, "%.3g")
		}
		comps := "all pixels"
		if m != methodRaw {
			comps = v(metricComponents, "%g")
		}
		row := []string{labels[m], factorTime, "", v(metricKNNTime, "%.3g"), "", comps, "", v(metricK, "%g"), "", v(metricAUC, "%.3f"), v(metricScore, "%.3f"), ""}
		if p, ok := table1Printed[m]; ok {
			row[2], row[4], row[6], row[8], row[11] = fmt.Sprint(p.factorTime), fmt.Sprint(p.knnTime), strconv.Itoa(p.components), strconv.Itoa(p.k), fmt.Sprint(p.score)
		}
		rows = append(rows, row)
	}
	caption := "Student slides, experiment 1: is a face one of the admitted people? Our values beside the slides' (their columns \"(slides)\"). " +
		facesSetUp(res) + " The images are LFW's whole frames, shrunk, not crops of the face (the slides mention no crop; " +
		"scikit-learn's fetch_lfw_people keeps rows 70–195 and columns 78–172): KNN on the raw pixels reaches a ROC-AUC of " +
		cell(values(res, facesDataset, methodRaw, metricAUC), "%.3f") + ", where 1/2 is chance, and each score is a ratio to it." +
		" Cells: median over the repetitions (range in brackets)."
	return plotting.WriteTable(filepath.Join(out.Dir, out.ID), caption, header, rows)
}

// facesSetUp describes experiment 1's data and protocol at the results' scale for captions.
func facesSetUp(res *run.Results) string {
	cfg := facesScales.At(res.Scale)
	side := values(res, facesDataset, dataMethod, metricSide)
	images := values(res, facesDataset, dataMethod, metricImages)
	people := values(res, facesDataset, dataMethod, metricPeople)
	pos := values(res, facesDataset, dataMethod, metricPositives)
	subset := "every image"
	if cfg.maxImages > 0 {
		subset = fmt.Sprintf("every image of the admitted people and images of the others drawn at random up to %d in all", cfg.maxImages)
	}
	return fmt.Sprintf("Data: LFW (faces_lfw), %s people with two or more images; %d admitted people drawn at random in each of %d repetitions; %s "+
		"(images used: %s, of which the admitted people's: %s); grey values, each image %s×%s pixels "+
		"(LFW's 250×250 averaged over %d×%d blocks: the loader offers integer factors only, 2 gives 125×125, the nearest to the slides' 128×128); "+
		"each image normalised to mean 0 and standard deviation 1 over its pixels (the slides' \"normalised\"); split 60/20/20 into train, hold-out and test, stratified by the label; pixels centred on the training mean. "+
		"Each factorisation is fitted on the training part with %d components (the classic SVD is exact: LAPACK's dgesvdx computes the leading ones when they are at most a quarter of min(m, n), else dgesdd computes all and keeps those; "+
		"the randomized SVD oversamples by %d with %d power iterations; sparse PCA: λ = %g·‖A‖_F, %d alternations from the randomized SVD; Bayesian PCA = probabilistic PCA, %d EM iterations) "+
		"and keeps the components whose singular values make 70%% of their ℓ1 norm (|Σ̃|; sparse PCA's \"singular values\" are the scales ‖u_j‖‖v_j‖ of its rank-one terms, "+
		"Bayesian PCA's those of its loadings W); the three parts are projected on them (sparse PCA by least squares on its loadings, Bayesian PCA by the posterior mean). "+
		"KNN: K chosen among %s by hold-out accuracy (the slides' empirical risk), ROC-AUC of the share of admitted neighbours on the test part; "+
		"score = ROC-AUC over that of KNN on the raw pixels (the slides' note \"Больше – хуже\", larger is worse, contradicts their own table, where the classic SVD scores best: larger is better). "+
		"Times: %s, tasks run one at a time on a shared two-core machine; "+
		"the KNN time is tuning K on the hold-out plus scoring the test part.",
		cell(people, "%g"), cfg.admitted, cfg.reps, subset, cell(images, "%g"), cell(pos, "%g"),
		cell(side, "%g"), cell(side, "%g"), cfg.downscale, cfg.downscale,
		cfg.factor.components, oversample, cfg.factor.powerIterations, cfg.factor.sparsePenalty, cfg.factor.sparseIterations, cfg.factor.emIterations,
		plainInts(cfg.ks), cfg.factor.timing())
}

// facesFigureSetUp is the short set-up of the figures drawn from experiment 1 (slides_fig1 and
// slides_fig2): the data, the factorisations and the score, without the table's timing protocol.
func facesFigureSetUp(res *run.Results) string {
	cfg := facesScales.At(res.Scale)
	side := values(res, facesDataset, dataMethod, metricSide)
	images := values(res, facesDataset, dataMethod, metricImages)
	subset := "every image of the"
	if cfg.maxImages > 0 {
		subset = fmt.Sprintf("%s images (the admitted people's and others drawn at random) of", cell(images, "%g"))
	}
	return fmt.Sprintf("Data: LFW, %s %s people with two or more images, %s×%s pixels, each image normalised; %d admitted people drawn at random in each of %d repetitions; "+
		"split 60/20/20 into train, hold-out and test. Each factorisation computes %d components on the training part and keeps |Σ̃| of them by the slides' 70%% rule "+
		"(sparse PCA: λ = %g·‖A‖_F); score = test ROC-AUC of KNN on the projections over that on the raw pixels (larger is better).",
		subset, cell(values(res, facesDataset, dataMethod, metricPeople), "%g"), cell(side, "%g"), cell(side, "%g"), cfg.admitted, cfg.reps,
		cfg.factor.components, cfg.factor.sparsePenalty)
}

// plainInts prints v as "1, 2, 3".
func plainInts(v []int) string {
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = float64(x)
	}
	return kit.PlainFloats(f)
}
