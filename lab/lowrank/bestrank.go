package lowrank

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// BestRankK returns the best rank-k approximation of the symmetric matrix K in Frobenius (and
// spectral) norm, U_k Λ_k U_kᵀ, with the k eigenvalues of largest absolute value (Eckart–Young;
// for a positive semi-definite Gram matrix these are the k largest). Its error is
// √(Σ_{i>k} λ_i²). It is the reference the other approximations are measured against (the course
// report and the lecture notes), for moderate n: memory O(n²) (K, its eigenvectors and the result), time O(n³).
//
// Errors: nil, empty or non-finite K, k < 1 or k > n, an eigendecomposition that does not
// converge.
func BestRankK(K mat.Symmetric, k int) (*mat.SymDense, error) {
	const op = "BestRankK"
	n, err := finiteSymmetric(op, "K", K)
	if err != nil {
		return nil, err
	}
	if k < 1 || k > n {
		return nil, fmt.Errorf("lowrank: %s: rank %d for a %d×%d matrix, want 1 ≤ k ≤ n", op, k, n, n)
	}
	values, vectors, err := eigenDescending(K)
	if err != nil {
		return nil, fmt.Errorf("lowrank: %s: %w", op, err)
	}
	// Indices of the k eigenvalues of largest magnitude: they sit at the two ends of the
	// decreasing order, so merge from both ends.
	lo, hi := 0, n-1
	chosen := make([]int, 0, k)
	for len(chosen) < k {
		if math.Abs(values[lo]) >= math.Abs(values[hi]) {
			chosen = append(chosen, lo)
			lo++
		} else {
			chosen = append(chosen, hi)
			hi--
		}
	}
	out := mat.NewSymDense(n, nil)
	column := make([]float64, n)
	for _, j := range chosen {
		mat.Col(column, j, vectors)
		out.SymRankOne(out, values[j], mat.NewVecDense(n, column))
	}
	return out, nil
}

// BestRankKError returns the relative error ||K − K_k||_F / ||K||_F of the best rank-k
// approximation K_k of the symmetric matrix K without forming it: by Eckart–Young it is
// √(Σ_{i>k} λ_i² / Σ_i λ_i²), the eigenvalues sorted by decreasing magnitude. Only eigenvalues are
// computed (LAPACK's dsyevd without vectors when built with OpenBLAS), about a third of [BestRankK]'s
// work: time O(n³), memory n² doubles besides K.
//
// Errors: nil, empty, non-finite or zero K, k < 1 or k > n, an eigenvalue computation that does
// not converge.
func BestRankKError(K mat.Symmetric, k int) (float64, error) {
	const op = "BestRankKError"
	n, err := finiteSymmetric(op, "K", K)
	if err != nil {
		return 0, err
	}
	if k < 1 || k > n {
		return 0, fmt.Errorf("lowrank: %s: rank %d for a %d×%d matrix, want 1 ≤ k ≤ n", op, k, n, n)
	}
	values, err := eigenvalues(K)
	if err != nil {
		return 0, fmt.Errorf("lowrank: %s: %w", op, err)
	}
	slices.SortFunc(values, func(a, b float64) int { return cmp.Compare(math.Abs(b), math.Abs(a)) })
	// The squares are summed relative to the largest eigenvalue, so that they overflow for no K
	// whose eigenvalues are finite (an all-10³⁰⁰ matrix gave NaN).
	top := math.Abs(values[0])
	switch {
	case top == 0:
		return 0, fmt.Errorf("lowrank: %s: K is zero", op)
	case math.IsInf(top, 0) || math.IsNaN(top):
		return 0, laberr.Errorf(laberr.ErrNonFinite, "lowrank: %s: the largest eigenvalue of K is %g: its entries are too large; rescale K", op, top)
	}
	var tail, total float64
	for i, v := range values {
		r := v / top
		total += r * r
		if i >= k {
			tail += r * r
		}
	}
	return math.Sqrt(tail / total), nil
}
