// Package csr is a compressed-sparse-row matrix of float64 that satisfies gonum's mat.Matrix and
// multiplies dense blocks in parallel: what the lab's factorisations (lab/factor) need to work on
// a bag-of-words of tens of thousands of documents × words, which is far too large to densify.
//
// No Go module served to this project offers gonum-compatible sparse matrices
// (github.com/james-bowman/sparse, the usual choice, is not among them), so the type is kept
// small: construction from CSR arrays or from (i, j, v) triplets, element access, row views, and
// the two products A·B and Aᵀ·B with a dense B. Everything else goes through mat.Matrix (At, T),
// at dense cost.
//
// Storage: row i holds the column indices indices[indptr[i]:indptr[i+1]], strictly increasing,
// and the values data[indptr[i]:indptr[i+1]] (scipy.sparse.csr_matrix's layout). Memory:
// (rows+1) ints + nnz ints + nnz float64, plus as much again once Aᵀ·B has been asked for (the
// transpose is built once and kept, so that Aᵀ·B is a row-parallel product like A·B).
//
// A Matrix is safe for concurrent use once built, as long as nobody writes through the slices
// that New was given or that Row returns.
package csr
