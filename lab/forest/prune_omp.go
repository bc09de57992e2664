package forest

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/pursuit"
)

// PruneOMP prunes a forest with orthogonal matching pursuit (thesis §6.2, Algorithm 6): the
// dictionary is the n×T matrix P of per-tree predictions on the pruning data (Forest.
// TreePredictions), the signal the targets y; OMP picks, at each step, the tree whose unit-norm
// column is most correlated (in absolute value) with the residual and refits the least-squares
// weights of all picked trees. The weights it returns are those of the raw columns: OMP on the
// columns normalised to unit norm, with weights rescaled back by 1/‖tᵢ‖, selects the same trees
// and gives exactly these weights (least squares is equivariant to column scaling), so the
// normalisation is implicit ([pursuit.OrthogonalMatchingPursuit] selects by normalised
// correlation). opts.NoWeights keeps the trees and gives them the weight 1/m ("OMP w/o
// weights"). Binary labels are ±1 and the pruned forest votes sign(Σ αᵢ tᵢ(x)).
//
// One run of OMP up to the largest size gives every size of the grid (the path: the weights
// with m trees are the least-squares weights on the first m trees picked). OMP can stop before
// that size when the next tree is a linear combination of the kept ones (duplicate trees are
// common in classification) or the residual is orthogonal to every tree; the larger sizes then
// get the trees held at that point and Pruning.Stopped says how many.
//
// Cost: O(n·T) per step for the correlations plus O(n·m + m²) for the update, O(n·T·M) in all for
// the largest size M; memory O(n·T) for a copy of P plus O(n·M + M²).
func PruneOMP(P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return PruneOMPContext(context.Background(), P, y, sizes, opts)
}

// PruneOMPContext is [PruneOMP] with a context: it looks at ctx before each step of OMP
// ([pursuit.OrthogonalMatchingPursuitContext]), never inside one, so a pruning it returns is
// PruneOMP's, bit for bit.
// Errors: PruneOMP's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: PruneOMP's; once ctx is done it returns within about one step, O(n·T).
func PruneOMPContext(ctx context.Context, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return prunePursuit(ctx, "PruneOMP", P, y, sizes, opts, pursuit.OrthogonalMatchingPursuitContext)
}

// prunePursuit runs solver (OMP or NN-OMP) once up to the largest size and reads every size of
// the grid from its path; the solver looks at ctx before each step.
func prunePursuit(ctx context.Context, op string, P mat.Matrix, y []float64, sizes []int, opts PruneOptions,
	solver func(context.Context, pursuit.Dictionary, []float64, pursuit.Options) (*pursuit.Result, error)) (*Pruning, error) {
	in, err := newPruneInput(ctx, op, opts.Task, P, y, sizes)
	if err != nil {
		return nil, err
	}
	dict, err := pursuit.NewDenseDictionary(P)
	if err != nil {
		return nil, fmt.Errorf("forest: %s: %w", op, err)
	}
	res, err := solver(ctx, dict, in.y, pursuit.Options{MaxAtoms: in.max})
	if err != nil {
		return nil, fmt.Errorf("forest: %s: %w", op, err)
	}
	out := &Pruning{Sizes: in.sizes, Selections: make([]Selection, len(in.sizes))}
	reached := len(res.Steps)
	if reached == 0 {
		return nil, fmt.Errorf("forest: %s: no tree is correlated with y (%v): nothing to keep", op, res.Stop)
	}
	if reached < in.max || res.Stop != pursuit.StopMaxAtoms {
		out.Stopped = reached
	}
	for k, m := range in.sizes {
		m = min(m, reached)
		trees := res.Atoms[:m]
		if opts.NoWeights {
			out.Selections[k] = uniform(trees)
			continue
		}
		out.Selections[k] = Selection{
			Trees:   append([]int(nil), trees...),
			Weights: append([]float64(nil), res.Steps[m-1].Coefficients...),
		}
	}
	return out, nil
}
