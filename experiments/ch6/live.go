package ch6

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/forest"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/plotting"
)

// The live figure of OMP pruning (issue 36) prunes one forest of liveTrees trees on liveSet, the
// small regression set of the teaching notebook, at every size up to half the forest.
const (
	liveSet   = "diabetes"
	liveTrees = 100
)

// PruningLive is the live figure of OMP pruning for the teaching notebook (notebook.Live): its one
// control is the pruned size m, and it draws the m trees OMP chose, in the order it chose them,
// with their weights (negative ones in another colour and marker: the thesis's §6.3.3 blames them
// for OMP's overfitting), beside the test score of every pruned forest up to the slider's end
// against the full forest's, the current m marked. NewPruningLive computes everything once (the
// forest, its trees' predictions, OMP's path, the scores), so that a redraw only draws.
type PruningLive struct {
	cls    bool
	trees  int                // T: the initial forest's trees
	path   []forest.Selection // path[m-1]: OMP's pruned forest of m trees
	scores []float64          // scores[m-1]: its test score
	full   float64            // the full forest's test score
}

// pruningProblem is one repetition of chapter 6's set-up (§6.3.1, as fig6_6 draws it) on
// liveSet: the rows split 60/20/20 into train, test and validation, a forest of liveTrees trees
// grown on train (the thesis's Diabetes forest has 108; the chapter's choice of the size on
// validation is left out), the targets prepared as the chapter does (regression: standardised
// with the training part's mean and deviation), and every tree's predictions on the pruning rows
// (train+validation), where OMP selects and weights, and on the test rows, where it is scored.
type pruningProblem struct {
	cls       bool
	task      forest.Task
	trees     int
	Pfit, Pte *mat.Dense // trees' predictions on the pruning rows and on the test rows
	yfit, yte []float64  // their targets
}

// newPruningProblem draws the pruning problem of PruningLive from seed (one generator for the
// split and the forest).
func newPruningProblem(ctx context.Context, src dataset.Source, seed uint64) (*pruningProblem, error) {
	s, ok := setByKey(liveSet)
	if !ok {
		return nil, fmt.Errorf("ch6: live figure: %s is not a data set of chapter 6", liveSet)
	}
	d, err := readSet(ctx, src, s)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	parts, pick, err := kit.DrawSplit(rng, d.X, d.y, 0, d.classification, 0.6, 0.2, 0.2)
	if err != nil {
		return nil, err
	}
	train, test, val := parts[0], parts[1], parts[2]
	Xtr, ytr := pick(train)
	Xte, yte := pick(test)
	Xfit, yfit := pick(append(slices.Clone(train), val...))
	if err := targets(d.classification, ytr, yte, yfit); err != nil {
		return nil, fmt.Errorf("ch6: live figure: %s: %w", s.key, err)
	}
	p := &pruningProblem{cls: d.classification, task: forest.Regression, yfit: yfit, yte: yte, trees: liveTrees}
	if p.cls {
		p.task = forest.Classification
	}
	f, err := forest.FitContext(ctx, rng, p.task, Xtr, ytr, forest.Options{Trees: liveTrees})
	if err != nil {
		return nil, fmt.Errorf("ch6: live figure: %s: %w", s.key, err)
	}
	if p.Pfit, err = f.TreePredictions(Xfit); err != nil {
		return nil, err
	}
	if p.Pte, err = f.TreePredictions(Xte); err != nil {
		return nil, err
	}
	return p, nil
}

// NewPruningLive grows the forest of the live figure (pruningProblem, drawn from seed, its data
// from src) and runs OMP once up to half of its trees, reading every pruned size from the path,
// with each size's test score: a fraction of a second on two cores. If OMP stops by itself
// before (Pruning.Stopped), the slider ends where it stopped.
func NewPruningLive(ctx context.Context, src dataset.Source, seed uint64) (*PruningLive, error) {
	p, err := newPruningProblem(ctx, src, seed)
	if err != nil {
		return nil, err
	}
	largest := p.trees / 2
	pr, err := forest.PruneOMPContext(ctx, p.Pfit, p.yfit, kit.IndexRange(1, largest+1), forest.PruneOptions{Task: p.task})
	if err != nil {
		return nil, fmt.Errorf("ch6: live figure: %w", err)
	}
	if pr.Stopped > 0 {
		largest = min(largest, pr.Stopped)
	}
	if largest < 2 {
		return nil, fmt.Errorf("ch6: live figure: OMP keeps %d tree of %d: nothing to slide over", largest, p.trees)
	}
	l := &PruningLive{cls: p.cls, trees: p.trees, path: pr.Selections[:largest], full: score(p.cls, p.Pte, p.yte, firstTrees(p.trees))}
	for _, sel := range l.path {
		l.scores = append(l.scores, score(p.cls, p.Pte, p.yte, sel))
	}
	return l, nil
}

// Controls returns the live figure's one control, the pruned size m: from 1 to half the forest
// (or where OMP stopped), 10% of the forest by default (the middle of the chapter's grid of
// pruned sizes, 1% to 30%).
func (l *PruningLive) Controls() []notebook.Control {
	if l == nil || len(l.path) == 0 {
		return nil
	}
	return []notebook.Control{{Label: "pruned size m", Min: 1, Max: len(l.path), Value: min(prunedSize(0.1, l.trees), len(l.path))}}
}

// Render draws the live figure for the pruned size values[0] (notebook.Render): left, the weights
// of the m trees OMP chose, as stems in the order of selection; right, the test score against the
// pruned size with the full forest's as a horizontal line and m marked. Its alt text names m,
// both scores and the count of negative weights. A wrong number of values, or a size outside the
// control's range, is an error.
func (l *PruningLive) Render(values []int) (notebook.Frame, error) {
	if l == nil || len(l.path) == 0 {
		return notebook.Frame{}, fmt.Errorf("ch6: PruningLive.Render: no live figure (make it with NewPruningLive)")
	}
	if len(values) != 1 {
		return notebook.Frame{}, fmt.Errorf("ch6: PruningLive.Render: %d values, want 1 (the pruned size)", len(values))
	}
	m := values[0]
	if m < 1 || m > len(l.path) {
		return notebook.Frame{}, fmt.Errorf("ch6: PruningLive.Render: pruned size %d outside [1, %d]", m, len(l.path))
	}
	sel := l.path[m-1]
	left, negative, err := weightPanel(sel)
	if err != nil {
		return notebook.Frame{}, err
	}
	right, err := l.scorePanel(m)
	if err != nil {
		return notebook.Frame{}, err
	}
	fig := plotting.NewFigure(1, 2, 4.5*vg.Inch, 3.5*vg.Inch)
	fig.Set(0, 0, left)
	fig.Set(0, 1, right)
	png, err := fig.LivePNG()
	if err != nil {
		return notebook.Frame{}, err
	}
	alt := fmt.Sprintf("%s; test %s of the pruned forest %s, of the full forest of %d trees %s; %d of the %d weights negative",
		notebook.AltText(l.Controls(), values), measureName(l.cls), liveScore(l.scores[m-1]), l.trees, liveScore(l.full), negative, m)
	return notebook.Frame{PNG: png, Alt: alt}, nil
}

// liveScore writes a score as the live figure's alt text gives it.
func liveScore(v float64) string { return fmt.Sprintf("%.4g", v) }

// weightPanel draws the weights of a pruned forest as stems from zero, in the order OMP chose
// the trees, in OMP's style, the negative ones in vermillion with a downward triangle; it returns
// the plot and the count of negative weights.
func weightPanel(sel forest.Selection) (*plot.Plot, int, error) {
	var sty [2]plotting.SeriesStyle // positive (and zero) weights, negative ones
	var err error
	if sty[0], err = styles.Of(omp); err != nil {
		return nil, 0, err
	}
	if sty[1], err = plotting.Style(plotting.Vermillion, plotting.DownTriangle, plotting.Solid); err != nil {
		return nil, 0, err
	}
	m := len(sel.Trees)
	p := plotting.New(fmt.Sprintf("the weights of OMP's %d trees", m), "order of selection", "weight")
	var xs, ws [2][]float64
	for i, w := range sel.Weights {
		x, k := float64(i+1), 0
		if w < 0 {
			k = 1
		}
		if err := plotting.AddStyledLine(p, []float64{x, x}, []float64{0, w}, "", sty[k]); err != nil {
			return nil, 0, err
		}
		xs[k], ws[k] = append(xs[k], x), append(ws[k], w)
	}
	for k, label := range []string{"positive weight", "negative weight"} {
		if len(xs[k]) == 0 {
			continue
		}
		if err := plotting.AddStyledScatter(p, xs[k], ws[k], label, sty[k]); err != nil {
			return nil, 0, err
		}
	}
	p.X.Min, p.X.Max = 0.5, float64(m)+0.5
	return p, len(xs[1]), nil
}

// scorePanel draws the test score of OMP's pruned forests against their size, the full forest's
// as a horizontal line, and the size m ringed.
func (l *PruningLive) scorePanel(m int) (*plot.Plot, error) {
	yLabel := "test MSE (standardised target)"
	if l.cls {
		yLabel = "test accuracy"
	}
	p := plotting.New("OMP's pruned forests on the test rows", "pruned size m (trees)", yLabel)
	sizes := make([]float64, len(l.scores))
	for i := range sizes {
		sizes[i] = float64(i + 1)
	}
	if err := styles.AddLine(p, sizes, l.scores, labels[omp], omp); err != nil {
		return nil, err
	}
	if err := styles.AddHLine(p, l.full, fmt.Sprintf("%s (%d trees)", labels[methodFull], l.trees), methodFull); err != nil {
		return nil, err
	}
	ring, err := plotting.Style(plotting.Black, plotting.OpenCircle, plotting.Solid)
	if err != nil {
		return nil, err
	}
	if err := plotting.AddStyledScatter(p, []float64{float64(m)}, []float64{l.scores[m-1]}, fmt.Sprintf("m = %d", m), ring); err != nil {
		return nil, err
	}
	pad := 0.04 * (p.Y.Max - p.Y.Min) // headroom, so that neither the curve nor the line runs along the frame
	p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	return p, nil
}
