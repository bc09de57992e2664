// Package factor holds matrix factorisations used as learners: principal component analysis
// (PCA) and its kernel form (kernel PCA, HSE lecture 16), and the factorisations that
// the student slides on randomized matrix factorisations compare: the classic
// truncated SVD ([TruncatedSVD]), the randomized SVD of Halko, Martinsson and Tropp ([RandomizedSVD])
// with its adaptive range finder ([AdaptiveRangeFinder]), sparse PCA by ℓ1-penalised alternating
// least squares ([FitSparsePCA]), probabilistic PCA by EM ([FitPPCA]), and the slides' rule for the
// number of components kept ([ComponentsForMass] with [SlidesSpectrumFraction], 70% of ‖Σ‖₁).
//
// Kernel PCA works with the Gram matrix K = ΦΦᵀ instead of the covariance ΦᵀΦ of the (possibly
// infinite-dimensional) feature map: if v_j is a unit eigenvector of the centred Gram matrix with
// eigenvalue λ_j, then u_j = λ_j^{-1/2} Φᵀv_j is a unit principal direction, and the projection of
// a point x on it is Σ_i α_ji k̃(x_i, x) with α_j = λ_j^{-1/2} v_j, where k̃ is the kernel centred
// on the training mean in feature space (for the training points and for new points alike).
//
// The randomized SVD, the range finder, sparse PCA and PPCA use their data matrix only through
// products A·B and Aᵀ·B with dense blocks, so each takes a dense gonum matrix or a sparse
// *[csr.Matrix] (package lab/csr) alike, and never densifies the latter: a bag of words of tens of
// thousands of documents × words fits. The products run in parallel over fixed row blocks, and
// every random draw comes from the caller's *rand.Rand in a fixed order, so a seed gives the same
// result whatever the number of goroutines. The classic truncated SVD densifies sparse input
// (up to 2²⁶ entries) and calls LAPACK through OpenBLAS when built with the tag openblas (see
// lab/blasbackend): dgesvdx for a few leading triplets, dgesdd for more; gonum's SVD otherwise.
//
// The vocabulary follows scikit-learn: Fit… returns a fitted model, Transform projects new
// points. Signs of components and singular vectors are fixed (the largest-magnitude entry of each
// eigenvector or left singular vector is positive) so results are reproducible. Bad input (NaN or
// ±Inf, empty or mismatched matrices, too many components) gives an error that says what and
// where, never a panic.
package factor
