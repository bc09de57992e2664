package pursuit

import (
	"context"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// MatchingPursuit runs matching pursuit (Mallat & Zhang 1993; thesis Algorithm 1, MP line): at
// each iteration it selects the atom most collinear with the residual r, j = argmax
// |⟨d_j, r⟩|/‖d_j‖ (the thesis's atoms have unit norm), adds ⟨d_j, r⟩/‖d_j‖² to its
// coefficient and removes that projection from r, so that ‖r‖ never increases. An atom may be
// selected many times. Options.MaxIterations is required; MaxAtoms and Tolerance stop earlier.
// Zero atoms are never selected.
//
// Cost per iteration: one search over the dictionary (O(dn), see [DenseDictionary]) and O(d).
// Memory O(d + n) plus the iterates (Options.DropIterates).
func MatchingPursuit(dict Dictionary, y []float64, opts Options) (*Result, error) {
	return MatchingPursuitContext(context.Background(), dict, y, opts)
}

// MatchingPursuitContext is [MatchingPursuit] with a context: it looks at ctx before each
// iteration, never inside one, so a result it returns is MatchingPursuit's, bit for bit.
// Errors: MatchingPursuit's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: MatchingPursuit's; once ctx is done it returns within about one iteration, one search over
// the dictionary (O(dn)).
func MatchingPursuitContext(ctx context.Context, dict Dictionary, y []float64, opts Options) (*Result, error) {
	const op = "MatchingPursuit"
	if err := ctxcheck.NotNil(ctx, "pursuit: "+op); err != nil {
		return nil, err
	}
	if err := opts.validate(op, true); err != nil {
		return nil, err
	}
	sel, err := newSelector(op, dict, y)
	if err != nil {
		return nil, err
	}
	r := append([]float64(nil), y...)
	res := &Result{SignalNorm: norm2(y), numAtoms: sel.n}
	position := make(map[int]int)
	atom := make([]float64, sel.d)
	rNorm := res.SignalNorm
	for {
		if err := ctxcheck.Done(ctx, "pursuit: "+op); err != nil {
			return nil, err
		}
		if stop, ok := commonStop(opts, rNorm, len(res.Steps), len(res.Atoms)); ok {
			res.Stop = stop
			break
		}
		j, c, err := sel.best(r, normalizedCorrelation, false)
		if err != nil {
			return nil, err
		}
		if j < 0 {
			res.Stop = StopResidualOrthogonal
			break
		}
		if err := sel.atom(atom, j); err != nil {
			return nil, err
		}
		step := c / (sel.norms[j] * sel.norms[j])
		axpy(-step, atom, r)
		pos, seen := position[j]
		if !seen {
			pos = len(res.Atoms)
			position[j] = pos
			res.Atoms = append(res.Atoms, j)
			res.Coefficients = append(res.Coefficients, 0)
		}
		res.Coefficients[pos] += step
		rNorm = norm2(r)
		res.Steps = append(res.Steps, Step{Atom: j, Correlation: c, StepSize: step, ResidualNorm: rNorm, Coefficients: iterateCopy(opts, res.Coefficients)})
	}
	res.Residual = r
	return res.finished(op)
}

// commonStop applies the rules of Options shared by all solvers, in the order tolerance,
// iterations, atoms, before an iteration that would start with residual norm rNorm.
func commonStop(opts Options, rNorm float64, iterations, atoms int) (StopReason, bool) {
	switch {
	case rNorm <= opts.Tolerance:
		return StopTolerance, true
	case opts.MaxIterations > 0 && iterations >= opts.MaxIterations:
		return StopMaxIterations, true
	case opts.MaxAtoms > 0 && atoms >= opts.MaxAtoms:
		return StopMaxAtoms, true
	}
	return 0, false
}
