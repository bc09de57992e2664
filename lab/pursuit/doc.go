// Package pursuit builds sparse approximations y ≈ Dα of a signal y ∈ ℝᵈ in a dictionary D of n
// atoms, and measures the dictionary properties that guarantee them: the greedy pursuits and the
// Frank-Wolfe algorithm of the thesis's §2.2 and chapter 5, and the NN-OMP of its chapter 6
// (random-forest pruning). (Sparse matrices, as data, are lab/csr's.)
//
// Solvers (all return a *Result: selected atoms, coefficients, residual, and one Step per
// iteration with the selected atom, its correlation, the step size, the residual norm and, by
// default, the whole iterate, so one run yields every intermediate sparsity):
//
//   - [MatchingPursuit]: MP (thesis Algorithm 1).
//   - [OrthogonalMatchingPursuit]: OMP (Algorithms 1 and 6), with a QR factorisation of the
//     selected atoms updated by one column per iteration instead of a least-squares solve.
//   - [OrthogonalMatchingPursuitGram]: the same OMP on the normal equations ([NewNormalEquations]:
//     DᵀD and Dᵀy formed once, on all cores), whose steps never read D: the route for signals
//     much longer than the number of atoms (forest pruning), at the price of a squared
//     condition number in the least squares.
//   - [NonNegativeOMP]: NN-OMP (Algorithm 7): positively correlated atoms only, non-negative
//     weights by Lawson–Hanson's active-set method (also exported: [NonNegativeLeastSquares]);
//     it stops by itself.
//   - [FrankWolfe]: Frank-Wolfe on the l1 ball of radius β (Algorithm 5), with the step
//     2/(k+2) ([StepOpenLoop]) or the exact line search ([StepLineSearch]).
//
// Stopping rules are shared (Options: sparsity MaxAtoms, MaxIterations, residual Tolerance),
// plus each solver's own (Result.Stop says which ended the run).
// Each solver has a Context twin ([MatchingPursuitContext], [OrthogonalMatchingPursuitContext],
// [NonNegativeOMPContext], [FrankWolfeContext]) that stops between iterations once a context is
// done.
//
// Dictionaries: any Dictionary (an operator with Apply, ApplyTranspose and ColumnNorms; an
// [AtomReader] reads atoms faster), or a [DenseDictionary] built from a gonum matrix
// ([NewDenseDictionary]) or drawn at random with unit-norm Gaussian atoms on all cores
// ([NewGaussianDictionary], the dictionaries of §5.4), or a [GramDictionary]: a DenseDictionary
// with its Gram matrix DᵀD, computed once by a symmetric rank-d update ([NewGramDictionary];
// 8n² bytes), from which [MeasureIncoherence] reads μ(D) and the Babel function and
// [FrankWolfe] its searches (Dᵀr = Dᵀy − Gα, O(n) a step; the same results bit for bit).
//
// Guarantees (chapter 5): [MeasureIncoherence] gives the coherence μ(D) and the Babel function
// μ₁(D, m) exactly for m up to a chosen maxM, and Tropp's bound m·μ(D) beyond ([Incoherence.Babel]
// says which); [ExactRecoveryCondition] evaluates Tropp's ERC for a support; [RecoverySparsity] is
// m* = ⌈(μ⁻¹ − 1)/2⌉; [FrankWolfeRate] is Theorem 5's θ, [FrankWolfeRateFromFirstIteration] and
// [FrankWolfeRadiusThreshold] are Theorem 6's, [MatchingPursuitRate] is the rate of Gribonval &
// Vandergheynst (2006), and [ResidualBound] turns a rate into the bound ‖y‖(1 − θ)^(k/2) on ‖r_k‖.
//
// Conventions. The thesis assumes unit-norm atoms. MP, OMP and NN-OMP select the atom most
// collinear with the residual, argmax |⟨d_j, r⟩|/‖d_j‖ (the same thing for unit atoms, and
// scale-free otherwise); Frank-Wolfe's selection is its linear minimisation over the l1 ball,
// argmax |⟨d_j, r⟩|, which depends on the atoms' scale. Ties go to the smallest index. The
// coherence measures and the ERC normalise the atoms. About m*: §5.4 reports μ = 5.8·10⁻² and
// m* = 8, but ⌈(1/0.058 − 1)/2⌉ = 9; m* = 8 needs μ ≥ 1/17 ≈ 0.0588, so the thesis's μ is
// presumably rounded down. RecoverySparsity applies the formula to the μ it is given.
//
// Performance. Every iteration of every solver searches the whole dictionary for the atom most
// correlated with the residual, which in double precision reads 8·d·n bytes. A DenseDictionary
// also keeps its atoms in 8 bits (d·n bytes, one scale per atom) and, on amd64 with AVX2 and FMA,
// runs that search as a single-precision AVX2 kernel on the 8-bit copy followed by a
// double-precision check of the few atoms that rigorous per-atom error bounds cannot rule out
// (see screen.go): the selected atom and its correlation are exactly those of the
// double-precision search, for an eighth of the memory traffic (a copy of a few megabytes also
// stays in cache). Elsewhere (or with the build tag purego) the search is the double-precision
// one. On a GramDictionary, Frank-Wolfe's search reads the correlations off the Gram matrix
// instead, with rigorous bounds on their rounding and a double-precision check of the few atoms
// they leave (see gram.go): again the plain search's atom and correlation.
// Searches and dictionary construction run on all cores with fixed blocks, so results do
// not depend on the number of goroutines; other work is sequential. The memory cost of each
// function is in its documentation.
//
// Bad input (NaN, mismatched lengths, impossible options, a failing operator) gives an error
// naming the function, never a panic.
package pursuit
