package slides

import (
	"context"
	"fmt"
	"slices"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/learn"
	"github.com/fastkernels/kernellab/lab/run"
)

// Experiment 1 of the slides: is a face one of the admitted people? slides_table1 runs the tasks
// (one per repetition); slides_fig1 and slides_fig2 draw from its results.

// facesScale is experiment 1 at one scale.
type facesScale struct {
	reps int
	// downscale averages k×k pixel blocks of LFW's 250×250 images (lab/dataset's Faces loader
	// offers integer factors only): 2 gives 125×125, the nearest to the slides' 128×128.
	downscale int
	// admitted is |U|, the number of admitted people drawn among LFW's 1,680.
	admitted int
	// maxImages caps the images used: every image of the admitted people, and images of the
	// others drawn at random up to the cap (0: every image).
	maxImages int
	factor    factorSetUp
	// ks is the grid of K the hold-out chooses from.
	ks []int
	// powerGrid and emGrid are slides_fig1's x axes: power iterations of the randomized SVD and
	// EM iterations of probabilistic PCA.
	powerGrid, emGrid []int
	// basis is the number of basis images slides_fig2 shows per method (recorded in repetition 0).
	basis int
}

// facesScales: paper is the slides' set-up (every LFW image of the 1,680 people with two or
// more, 125×125 pixels, 50 admitted people) with 500 components computed per method (the slides'
// largest |Σ̃| is 423); quick uses 50×50 pixels, 2,000 images (the admitted people's and others
// drawn at random) and 100 components, so that the experiment runs in minutes on two cores; smoke
// runs in seconds.
var facesScales = run.PerScale[facesScale]{
	Smoke: facesScale{reps: 2, downscale: 10, admitted: 5, maxImages: 200,
		factor: factorSetUp{components: 8, powerIterations: 1, sparsePenalty: 0.004, sparseIterations: 5, emIterations: 10, timeCalls: 1},
		ks:     []int{1, 2, 3, 4, 5}, powerGrid: []int{0, 1, 2}, emGrid: []int{0, 1, 5}, basis: 3},
	Quick: facesScale{reps: 3, downscale: 5, admitted: 50, maxImages: 2000,
		factor: factorSetUp{components: 100, powerIterations: 2, sparsePenalty: 0.004, sparseIterations: 10, emIterations: 20, timeCalls: 1},
		ks:     []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, powerGrid: []int{0, 1, 2, 3, 4, 5}, emGrid: []int{0, 1, 2, 3, 5, 10, 20, 40}, basis: 6},
	Paper: facesScale{reps: 3, downscale: 2, admitted: 50,
		factor: factorSetUp{components: 500, powerIterations: 2, sparsePenalty: 0.004, sparseIterations: 10, emIterations: 40, timeCalls: 1},
		ks:     []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, powerGrid: []int{0, 1, 2, 3, 4, 5}, emGrid: []int{0, 1, 2, 3, 5, 10, 20, 40, 80}, basis: 6},
}

// The data set key and metrics of experiment 1.
const (
	facesDataset    = "faces_lfw"
	metricKNNTime   = "knn_time" // seconds: K tuned on the hold-out, then the test scores
	metricK         = "k"
	metricAUC       = "auc"
	metricSweep     = "sweep_score" // slides_fig1: the score after a number of iterations
	metricBasis     = "basis"       // slides_fig2: a basis image's pixel
	metricImages    = "images"
	metricPeople    = "people"
	metricPositives = "positives"
	metricSide      = "side" // the images' height (= width)
	iterParam       = "iterations"
	compParam       = "component"
	pixelParam      = "pixel"
	dataMethod      = "data"
)

// facesTasks plans one task per repetition.
func facesTasks(sc run.Scale) ([]run.Task, error) {
	cfg := facesScales.At(sc)
	tasks := make([]run.Task, cfg.reps)
	for rep := range cfg.reps {
		tasks[rep] = run.Task{Key: fmt.Sprintf("faces/rep=%d", rep), Rep: rep,
			Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
				return facesRep(ctx, env, cfg, rep)
			}}
	}
	return tasks, nil
}

// facesSplit is one repetition's data: centred pixels (the training part's mean removed) of
// the training, hold-out and test parts, and their labels (1 admitted, 0 not).
type facesSplit struct {
	train, val, test    *mat.Dense
	ytrain, yval, ytest []float64
	people, images, pos int
}

// drawFaces draws the admitted people and the images, and splits them 60/20/20 into train,
// hold-out and test, stratified by the label.
func drawFaces(ctx context.Context, env *run.Env, cfg facesScale) (*facesSplit, *dataset.Faces, error) {
	faces, err := run.Cached(env, fmt.Sprint("slides/faces/", cfg.downscale), func() (*dataset.Faces, error) {
		return env.Data.Faces(ctx, facesDataset, cfg.downscale) // LFW once per run and downscale factor
	})
	if err != nil {
		return nil, nil, err
	}
	var people []string
	for _, p := range faces.Person {
		if len(people) == 0 || people[len(people)-1] != p { // the loader sorts images by person
			people = append(people, p)
		}
	}
	if cfg.admitted >= len(people) {
		return nil, nil, fmt.Errorf("%d admitted people of %d", cfg.admitted, len(people))
	}
	admitted := map[string]bool{}
	for _, i := range env.RNG.Perm(len(people))[:cfg.admitted] {
		admitted[people[i]] = true
	}
	var pos, neg []int
	for i, p := range faces.Person {
		if admitted[p] {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	if cfg.maxImages > 0 && len(pos)+len(neg) > cfg.maxImages {
		if 2*len(pos) > cfg.maxImages {
			return nil, nil, fmt.Errorf("the %d images of the admitted people exceed half of the %d images kept", len(pos), cfg.maxImages)
		}
		keep, err := dataset.Subsample(env.RNG, len(neg), cfg.maxImages-len(pos))
		if err != nil {
			return nil, nil, err
		}
		slices.Sort(keep)
		picked := make([]int, len(keep))
		for i, k := range keep {
			picked[i] = neg[k]
		}
		neg = picked
	}
	rows := append(slices.Clone(pos), neg...)
	y := make([]float64, len(rows))
	for i := range pos {
		y[i] = 1
	}
	parts, err := dataset.StratifiedSplit(env.RNG, y, 0.6, 0.2, 0.2)
	if err != nil {
		return nil, nil, err
	}
	pixels := kit.SelectRows(faces.Pixels, rows)
	if err := standardiseImages(pixels); err != nil {
		return nil, nil, err
	}
	pick := func(idx []int) (*mat.Dense, []float64) {
		v := make([]float64, len(idx))
		for i, j := range idx {
			v[i] = y[j]
		}
		return kit.SelectRows(pixels, idx), v
	}
	s := &facesSplit{people: len(people), images: len(rows), pos: len(pos)}
	s.train, s.ytrain = pick(parts[0])
	s.val, s.yval = pick(parts[1])
	s.test, s.ytest = pick(parts[2])
	n, d := s.train.Dims()
	mean := make([]float64, d)
	for i := range n {
		for j, v := range s.train.RawRowView(i) {
			mean[j] += v / float64(n)
		}
	}
	for _, m := range []*mat.Dense{s.train, s.val, s.test} {
		r, _ := m.Dims()
		for i := range r {
			row := m.RawRowView(i)
			for j := range row {
				row[j] -= mean[j]
			}
		}
	}
	return s, faces, nil
}

// standardiseImages gives each image (row) mean 0 and standard deviation 1: the slides' "normalised"
// images, read as the usual per-image normalisation, which removes the overall brightness and
// contrast of a photograph. A constant image has no such normalisation and is an error.
func standardiseImages(X *mat.Dense) error {
	r, _ := X.Dims()
	for i := range r {
		row := X.RawRowView(i)
		mean, sd := stat.PopMeanStdDev(row, nil)
		if !(sd > 0) {
			return fmt.Errorf("image %d is constant: it cannot be normalised", i)
		}
		for j := range row {
			row[j] = (row[j] - mean) / sd
		}
	}
	return nil
}

// knn tunes K on the hold-out among ks (by accuracy, the slides' empirical risk) and returns
// the tuned K and the ROC-AUC of the fraction of admitted neighbours on the test part.
func knn(train, val, test *mat.Dense, s *facesSplit, ks []int) (k int, auc float64, err error) {
	t, err := learn.TuneKNN(train, s.ytrain, val, s.yval, ks)
	if err != nil {
		return 0, 0, err
	}
	scores, err := t.Model.Scores(test, 1)
	if err != nil {
		return 0, 0, err
	}
	auc, err = learn.ROCAUC(s.ytest, scores, 1)
	return t.K, auc, err
}

// project projects the training, hold-out and test parts on the first k components of fit.
func project(fit *fit, k int, s *facesSplit) (parts [3]*mat.Dense, err error) {
	for i, X := range []*mat.Dense{s.train, s.val, s.test} {
		if parts[i], err = fit.coordinates(X, k); err != nil {
			return parts, err
		}
	}
	return parts, nil
}

// facesRep is one repetition of experiment 1: draw the people and images; KNN on the raw
// pixels (timed); then each factorisation fitted on the training part (timed), its |Σ̃| by the 70%
// rule, the three parts projected on those components and KNN on them (timed), scored by ROC-AUC
// over the raw pixels' ROC-AUC; then slides_fig1's sweeps and, in repetition 0, slides_fig2's
// basis images.
func facesRep(ctx context.Context, env *run.Env, cfg facesScale, rep int) ([]run.Record, error) {
	s, faces, err := drawFaces(ctx, env, cfg)
	if err != nil {
		return nil, err
	}
	var recs []run.Record
	rec := func(method, metric string, v float64, params ...run.Param) {
		recs = append(recs, run.Record{Dataset: facesDataset, Method: method, Params: params, Metric: metric, Value: v})
	}
	rec(dataMethod, metricImages, float64(s.images))
	rec(dataMethod, metricPeople, float64(s.people))
	rec(dataMethod, metricPositives, float64(s.pos))
	rec(dataMethod, metricSide, float64(faces.Height))

	timedKNN := func(train, val, test *mat.Dense) (k int, auc, secs float64, err error) {
		secs, err = cfg.factor.time(func() error {
			var err error
			k, auc, err = knn(train, val, test, s, cfg.ks)
			return err
		})
		return k, auc, secs, err
	}
	k, rawAUC, secs, err := timedKNN(s.train, s.val, s.test)
	if err != nil {
		return nil, fmt.Errorf("KNN on raw pixels: %w", err)
	}
	rec(methodRaw, metricKNNTime, secs)
	rec(methodRaw, metricK, float64(k))
	rec(methodRaw, metricAUC, rawAUC)
	rec(methodRaw, metricScore, 1)

	fits := map[string]*fit{}
	for _, m := range methodOrder {
		fit, kept, fitRecs, err := timedFit(ctx, env.RNG, m, s.train, cfg.factor, facesDataset)
		if err != nil {
			return nil, err
		}
		fits[m] = fit
		recs = append(recs, fitRecs...)
		parts, err := project(fit, kept, s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m, err)
		}
		k, auc, secs, err := timedKNN(parts[0], parts[1], parts[2])
		if err != nil {
			return nil, fmt.Errorf("%s: KNN: %w", m, err)
		}
		rec(m, metricKNNTime, secs)
		rec(m, metricK, float64(k))
		rec(m, metricAUC, auc)
		rec(m, metricScore, auc/rawAUC)
	}

	// slides_fig1: the score after q power iterations of the randomized SVD, and after i EM
	// iterations of probabilistic PCA (untimed).
	sweep := func(method string, grid []int) error {
		for _, it := range grid {
			if err := ctx.Err(); err != nil {
				return err
			}
			c := cfg.factor
			c.powerIterations, c.emIterations = it, it
			fit, err := fitSlides(env.RNG, method, s.train, c)
			if err != nil {
				return err
			}
			kept, err := fit.kept()
			if err != nil {
				return err
			}
			parts, err := project(fit, kept, s)
			if err != nil {
				return err
			}
			_, auc, err := knn(parts[0], parts[1], parts[2], s, cfg.ks)
			if err != nil {
				return err
			}
			rec(method, metricSweep, auc/rawAUC, run.P(iterParam, it))
		}
		return nil
	}
	if err := sweep(methodRandomized, cfg.powerGrid); err != nil {
		return nil, fmt.Errorf("%s sweep: %w", methodRandomized, err)
	}
	if err := sweep(methodBayesian, cfg.emGrid); err != nil {
		return nil, fmt.Errorf("%s sweep: %w", methodBayesian, err)
	}

	// slides_fig2: the leading basis images of sparse PCA and of the classic SVD.
	if rep == 0 {
		for _, m := range []string{methodSparse, methodClassic} {
			d, _ := fits[m].basis.Dims()
			for j := range min(cfg.basis, cfg.factor.components) {
				for p := range d {
					rec(m, metricBasis, fits[m].basis.At(p, j), run.P(compParam, j), run.P(pixelParam, p))
				}
			}
		}
	}
	return recs, nil
}
