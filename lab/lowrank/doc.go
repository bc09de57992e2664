// Package lowrank approximates kernel matrices and kernel feature maps: Nyström with any landmark
// set, random Fourier features (RFF), the best rank-k approximation, the block-diagonal
// approximation (BKA) and the memory-efficient kernel approximation (MEKA) of Si, Hsieh and
// Dhillon.
//
// The vocabulary follows scikit-learn: an approximation is fitted once ([FitNystrom], [NewRFFGaussian],
// [FitMEKA]) and then maps any points to features (Transform), so that the inner products of the
// features approximate the kernel: Φ(x)·Φ(z) ≈ k(x, z).
//
//   - Nyström (the lecture notes, Williams and Seeger; scikit-learn's Nystroem): with landmarks S,
//     C = K(X, S) and W = K(S, S) = V Σ Vᵀ, K̂ = C W_k⁺ Cᵀ where W_k⁺ keeps the k largest
//     eigenvalues above a relative cut-off, and Φ(x) = k(x, S) V_k Σ_k^{-1/2}. Landmarks come
//     from [UniformLandmarks], [WeightedLandmarks] (leverage scores plug in there) or anywhere else.
//   - RFF (Rahimi and Recht): Φ(x) = √(2/D) cos(ωᵀx + b) with ω drawn from the Fourier transform
//     of the kernel (Gaussian: normal; Laplace with the l1 norm: product of Cauchy laws) and
//     b uniform on [0, 2π), or the cos/sin map (1/√D)(cos ωᵀx, sin ωᵀx). Frequencies and Phases
//     read a draw back and [NewRFF] takes given ones, to reuse or reproduce it.
//   - [BestRankK] (Eckart–Young), BKA and MEKA work on an explicit n×n Gram matrix or produce one,
//     for the error figures at moderate n; [FrobeniusError] measures ||K − ΦΦᵀ||_F blockwise
//     without forming n×n matrices.
//
// Performance: Nyström's feature map and the RFF maps run in row blocks on all cores, each block a
// matrix product (gonum's BLAS, OpenBLAS when built with -tags openblas, see package lab/blasbackend)
// followed, for RFF, by a batched cosine; Nyström's cross-kernel block stays in a per-core buffer
// between its computation and the product, whose result goes straight into the caller's matrix.
// The eigendecomposition of the landmark matrix is LAPACK's dsyevd with OpenBLAS, otherwise the QL
// iteration on contiguous rows. The cosine and the plane rotations of the QL iteration use AVX-512
// on amd64 processors that have it (the build tag purego disables this), Go loops elsewhere.
// bench/compare_sklearn.sh times the maps against scikit-learn.
//
// Every random function takes an explicit *rand.Rand, so equal seeds give equal results whatever
// the number of goroutines. Bad input (NaN, mismatched sizes, more landmarks than points, a rank
// larger than the landmark count, values whose results overflow) gives an error, never a panic or
// a NaN. The memory each function needs is stated in its documentation; sizes above the
// allocation limit of lab/internal/memlimit are refused before allocating.
package lowrank
