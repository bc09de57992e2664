package forest

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
	"github.com/fastkernels/kernellab/lab/learn"
)

// PruneKMeans is the clustering pruning of Fawagreh et al. (2016): for each size m, the trees'
// prediction vectors (the columns of P, points of ℝⁿ) are clustered into m clusters by k-means
// ([learn.KMeans]: k-means++ seeding from rng, Lloyd iterations, one restart) and each cluster
// keeps its best tree on P, y (lowest mean squared error for Regression, lowest error rate for
// Classification; ties go to the lowest index), with the weight 1/m; trees are listed by
// cluster. The thesis clusters on the training data and picks on validation: pass the
// predictions on the data to prune on (chapter 6 merges train and validation for pruning).
// Each size is its own clustering, so the forests of the grid are not nested.
//
// Cost: O(n·T) to score the trees once, then per size m O(n·T·m) per Lloyd iteration (at most
// 300); memory 8·n·T bytes for the trees' prediction vectors (learn.KMeans copies them once
// more), plus the votes or copy of newPruneInput (see [PruneEnsemble]).
func PruneKMeans(rng *rand.Rand, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return PruneKMeansContext(context.Background(), rng, P, y, sizes, opts)
}

// PruneKMeansContext is [PruneKMeans] with a context: it looks at ctx before each size and each
// Lloyd iteration ([learn.KMeansContext]), never inside one, so a pruning it returns is
// PruneKMeans's, bit for bit.
// Errors: PruneKMeans's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: PruneKMeans's; once ctx is done it returns within about one Lloyd iteration, O(n·T·m) for
// size m.
func PruneKMeansContext(ctx context.Context, rng *rand.Rand, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	const op = "PruneKMeans"
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "forest: %s: rng is nil", op)
	}
	in, err := newPruneInput(ctx, op, opts.Task, P, y, sizes)
	if err != nil {
		return nil, err
	}
	errs := make([]float64, in.T)
	in.candidateErrors(errs, make([]float64, in.n), 1, 1, nil)
	points := mat.NewDense(in.T, in.n, nil) // row t: tree t's predictions
	for t := range in.T {
		points.SetRow(t, in.col(t))
	}
	out := &Pruning{Sizes: in.sizes, Selections: make([]Selection, len(in.sizes))}
	for k, m := range in.sizes {
		if err := in.done(ctx); err != nil {
			return nil, err
		}
		res, err := learn.KMeansContext(ctx, rng, points, m, learn.KMeansOptions{})
		if err != nil {
			return nil, fmt.Errorf("forest: %s: size %d: %w", op, m, err)
		}
		best := make([]int, m)
		for c := range best {
			best[c] = -1
		}
		for t, c := range res.Labels {
			if best[c] < 0 || errs[t] < errs[best[c]] {
				best[c] = t
			}
		}
		kept := best[:0]
		for _, t := range best {
			if t >= 0 { // a cluster can stay empty when trees coincide
				kept = append(kept, t)
			}
		}
		out.Selections[k] = uniform(kept)
	}
	return out, nil
}
