package pursuit

import (
	"context"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// NonNegativeOMP runs non-negative orthogonal matching pursuit (Bruckstein et al. 2008; thesis
// Algorithm 7, used to prune random forests): it selects only atoms positively correlated with
// the residual, j = argmax ⟨d_j, r⟩/‖d_j‖, and re-fits non-negative coefficients on all selected
// atoms by non-negative least squares (Lawson & Hanson's active-set method, warm-started from
// the previous coefficients; see [NonNegativeLeastSquares]). Every coefficient is ≥ 0 and the
// residual norm decreases strictly at every iteration.
//
// It stops by itself when no atom is positively correlated with the residual beyond rounding
// ([StopNoPositiveCorrelation]) or when an iteration fails to decrease the residual norm
// ([StopNoProgress]: that iteration is discarded), and otherwise on Options (MaxAtoms defaults
// to min(d, n)). Steps[k−1].Coefficients are the coefficients with k atoms selected, so one run
// gives every intermediate size.
//
// Cost per iteration: one search over the dictionary plus O(dk) per active-set change.
// Memory O(dk + k²) plus the iterates.
func NonNegativeOMP(dict Dictionary, y []float64, opts Options) (*Result, error) {
	return NonNegativeOMPContext(context.Background(), dict, y, opts)
}

// NonNegativeOMPContext is [NonNegativeOMP] with a context: it looks at ctx before each iteration,
// never inside one (nor inside its non-negative least squares), so a result it returns is
// NonNegativeOMP's, bit for bit.
// Errors: NonNegativeOMP's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: NonNegativeOMP's; once ctx is done it returns within about one iteration, one search over
// the dictionary plus the active-set solve.
func NonNegativeOMPContext(ctx context.Context, dict Dictionary, y []float64, opts Options) (*Result, error) {
	const op = "NonNegativeOMP"
	sel, capped, err := newOrthogonalPursuit(ctx, op, dict, y, opts)
	if err != nil {
		return nil, err
	}
	limit := capped.MaxAtoms
	nnls := newNNLSSolver(y, min(limit, 64))
	res := &Result{SignalNorm: norm2(y), numAtoms: sel.n}
	selected := make([]bool, sel.n)
	rNorm := res.SignalNorm
	for {
		if err := ctxcheck.Done(ctx, "pursuit: "+op); err != nil {
			return nil, err
		}
		if stop, ok := commonStop(capped, rNorm, len(res.Steps), len(res.Atoms)); ok {
			res.Stop = stop
			break
		}
		j, c, err := sel.best(nnls.r, normalizedCorrelation, true)
		if err != nil {
			return nil, err
		}
		if j < 0 || !(c > positivityTolerance(sel.d, sel.norms[j], rNorm)) {
			res.Stop = StopNoPositiveCorrelation
			break
		}
		if selected[j] { // only rounding lets a selected atom look positively correlated
			res.Stop = StopNoProgress
			break
		}
		atom := make([]float64, sel.d)
		if err := sel.atom(atom, j); err != nil {
			return nil, err
		}
		previous := append([]float64(nil), nnls.x...)
		previousResidual := append([]float64(nil), nnls.r...)
		nnls.addColumn(atom)
		nnls.solve()
		newNorm := norm2(nnls.r)
		if !(newNorm < rNorm) {
			copy(nnls.r, previousResidual)
			nnls.x = previous
			res.Stop = StopNoProgress
			break
		}
		selected[j] = true
		res.Atoms = append(res.Atoms, j)
		rNorm = newNorm
		res.Steps = append(res.Steps, Step{Atom: j, Correlation: c, ResidualNorm: rNorm, Coefficients: iterateCopy(opts, nnls.x)})
	}
	res.Coefficients = append([]float64(nil), nnls.x[:len(res.Atoms)]...)
	res.Residual = append([]float64(nil), nnls.r...)
	return res.finished(op)
}
