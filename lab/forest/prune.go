package forest

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Selection is a pruned forest: the kept trees and their weights. The pruned forest predicts
// Σᵢ Weights[i]·t_{Trees[i]}(x) for Regression and the sign of that sum (0 giving +1) for
// Classification. Methods without weights of their own give every kept tree the weight 1/m
// (the plain mean of the kept trees); Ensemble gives tree i its multiplicity divided by the
// number of picks.
type Selection struct {
	// Trees are the indices of the kept trees (columns of the prediction matrix), each once,
	// in the order the method chose them.
	Trees []int
	// Weights[i] is the weight of Trees[i].
	Weights []float64
}

// Pruning is the result of a pruning method over a grid of sizes.
type Pruning struct {
	// Sizes is the grid of pruned sizes that was asked for, in the caller's order.
	Sizes []int
	// Selections[k] is the pruned forest of size Sizes[k]. It can hold fewer trees when the
	// method stopped before that size (see Stopped), for Ensemble when a tree was picked more
	// than once, and for K-means when trees coincide (fewer distinct prediction vectors than
	// clusters leave clusters empty).
	Selections []Selection
	// Stopped is, for the methods that can stop by themselves (OMP when the next tree is
	// linearly dependent on the kept ones, the residual is orthogonal to every tree or there are
	// fewer rows than trees asked for; NN-OMP when no tree is positively correlated with the
	// residual), the number of trees they held when they stopped by themselves or before the
	// largest size asked for; 0 when they reached the largest size on the size limit alone,
	// and for the other methods.
	Stopped int
}

// PruneOptions are the settings shared by the pruning methods.
type PruneOptions struct {
	// Task is the forest's task: it picks the metric the methods that score ensembles use
	// (mean squared error for Regression, accuracy of the sign vote for Classification) and the
	// checks on the inputs (predictions and targets exactly ±1 for Classification). The zero
	// value is Regression.
	Task Task
	// NoWeights keeps the trees that OMP or NN-OMP select but gives them the weight 1/m (the
	// thesis's "OMP w/o weights", "NN-OMP w/o weights"); the other methods ignore it.
	NoWeights bool
}

// pruneInput is the validated input of a pruning method: the n×T per-tree predictions, the
// targets and the grid of sizes. Regression predictions stay in the caller's matrix (read only;
// a copy when it is not a *mat.Dense); Classification predictions are stored compactly, one
// byte per ±1 vote (an eighth of the float64 matrix), and packed one bit per vote where inner
// products are needed (PruneZhangSimilarity).
type pruneInput struct {
	op    string // the pruning method, for its errors
	task  Task
	n, T  int
	dense *mat.Dense // Regression: the predictions
	votes []int8     // Classification: votes[i*T+t] is tree t's vote on row i
	y     []float64
	sizes []int
	max   int // the largest size
}

// at returns tree t's prediction on row i.
func (in *pruneInput) at(i, t int) float64 {
	if in.votes != nil {
		return float64(in.votes[i*in.T+t])
	}
	return in.dense.At(i, t)
}

// col returns column t of the predictions (a copy).
func (in *pruneInput) col(t int) []float64 {
	c := make([]float64, in.n)
	for i := range c {
		c[i] = in.at(i, t)
	}
	return c
}

// addColumn sets sum += sign·P[:, t]. O(n).
func (in *pruneInput) addColumn(sum []float64, sign float64, t int) {
	for i := range sum {
		sum[i] += sign * in.at(i, t)
	}
}

// newPruneInput validates the inputs of pruning method op: a non-nil ctx, P n×T finite (±1 for
// Classification), y of length n finite (±1 for Classification), sizes non-empty in [1, T].
func newPruneInput(ctx context.Context, op string, task Task, P mat.Matrix, y []float64, sizes []int) (*pruneInput, error) {
	if err := ctxcheck.NotNil(ctx, "forest: "+op); err != nil {
		return nil, err
	}
	if !task.known() {
		return nil, fmt.Errorf("forest: %s: unknown task %v", op, task)
	}
	if P == nil {
		return nil, fmt.Errorf("forest: %s: the prediction matrix is nil", op)
	}
	dense, err := finiteDense(op, "predictions", P)
	if err != nil {
		return nil, err
	}
	n, T := dense.Dims()
	if len(y) != n {
		return nil, laberr.Errorf(laberr.ErrShape, "forest: %s: len(y) = %d, want the %d rows of the prediction matrix", op, len(y), n)
	}
	in := &pruneInput{op: op, task: task, n: n, T: T, y: append([]float64(nil), y...)}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "forest: %s: y[%d] = %g, want finite values", op, i, v)
		}
		if task == Classification && v != 1 && v != -1 {
			return nil, fmt.Errorf("forest: %s: y[%d] = %g, want a label −1 or +1 for Classification", op, i, v)
		}
	}
	if task == Regression {
		in.dense = dense
	} else {
		if err := memlimit.Check("forest: "+op, fmt.Sprintf("the %d×%d ±1 votes", n, T), 1, n, T); err != nil {
			return nil, err
		}
		in.votes = make([]int8, n*T)
		for i := range n {
			for t, v := range dense.RawRowView(i) {
				if v != 1 && v != -1 {
					return nil, fmt.Errorf("forest: %s: prediction of tree %d on row %d = %g, want −1 or +1 for Classification", op, t, i, v)
				}
				in.votes[i*T+t] = int8(v)
			}
		}
	}
	if len(sizes) == 0 {
		return nil, fmt.Errorf("forest: %s: no pruned sizes given", op)
	}
	for k, m := range sizes {
		if m < 1 || m > T {
			return nil, fmt.Errorf("forest: %s: sizes[%d] = %d, want a size in [1, %d] (the number of trees)", op, k, m, T)
		}
		in.max = max(in.max, m)
	}
	in.sizes = append([]int(nil), sizes...)
	return in, nil
}

// done returns ctx's error, wrapped for the method, once ctx is done: the look of the Context
// twins between their steps.
func (in *pruneInput) done(ctx context.Context) error {
	return ctxcheck.Done(ctx, "forest: "+in.op)
}

// uniform returns the selection of trees with weights 1/len(trees).
func uniform(trees []int) Selection {
	w := make([]float64, len(trees))
	for i := range w {
		w[i] = 1 / float64(len(trees))
	}
	return Selection{Trees: append([]int(nil), trees...), Weights: w}
}

// PrunedForest is a forest restricted to the trees of a Selection, with their weights: a model
// that predicts on new data by walking only the kept trees.
type PrunedForest struct {
	forest *Forest
	sel    Selection
}

// NewPrunedForest returns the forest f restricted to sel (indices of f's trees, finite weights,
// one per tree). sel is copied.
func NewPrunedForest(f *Forest, sel Selection) (*PrunedForest, error) {
	const op = "NewPrunedForest"
	if f == nil || len(f.trees) == 0 {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "forest: %s: the forest has no trees (make it with Fit)", op)
	}
	if len(sel.Trees) == 0 {
		return nil, fmt.Errorf("forest: %s: the selection keeps no tree", op)
	}
	if len(sel.Weights) != len(sel.Trees) {
		return nil, laberr.Errorf(laberr.ErrShape, "forest: %s: %d weights for %d trees, want one per tree", op, len(sel.Weights), len(sel.Trees))
	}
	for i, t := range sel.Trees {
		if t < 0 || t >= len(f.trees) {
			return nil, fmt.Errorf("forest: %s: Trees[%d] = %d, want an index in [0, %d)", op, i, t, len(f.trees))
		}
		if w := sel.Weights[i]; math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "forest: %s: Weights[%d] = %g, want finite weights", op, i, w)
		}
	}
	return &PrunedForest{forest: f, sel: Selection{
		Trees:   append([]int(nil), sel.Trees...),
		Weights: append([]float64(nil), sel.Weights...),
	}}, nil
}

// Size returns the number of kept trees.
func (p *PrunedForest) Size() int { return len(p.sel.Trees) }

// Selection returns a copy of the kept trees and their weights.
func (p *PrunedForest) Selection() Selection {
	return Selection{Trees: append([]int(nil), p.sel.Trees...), Weights: append([]float64(nil), p.sel.Weights...)}
}

// Predict returns, for each row of X (n×d, d the number of training columns), Σᵢ wᵢ·tᵢ(x) over
// the kept trees for Regression and its sign (0 giving +1) for Classification, computed as the
// weight of the +1 votes minus the weight of the −1 votes, so that equal weights tie exactly. Rows
// are handled in blocks on all cores. Time O(n·m·depth) for m kept trees; memory O(n).
func (p *PrunedForest) Predict(X mat.Matrix) ([]float64, error) {
	if p == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "forest: PrunedForest.Predict: the pruned forest is nil (make it with NewPrunedForest)")
	}
	dense, err := p.forest.checkPoints("PrunedForest.Predict", X)
	if err != nil {
		return nil, err
	}
	n, _ := dense.Dims()
	out := make([]float64, n)
	_ = parallel.Blocks(n, predictionBlockRows(n), func(_, lo, hi int) error {
		for i := lo; i < hi; i++ {
			out[i] = p.predict(dense.RawRowView(i))
		}
		return nil
	})
	for i, v := range out {
		if v-v != 0 {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "forest: PrunedForest.Predict: the weighted sum of the trees' predictions for row %d overflows to %g; rescale the weights", i, v)
		}
	}
	return out, nil
}

// predict returns the pruned forest's prediction for one point x.
func (p *PrunedForest) predict(x []float64) float64 {
	if p.forest.task == Regression {
		var s float64
		for k, t := range p.sel.Trees {
			s += p.sel.Weights[k] * p.forest.trees[t].predict(x)
		}
		return s
	}
	// The votes for +1 and for −1 are summed apart, so that equal weights tie exactly (k copies
	// of 1/m on each side round alike) and a tie gives +1, as in Forest.Predict.
	var pos, neg float64
	for k, t := range p.sel.Trees {
		if p.forest.trees[t].predict(x) > 0 {
			pos += p.sel.Weights[k]
		} else {
			neg += p.sel.Weights[k]
		}
	}
	if pos < neg {
		return -1
	}
	return 1
}
