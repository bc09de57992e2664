// Package lapack gives the lab's numerical packages the LAPACK routines of the linked OpenBLAS
// where gonum's pure-Go LAPACK is markedly slower: at present the symmetric eigendecomposition
// by divide and conquer (dsyevd), about three times faster than gonum's Householder reduction
// followed by the QL iteration on the 500×500 landmark matrix of the Nyström benchmark; and the
// thin SVD by divide and conquer (dgesdd) and the leading singular triplets alone (dgesvdx), for
// lab/factor's classic truncated SVD. Every call runs on one OpenBLAS thread: with two, dgesdd's
// and dsyevd's results differ in their last bits, and the lab's results must not depend on the
// number of cores.
//
// It exists only in builds with the tag openblas and cgo (see package lab/blasbackend); elsewhere
// Available is false and [EigenSym] reports that, so callers keep their pure-Go path.
package lapack
