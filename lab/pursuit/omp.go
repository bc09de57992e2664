package pursuit

import (
	"context"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// OrthogonalMatchingPursuit runs orthogonal matching pursuit (Pati et al. 1993; thesis
// Algorithm 1, OMP line, and Algorithm 6): it selects the atom most collinear with the
// residual, j = argmax |⟨d_j, r⟩|/‖d_j‖, then projects y on the span of all selected atoms, so
// that the residual is orthogonal to them and no atom is selected twice. The projection is
// updated, not recomputed: a QR factorisation of the selected atoms gains one column per
// iteration (two passes of classical Gram–Schmidt, O(dk) for k selected atoms) and the
// coefficients follow by one triangular solve (O(k²)).
//
// It stops on Options (MaxAtoms defaults to min(d, n)), or when the best atom is already
// selected (the residual is orthogonal to the dictionary to rounding: [StopResidualOrthogonal]),
// or when the best atom lies within 10⁻¹² of its norm of the span of the selected atoms
// ([StopDependentAtom]). With k atoms selected, Steps[k−1].Coefficients are the least-squares
// coefficients on Atoms[:k], so one run gives every intermediate sparsity.
//
// Cost per iteration: one search over the dictionary (O(dn), see [DenseDictionary]) plus
// O(dk + k²). Memory O(dk + k²) for the factorisation plus the iterates (O(k²) in all).
func OrthogonalMatchingPursuit(dict Dictionary, y []float64, opts Options) (*Result, error) {
	return OrthogonalMatchingPursuitContext(context.Background(), dict, y, opts)
}

// OrthogonalMatchingPursuitContext is [OrthogonalMatchingPursuit] with a context: it looks at ctx
// before each iteration, never inside one, so a result it returns is OrthogonalMatchingPursuit's,
// bit for bit.
// Errors: OrthogonalMatchingPursuit's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: OrthogonalMatchingPursuit's; once ctx is done it returns within about one iteration, one
// search over the dictionary (O(dn)) plus O(dk + k²).
func OrthogonalMatchingPursuitContext(ctx context.Context, dict Dictionary, y []float64, opts Options) (*Result, error) {
	const op = "OrthogonalMatchingPursuit"
	sel, capped, err := newOrthogonalPursuit(ctx, op, dict, y, opts)
	if err != nil {
		return nil, err
	}
	limit := capped.MaxAtoms
	qr := newUpdatableQR(sel.d, min(limit, 64))
	var z []float64 // z_l = ⟨q_l, r_{l−1}⟩ = ⟨q_l, y⟩: the right-hand side of R·x = Qᵀy
	r := append([]float64(nil), y...)
	res := &Result{SignalNorm: norm2(y), numAtoms: sel.n}
	selected := make([]bool, sel.n)
	atom := make([]float64, sel.d)
	coef := make([]float64, 0, limit)
	rNorm := res.SignalNorm
	for {
		if err := ctxcheck.Done(ctx, "pursuit: "+op); err != nil {
			return nil, err
		}
		if stop, ok := commonStop(capped, rNorm, len(res.Steps), len(res.Atoms)); ok {
			res.Stop = stop
			break
		}
		j, c, err := sel.best(r, normalizedCorrelation, false)
		if err != nil {
			return nil, err
		}
		if j < 0 || selected[j] {
			res.Stop = StopResidualOrthogonal
			break
		}
		if err := sel.atom(atom, j); err != nil {
			return nil, err
		}
		if !qr.append(atom) {
			res.Stop = StopDependentAtom
			break
		}
		q := qr.row(qr.k - 1)
		zk := dot(q, r)
		axpy(-zk, q, r)
		z = append(z, zk)
		selected[j] = true
		res.Atoms = append(res.Atoms, j)
		rNorm = norm2(r)
		step := Step{Atom: j, Correlation: c, ResidualNorm: rNorm}
		if !opts.DropIterates {
			coef = coef[:qr.k]
			qr.solve(coef, z)
			step.Coefficients = append([]float64(nil), coef...)
		}
		res.Steps = append(res.Steps, step)
	}
	res.Coefficients = make([]float64, qr.k)
	qr.solve(res.Coefficients, z)
	res.Residual = r
	return res.finished(op)
}
