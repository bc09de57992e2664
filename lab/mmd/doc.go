// Package mmd estimates the maximum mean discrepancy (MMD) between two samples and decides
// three-sample problems with it (thesis chapter 4).
//
// MMD_k(P, Q) = ||μ_P − μ_Q||_H is the RKHS distance between the mean embeddings of two
// distributions; with a characteristic kernel it is a distance. Its empirical value (eq. 4.2)
// costs O((n + m)²) kernel evaluations, which the approximations of §4.2 and §4.5 reduce:
//
//   - Exact: eq. (4.2), computed in tiles on all cores without an n×n matrix;
//   - Linear: the exact MMD between random subsets of √n and √m points, O(n + m);
//   - Block: Zaremba et al.'s average of unbiased MMDs over blocks of s points, O((n + m)s);
//   - RFF: Zhao and Meng's mean-embedding difference of s random Fourier features, O((n + m)s),
//     for shift-invariant kernels on vectors only;
//   - Nystrom: the thesis's MMD for the regularised Nyström kernel (Lemmas 4 and 5), vᵀ(K_FS K_S⁺
//     K_FSᵀ + λI)v on the pooled sample with s uniform landmarks, O((n + m)s + s³), for any
//     kernel, graphs included, and a distance for λ > 0.
//
// s defaults to [DefaultSize](n) = log n, as in §4.6.1; any s may be set. Every estimator returns
// MMD² (take the square root of a non-negative value for the MMD itself).
//
// All estimators implement Estimator and work on Points: a set of points of any kind seen only
// through blocks of its kernel matrix, the samples being lists of indices into it. Vectors wraps
// the rows of a matrix and a [kernel.Kernel] (blocks by matrix products), Precomputed a Gram
// matrix, and graphkernel.ShortestPath a set of graphs. A data set loaded once thus serves every
// draw of an experiment (X, Z and W are index lists), and graphs work as vectors do. [ThreeSample]
// and [ErrorRate] implement the three-sample protocol of §4.6: with W ~ P_X, decide P_X when
// D(X, W) ≤ D(Z, W).
//
// Randomness comes only from the *rand.Rand passed in (the order of the draws is documented per
// estimator), and results do not depend on the number of goroutines. Bad input (an index out of
// range, empty samples, s out of range, RFF on graphs) gives an error, never a panic; a context
// cancels long computations.
package mmd
