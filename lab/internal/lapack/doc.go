// Package lapack gives the lab's numerical packages the LAPACK routines of the linked OpenBLAS
// where gonum's pure-Go LAPACK is markedly slower: at present the symmetric eigendecomposition
// by divide and conquer (dsyevd), about three times faster than gonum's Householder reduction
// followed by the QL iteration on the 500×500 landmark matrix of the Nyström benchmark; and the
// thin SVD by divide and conquer (dgesdd), for lab/factor's classic truncated SVD.
//
// It exists only in builds with the tag openblas and cgo (see package lab/blas); elsewhere
// Available is false and EigenSym reports that, so callers keep their pure-Go path.
package lapack
