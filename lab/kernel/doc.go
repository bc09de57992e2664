// Package kernel provides positive-definite kernels (Gaussian, Laplace, polynomial, linear), their
// Gram and cross-kernel matrices, the bandwidth and ridge rules of the thesis (§3.3) and the
// median heuristic.
//
// Gram and Cross are the hot paths of every kernel method in the lab (Nyström, MMD, KRR, leverage
// scores), so they are computed in row blocks on all cores, with the Gaussian kernel written as
// exp(-γ(||x||² + ||z||² - 2<x,z>)): one matrix product per block (GEMM; OpenBLAS when built with
// -tags openblas, see package lab/blasbackend) and a vectorised exp ([ExpNonPositive]) instead of pair
// loops and math.Exp. Results are independent of the number of goroutines.
//
// Bad input (NaN or ±Inf, mismatched dimensions, empty matrices, σ ≤ 0) gives an error, never a
// panic. Gram forms an n×n matrix: above a few thousand points use Cross on blocks of rows.
package kernel
