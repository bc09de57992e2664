// Package leverage computes ridge leverage scores (RLS) of a kernel matrix, exactly or
// approximately, and draws landmarks from them for the Nyström method (thesis chapter 3).
//
// For n points x_i, a kernel k with Gram matrix K and a ridge λ > 0, the ridge leverage score of
// x_i is (thesis Definition 6, eqs. 2.1–2.4)
//
//	l_i = [K(K + λI)⁻¹]_ii = Σ_j ζ_j/(ζ_j + λ) U_ij² = 1 − λ[(K + λI)⁻¹]_ii,
//
// with K = U diag(ζ) Uᵀ, and their sum is the effective dimension d_eff = tr K(K + λI)⁻¹.
// Landmarks drawn in proportion to the scores give Nyström approximations with
// ||K − K̂||₂ ≤ λ from about d_eff log d_eff points (Alaoui and Mahoney 2015; Musco and Musco 2017).
//
// Score methods, from the most to the least expensive:
//
//   - Exact: the definition, by a Cholesky factorisation of K + λI and the diagonal of its
//     inverse. O(n²d + n³) time, 8n² bytes; refused above [ExactLimit] points unless forced.
//   - Recursive: the recursive RLS of Musco and Musco (2017), as in the authors' code: the data
//     are halved repeatedly, and each level's scores are estimated from a Nyström approximation on
//     the points the level below kept, sampled by their own estimated scores; an accelerated variant
//     uses fewer points on the intermediate levels. O(n s²) time.
//   - DAC: the thesis's divide-and-conquer RLS (DAC-RLS, Algorithm 2): a random partition into
//     blocks of m points and the exact scores of each block on its own. O(nm²) time, O(m²) memory
//     per core; every score is at least the exact one (Corollary 1). The partition can be drawn
//     apart ([DACPartition]) and given (DACOptions.Blocks), to reuse or reproduce it.
//   - Uniform: the RLS of a uniform Nyström approximation with m landmarks (Alaoui and Mahoney
//     2015), l̂_i = B_i(BᵀB + λI)⁻¹B_iᵀ with BBᵀ = K̃. O(nm²) time; never above the exact score.
//
// Two samplers turn scores into landmarks for lab/lowrank's Nyström: Sample draws a fixed number of
// distinct points with probability proportional to the scores (the thesis's experiments, §3.3.1),
// and [BernoulliSample] keeps each point independently with probability
// p_i = min(1, 16 l̂_i ln(Σ_j l̂_j / ρ)) (Algorithm 3), for which Theorem 1 gives
// K − λI ⪯ K̂ ⪯ K with probability at least 1 − ρ when the l̂_i over-estimate the scores.
//
// Conventions: λ is used as given (not multiplied by n), as in the thesis and its code. Random
// functions take an explicit *rand.Rand, and their results do not depend on the number of
// goroutines: the parallel loops work on row blocks and partition blocks fixed in advance, and
// every reduction adds in a fixed order. DAC, Uniform and Recursive have Context twins ([DACContext],
// [UniformContext], [RecursiveContext]) that stop between blocks once a context is done. Kernel blocks
// go through lab/kernel (GEMM, OpenBLAS when built with -tags openblas, see lab/blasbackend). Bad input
// (nil or non-finite data, λ ≤ 0, sizes out of range) returns an error that says what and where,
// never a panic; no function forms an n×n matrix except Exact.
//
// Choices where the sources leave room, recorded here:
//   - DAC splits the n points into r = ⌈n/m⌉ blocks of sizes ⌊n/r⌋ or ⌈n/r⌉ (all at most m), so
//     that no block is much smaller than the others. The thesis assumes equal sizes; its Python
//     code leaves a short last block, whose points then get inflated scores.
//   - Recursive follows the authors' MATLAB code (cnmusco/recursive-nystrom) rather than a Python
//     port that ignores the accelerated flag and samples with replacement. With [AdaptiveRidge] it
//     chooses each level's ridge as that code does, so its scores are leverage scores at the top
//     level's ridge, which it returns, not at a λ of the caller; with a positive λ every level
//     uses it (the paper's Algorithm 2 with the code's constants). A level that keeps at most k
//     points falls back to a uniform draw of s_level points, as the code does for an empty one
//     (the code's λ = 1e-5 there would keep every point of the next level).
package leverage
