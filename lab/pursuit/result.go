package pursuit

import (
	"context"
	"fmt"
	"math"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Options holds the stopping rules shared by every solver. A solver stops at the first rule that
// holds; the zero value keeps only the solver's own rules (see each solver for its defaults).
type Options struct {
	// MaxAtoms stops the solver once its support (the atoms it has selected) holds this many
	// atoms: the sparsity m. Zero means no limit beyond the solver's default.
	MaxAtoms int
	// MaxIterations stops the solver after this many iterations (selections). Matching pursuit
	// and Frank-Wolfe re-select atoms and never stop by themselves, so they require it, and
	// refuse a value whose recorded steps would exceed the allocation limit (lab/internal/memlimit).
	MaxIterations int
	// Tolerance stops the solver once the residual norm ‖y − Dα‖₂ is at most Tolerance
	// (absolute, in the units of y). Zero stops only on an exactly zero residual.
	Tolerance float64
	// DropIterates leaves Step.Coefficients nil, keeping only the selected atom, correlation,
	// step size and residual norm of each iteration. The iterates cost O(iterations × support)
	// memory; keep them (the default) to read every intermediate approximation from one run.
	DropIterates bool
}

// validate checks the options for solver op; needIterations says whether MaxIterations > 0 is
// required (the solver has no stopping rule of its own).
func (o Options) validate(op string, needIterations bool) error {
	switch {
	case o.MaxAtoms < 0:
		return fmt.Errorf("pursuit: %s: MaxAtoms = %d, want ≥ 0", op, o.MaxAtoms)
	case o.MaxIterations < 0:
		return fmt.Errorf("pursuit: %s: MaxIterations = %d, want ≥ 0", op, o.MaxIterations)
	case math.IsNaN(o.Tolerance) || math.IsInf(o.Tolerance, 0) || o.Tolerance < 0:
		return fmt.Errorf("pursuit: %s: Tolerance = %g, want a finite value ≥ 0", op, o.Tolerance)
	case needIterations && o.MaxIterations == 0:
		return fmt.Errorf("pursuit: %s: MaxIterations = 0, want > 0 (this solver never stops by itself)", op)
	}
	if needIterations {
		// Every iteration is recorded as a Step (about 64 bytes without its iterate): a solver
		// that runs to MaxIterations must be able to hold them.
		return memlimit.Check("pursuit: "+op, fmt.Sprintf("the steps of %d iterations", o.MaxIterations), 64, o.MaxIterations)
	}
	return nil
}

// newOrthogonalPursuit validates the ctx (not nil), options, dict and y of the orthogonal pursuit op (OMP or
// NN-OMP) and returns its selector and the options with their atom cap (withAtomCap).
func newOrthogonalPursuit(ctx context.Context, op string, dict Dictionary, y []float64, opts Options) (*selector, Options, error) {
	if err := ctxcheck.NotNil(ctx, "pursuit: "+op); err != nil {
		return nil, Options{}, err
	}
	if err := opts.validate(op, false); err != nil {
		return nil, Options{}, err
	}
	sel, err := newSelector(op, dict, y)
	if err != nil {
		return nil, Options{}, err
	}
	return sel, opts.withAtomCap(sel), nil
}

// withAtomCap returns o with MaxAtoms set to the most atoms an orthogonal pursuit on sel can
// select: min(d, n), and o.MaxAtoms when that is set and smaller (the selected atoms must stay
// linearly independent, so there are never more than d of them).
func (o Options) withAtomCap(sel *selector) Options {
	limit := min(sel.d, sel.n)
	if o.MaxAtoms > 0 {
		limit = min(limit, o.MaxAtoms)
	}
	o.MaxAtoms = limit
	return o
}

// StopReason says which rule ended a solver.
type StopReason int

// The reasons a solver stops.
const (
	// StopMaxAtoms: the support reached Options.MaxAtoms atoms (or every atom, or d atoms for
	// the orthogonal pursuits, whose selected atoms must stay linearly independent).
	StopMaxAtoms StopReason = iota + 1
	// StopMaxIterations: Options.MaxIterations iterations were run.
	StopMaxIterations
	// StopTolerance: the residual norm fell to Options.Tolerance or below.
	StopTolerance
	// StopResidualOrthogonal: the residual is orthogonal to every atom (to rounding), so no
	// atom can reduce it further: for OMP the best atom is already in the support, for MP and
	// Frank-Wolfe every correlation is zero.
	StopResidualOrthogonal
	// StopDependentAtom: OMP's best atom lies in the span of the selected atoms (its distance
	// to that span is below 1e-12 of its norm), so adding it would not change the approximation.
	StopDependentAtom
	// StopNoPositiveCorrelation: NN-OMP found no atom positively correlated with the residual.
	StopNoPositiveCorrelation
	// StopNoProgress: the last iteration did not decrease the residual (NN-OMP: the new atom
	// was dropped and the previous iterate kept; Frank-Wolfe: the line search chose γ = 0).
	StopNoProgress
)

// String names the reason.
func (s StopReason) String() string {
	switch s {
	case StopMaxAtoms:
		return "maximum number of atoms"
	case StopMaxIterations:
		return "maximum number of iterations"
	case StopTolerance:
		return "residual tolerance reached"
	case StopResidualOrthogonal:
		return "residual orthogonal to the dictionary"
	case StopDependentAtom:
		return "best atom linearly dependent on the support"
	case StopNoPositiveCorrelation:
		return "no positively correlated atom"
	case StopNoProgress:
		return "residual stopped decreasing"
	}
	return fmt.Sprintf("StopReason(%d)", int(s))
}

// Step records one iteration of a solver.
type Step struct {
	// Atom is the atom selected by this iteration.
	Atom int
	// Correlation is ⟨d_Atom, r⟩ for the residual r before this iteration (not normalised).
	Correlation float64
	// StepSize is the matching pursuit coefficient increment ⟨d, r⟩/‖d‖², Frank-Wolfe's γ_k,
	// and zero for OMP and NN-OMP (which re-solve a least-squares problem instead).
	StepSize float64
	// ResidualNorm is ‖y − Dα‖₂ after this iteration.
	ResidualNorm float64
	// Coefficients is the iterate after this iteration: Coefficients[i] is the coefficient of
	// Result.Atoms[i], for the first len(Coefficients) selected atoms (the others are zero).
	// Nil when Options.DropIterates is set.
	Coefficients []float64
}

// Result is a sparse approximation α of y in a dictionary D and how it was found.
type Result struct {
	// Atoms lists the selected atoms in the order they first entered the approximation.
	Atoms []int
	// Coefficients[i] is the final coefficient of Atoms[i] (zero is possible for NN-OMP and
	// Frank-Wolfe); every other atom has coefficient zero.
	Coefficients []float64
	// Residual is y − Dα for the final α; nil for [OrthogonalMatchingPursuitGram], which never
	// forms it.
	Residual []float64
	// SignalNorm is ‖y‖₂, the residual norm before the first iteration.
	SignalNorm float64
	// Steps holds one record per iteration, in order.
	Steps []Step
	// Stop says which rule ended the solver.
	Stop StopReason
	// numAtoms is n, the dictionary size, for Vector.
	numAtoms int
}

// ResidualNorm returns ‖y − Dα‖₂ for the final α: the norm of Residual, or, when Residual is nil
// (OrthogonalMatchingPursuitGram), the last step's ResidualNorm (SignalNorm before any step).
func (r *Result) ResidualNorm() float64 {
	if r.Residual != nil {
		return norm2(r.Residual)
	}
	if len(r.Steps) > 0 {
		return r.Steps[len(r.Steps)-1].ResidualNorm
	}
	return r.SignalNorm
}

// ResidualNorms returns ‖r_k‖₂ for k = 0, 1, …, len(Steps): the signal norm then the residual
// norm after each iteration (the curves of the convergence figures).
func (r *Result) ResidualNorms() []float64 {
	out := make([]float64, 0, len(r.Steps)+1)
	out = append(out, r.SignalNorm)
	for _, s := range r.Steps {
		out = append(out, s.ResidualNorm)
	}
	return out
}

// Vector returns the final coefficients as a dense vector α of length n (the number of atoms).
func (r *Result) Vector() []float64 {
	alpha := make([]float64, r.numAtoms)
	for i, j := range r.Atoms {
		alpha[j] = r.Coefficients[i]
	}
	return alpha
}

// finished returns r, or an error when a number of r is NaN or ±Inf: the inputs were finite but
// their scale (subnormal or huge atoms or signal) made the solver overflow. O(iterations ×
// support), small against the solve.
func (r *Result) finished(op string) (*Result, error) {
	bad := func(what string, v []float64) error {
		for i, x := range v {
			if x-x != 0 {
				return laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: %s[%d] = %g: the solve overflows at this scale of the atoms or of y; rescale them", op, what, i, x)
			}
		}
		return nil
	}
	if err := bad("‖y‖", []float64{r.SignalNorm}); err != nil {
		return nil, err
	}
	if err := bad("coefficient", r.Coefficients); err != nil {
		return nil, err
	}
	if err := bad("residual", r.Residual); err != nil {
		return nil, err
	}
	for k, s := range r.Steps {
		if err := bad(fmt.Sprintf("step %d: correlation, step size, residual norm", k), []float64{s.Correlation, s.StepSize, s.ResidualNorm}); err != nil {
			return nil, err
		}
		if err := bad(fmt.Sprintf("step %d: coefficient", k), s.Coefficients); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// iterateCopy returns a copy of coef for a Step, or nil when iterates are dropped.
func iterateCopy(opts Options, coef []float64) []float64 {
	if opts.DropIterates {
		return nil
	}
	return append([]float64(nil), coef...)
}
