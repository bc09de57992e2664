package lowrank

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// DefaultCutoff is the relative eigenvalue cut-off of the pseudo-inverses: eigenvalues at or below
// DefaultCutoff·λ_max are treated as zero. It plays the role of scikit-learn's clamp of the
// singular values of K_SS at 1e-12, made relative so that it does not depend on the kernel's
// scale.
const DefaultCutoff = 1e-12

var errEigen = errors.New("symmetric eigendecomposition did not converge")

// eigenDescending returns the eigenvalues of a in decreasing order and the matching unit
// eigenvectors as the columns of vectors.
func eigenDescending(a mat.Symmetric) (values []float64, vectors *mat.Dense, err error) {
	var eig mat.EigenSym
	if !eig.Factorize(a, true) {
		return nil, nil, errEigen
	}
	ascending := eig.Values(nil)
	var v mat.Dense
	eig.VectorsTo(&v)
	n := len(ascending)
	values = make([]float64, n)
	vectors = mat.NewDense(n, n, nil)
	for j := range n {
		values[j] = ascending[n-1-j]
		for i := range n {
			vectors.Set(i, j, v.At(i, n-1-j))
		}
	}
	return values, vectors, nil
}

// keptCount returns how many of the leading values (sorted in decreasing order) are above
// cutoff·values[0], at most limit: the numerical rank a rank-limit pseudo-inverse keeps.
func keptCount(values []float64, cutoff float64, limit int) int {
	if len(values) == 0 || !(values[0] > 0) {
		return 0
	}
	threshold := cutoff * values[0]
	kept := 0
	for kept < limit && kept < len(values) && values[kept] > threshold {
		kept++
	}
	return kept
}

// pseudoInverse returns a⁺ for a symmetric positive semi-definite a, through its eigenvalues
// above cutoff·λ_max (the others, and all non-positive ones, are treated as zero).
func pseudoInverse(a mat.Symmetric, cutoff float64) (*mat.SymDense, error) {
	values, vectors, err := eigenDescending(a)
	if err != nil {
		return nil, err
	}
	n := len(values)
	kept := keptCount(values, cutoff, n)
	out := mat.NewSymDense(n, nil)
	if kept == 0 {
		return out, nil
	}
	scaled := mat.NewDense(n, kept, nil)
	for j := range kept {
		s := 1 / math.Sqrt(values[j])
		for i := range n {
			scaled.Set(i, j, vectors.At(i, j)*s)
		}
	}
	out.SymOuterK(1, scaled)
	return out, nil
}
