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
// Route. With at least as many rows as trees (n ≥ T, the thesis's set-ups), OMP runs on the
// normal equations ([pursuit.OrthogonalMatchingPursuitGram], scikit-learn's Gram route): PᵀP and
// Pᵀy are formed once, on all cores, and no step reads P again. Otherwise it runs on P itself
// ([pursuit.OrthogonalMatchingPursuit], a QR factorisation of the kept trees). Both select by
// the same rule; the normal equations solve the least squares with a relative error of about
// u·cond(P_S)² instead of u·cond(P_S) (u = 2⁻⁵³), far below what the scores can tell apart on
// forests, whose trees differ on many rows.
//
// Cost: n ≥ T: n·T²/2 multiply-adds for PᵀP plus O(T·m + m²) per step, memory 8T² bytes (a copy
// of P too unless it is a *mat.Dense); n < T: O(n·T) per step plus O(n·m + m²) for the update,
// memory O(n·T) for a copy of P plus O(n·M + M²) for the largest size M.
func PruneOMP(P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return PruneOMPContext(context.Background(), P, y, sizes, opts)
}

// PruneOMPContext is [PruneOMP] with a context: it looks at ctx before each step of OMP
// ([pursuit.OrthogonalMatchingPursuitContext]), never inside one, so a pruning it returns is
// PruneOMP's, bit for bit.
// Errors: PruneOMP's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: PruneOMP's; once ctx is done it returns within about one step, O(n·T).
func PruneOMPContext(ctx context.Context, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	return prunePursuit(ctx, "PruneOMP", P, y, sizes, opts, ompPath)
}

// ompPath runs OMP on the prediction matrix P (n×T) and the targets y: on the normal equations
// when n ≥ T, on P itself otherwise (see PruneOMP).
func ompPath(ctx context.Context, P mat.Matrix, y []float64, opts pursuit.Options) (*pursuit.Result, error) {
	if n, T := P.Dims(); n >= T {
		ne, err := pursuit.NewNormalEquations(P, y)
		if err != nil {
			return nil, err
		}
		return pursuit.OrthogonalMatchingPursuitGramContext(ctx, ne, opts)
	}
	dict, err := pursuit.NewDenseDictionary(P)
	if err != nil {
		return nil, err
	}
	return pursuit.OrthogonalMatchingPursuitContext(ctx, dict, y, opts)
}

// prunePursuit runs solver (OMP or NN-OMP, on the prediction matrix P and the targets) once up to
// the largest size and reads every size of the grid from its path; the solver looks at ctx before
// each step.
func prunePursuit(ctx context.Context, op string, P mat.Matrix, y []float64, sizes []int, opts PruneOptions,
	solver func(context.Context, mat.Matrix, []float64, pursuit.Options) (*pursuit.Result, error)) (*Pruning, error) {
	in, err := newPruneInput(ctx, op, opts.Task, P, y, sizes)
	if err != nil {
		return nil, err
	}
	res, err := solver(ctx, P, in.y, pursuit.Options{MaxAtoms: in.max})
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
