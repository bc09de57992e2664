package forest

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/pursuit"
)

// PruneNNOMP prunes a forest with non-negative orthogonal matching pursuit (thesis §6.2,
// Algorithm 7): as [PruneOMP], but a step picks only a tree whose unit-norm column is positively
// correlated with the residual, and the weights are refitted by non-negative least squares, so
// every weight is ≥ 0 (a tree whose weight falls to zero stays listed with weight 0). NN-OMP
// stops by itself when no tree is positively correlated with the residual (or a step no longer
// decreases it): Pruning.Stopped is then the number of trees it kept, and every size of the grid
// above it gets that forest. To let it stop by itself, ask for the size T (the number of trees).
// opts.NoWeights gives the kept trees the weight 1/m ("NN-OMP w/o weights").
//
// One run up to the largest size gives every size of the grid. Cost: O(n·T) per step for the
// correlations plus O(n·m) per active-set change of the non-negative least squares; memory
// O(n·T) for a copy of P plus O(n·M + M²) for the largest size M.
func PruneNNOMP(P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return PruneNNOMPContext(context.Background(), P, y, sizes, opts)
}

// PruneNNOMPContext is [PruneNNOMP] with a context: it looks at ctx before each step of NN-OMP
// ([pursuit.NonNegativeOMPContext]), never inside one, so a pruning it returns is PruneNNOMP's, bit
// for bit.
// Errors: PruneNNOMP's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: PruneNNOMP's; once ctx is done it returns within about one step.
func PruneNNOMPContext(ctx context.Context, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return prunePursuit(ctx, "PruneNNOMP", P, y, sizes, opts, nnompPath)
}

// nnompPath runs NN-OMP on the prediction matrix P and the targets y.
func nnompPath(ctx context.Context, P mat.Matrix, y []float64, opts pursuit.Options) (*pursuit.Result, error) {
	dict, err := pursuit.NewDenseDictionary(P)
	if err != nil {
		return nil, err
	}
	return pursuit.NonNegativeOMPContext(ctx, dict, y, opts)
}
