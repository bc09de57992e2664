// Package factor holds matrix factorisations used as learners: principal component analysis
// (PCA) and its kernel form (kernel PCA, HSE lecture 16, seed 003).
//
// Kernel PCA works with the Gram matrix K = ΦΦᵀ instead of the covariance ΦᵀΦ of the (possibly
// infinite-dimensional) feature map: if v_j is a unit eigenvector of the centred Gram matrix with
// eigenvalue λ_j, then u_j = λ_j^{-1/2} Φᵀv_j is a unit principal direction, and the projection of
// a point x on it is Σ_i α_ji k̃(x_i, x) with α_j = λ_j^{-1/2} v_j, where k̃ is the kernel centred
// on the training mean in feature space (for the training points and for new points alike).
//
// The vocabulary follows scikit-learn: Fit… returns a fitted model, Transform projects new
// points. Signs of components are fixed (the largest-magnitude entry of each eigenvector is
// positive) so results are reproducible. Bad input (NaN or ±Inf, empty or mismatched matrices, too
// many components) gives an error that says what and where, never a panic.
package factor
