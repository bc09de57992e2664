package pursuit

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// StepRule chooses Frank-Wolfe's step γ_k ∈ [0, 1] (thesis Algorithm 5, lines 8–10).
type StepRule int

const (
	// StepOpenLoop is variant 1, the original rule of Frank & Wolfe: γ_k = 2/(k+2).
	StepOpenLoop StepRule = iota + 1
	// StepLineSearch is variant 2, the exact line search
	// γ_k = argmin_{γ∈[0,1]} ½‖y − D(α_k + γ(s_k − α_k))‖², which Theorems 5 and 6 assume; in
	// closed form (Lemma 7) γ_k = ⟨D(s_k − α_k), r_k⟩/‖D(s_k − α_k)‖² clipped to [0, 1].
	StepLineSearch
)

// String names the rule.
func (s StepRule) String() string {
	switch s {
	case StepOpenLoop:
		return "2/(k+2)"
	case StepLineSearch:
		return "line search"
	}
	return fmt.Sprintf("StepRule(%d)", int(s))
}

// FrankWolfe minimises ½‖y − Dα‖₂² over the l1 ball ‖α‖₁ ≤ radius (the thesis's problem (5.2),
// radius β) by the Frank-Wolfe algorithm (thesis Algorithm 5): from α₀ = 0, each iteration
// selects i_k = argmax |⟨d_i, r_k⟩| (the linear minimisation over the ball, whose minimiser is
// the vertex s_k = sign(⟨d_i, r_k⟩)·β·e_i; the correlations are not normalised here, as the
// vertex depends on the atoms' scale), then moves α_{k+1} = α_k + γ_k(s_k − α_k) with the
// chosen step rule. Every iterate stays in the ball and gains at most one atom per iteration.
// Options.MaxIterations is required; it also stops when every correlation is zero (α is
// optimal: [StopResidualOrthogonal]) and, for the line search, when γ_k = 0 ([StopNoProgress]).
//
// The residual y − Dα_k is recomputed from the selected atoms at every iteration (O(d·k) for k
// selected atoms) so that it carries no accumulated rounding. Cost per iteration: one search
// over the dictionary (O(dn), see [DenseDictionary]) plus O(dk). On a [GramDictionary] the search
// costs O(n) plus one dot product of length d per atom its error bounds cannot rule out (a few),
// except near the rounding floor of the residual, where it is the plain search; the results are
// the same bit for bit. Memory O(dk) for the selected atoms plus the iterates (plus O(n) on a
// GramDictionary).
func FrankWolfe(dict Dictionary, y []float64, radius float64, rule StepRule, opts Options) (*Result, error) {
	return FrankWolfeContext(context.Background(), dict, y, radius, rule, opts)
}

// FrankWolfeContext is [FrankWolfe] with a context: it looks at ctx before each iteration, never
// inside one, so a result it returns is FrankWolfe's, bit for bit.
// Errors: FrankWolfe's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: FrankWolfe's; once ctx is done it returns within about one iteration, one search over the
// dictionary (O(dn)) plus O(dk).
func FrankWolfeContext(ctx context.Context, dict Dictionary, y []float64, radius float64, rule StepRule, opts Options) (*Result, error) {
	const op = "FrankWolfe"
	if err := ctxcheck.NotNil(ctx, "pursuit: "+op); err != nil {
		return nil, err
	}
	if err := opts.validate(op, true); err != nil {
		return nil, err
	}
	if !(radius > 0) || math.IsInf(radius, 0) {
		return nil, fmt.Errorf("pursuit: %s: radius = %g, want a finite value > 0", op, radius)
	}
	if rule != StepOpenLoop && rule != StepLineSearch {
		return nil, fmt.Errorf("pursuit: %s: step rule %d, want StepOpenLoop or StepLineSearch", op, int(rule))
	}
	sel, err := newSelector(op, dict, y)
	if err != nil {
		return nil, err
	}
	d := sel.d
	r := append([]float64(nil), y...)
	approx := make([]float64, d) // Dα_k
	direction := make([]float64, d)
	var atoms []float64 // selected atoms, one row of length d each
	res := &Result{SignalNorm: norm2(y), numAtoms: sel.n}
	position := make(map[int]int)
	rNorm := res.SignalNorm
	// On a GramDictionary the search reads Dᵀr off the Gram matrix (the same atom and correlation).
	var gs *gramSearch
	if gd := gramOf(dict); gd != nil {
		gs = newGramSearch(gd, sel, y, res.SignalNorm)
	}
	for k := 0; ; k++ {
		if err := ctxcheck.Done(ctx, "pursuit: "+op); err != nil {
			return nil, err
		}
		if stop, ok := commonStop(opts, rNorm, len(res.Steps), len(res.Atoms)); ok {
			res.Stop = stop
			break
		}
		var i int
		var c float64
		if gs != nil {
			i, c, err = gs.best(r, rNorm, res.Atoms, res.Coefficients)
		} else {
			i, c, err = sel.best(r, rawCorrelation, false)
		}
		if err != nil {
			return nil, err
		}
		if i < 0 {
			res.Stop = StopResidualOrthogonal
			break
		}
		pos, seen := position[i]
		if !seen {
			pos = len(res.Atoms)
			atoms = append(atoms, make([]float64, d)...)
			if err := sel.atom(atoms[pos*d:(pos+1)*d], i); err != nil {
				return nil, err
			}
		}
		vertex := math.Copysign(radius, c) // s_k = vertex·e_i
		gamma := 2 / float64(k+2)
		if rule == StepLineSearch {
			// D(s_k − α_k) = vertex·d_i − Dα_k.
			copy(direction, approx)
			blas64.Scal(-1, blas64.Vector{N: d, Inc: 1, Data: direction})
			axpy(vertex, atoms[pos*d:(pos+1)*d], direction)
			gamma = 0
			if dd := dot(direction, direction); dd > 0 {
				gamma = min(1, max(0, dot(direction, r)/dd))
			}
			if gamma == 0 {
				if !seen {
					atoms = atoms[:pos*d]
				}
				res.Stop = StopNoProgress
				break
			}
		}
		if !seen {
			position[i] = pos
			res.Atoms = append(res.Atoms, i)
			res.Coefficients = append(res.Coefficients, 0)
		}
		for l := range res.Coefficients {
			res.Coefficients[l] *= 1 - gamma
		}
		res.Coefficients[pos] += gamma * vertex
		if gs != nil {
			gs.update(i, gamma, vertex, res.Coefficients[pos])
		}
		// r = y − Dα from the selected atoms.
		count := len(res.Atoms)
		blas64.Gemv(blas.Trans, 1, blas64.General{Rows: count, Cols: d, Stride: d, Data: atoms[:count*d]},
			blas64.Vector{N: count, Inc: 1, Data: res.Coefficients}, 0, blas64.Vector{N: d, Inc: 1, Data: approx})
		for j := range r {
			r[j] = y[j] - approx[j]
		}
		rNorm = norm2(r)
		res.Steps = append(res.Steps, Step{Atom: i, Correlation: c, StepSize: gamma, ResidualNorm: rNorm, Coefficients: iterateCopy(opts, res.Coefficients)})
	}
	res.Residual = r
	return res.finished(op)
}
