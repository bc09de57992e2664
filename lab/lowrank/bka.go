package lowrank

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// BKA returns the block kernel approximation of the course report, §2: the entries K_ij of points i and j
// in the same cluster, and 0 between clusters, a block-diagonal matrix once the points are
// ordered by cluster. clusters[i] is the cluster label of point i (any non-negative integers, for
// instance k-means labels); the result keeps the original order of the points. It suits kernels
// of small bandwidth, whose mass concentrates near the diagonal, and misses the low-rank
// structure of the off-diagonal blocks (MEKA adds it). Memory: the n×n result.
//
// Errors: nil, empty or non-finite K, len(clusters) ≠ n, a negative label.
func BKA(K mat.Symmetric, clusters []int) (*mat.SymDense, error) {
	const op = "BKA"
	n, err := finiteSymmetric(op, "K", K)
	if err != nil {
		return nil, err
	}
	if err := checkLabels(op, clusters, n); err != nil {
		return nil, err
	}
	out := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			if clusters[i] == clusters[j] {
				out.SetSym(i, j, K.At(i, j))
			}
		}
	}
	return out, nil
}

// checkLabels verifies that there is one non-negative cluster label per point.
func checkLabels(op string, clusters []int, n int) error {
	if len(clusters) != n {
		return laberr.Errorf(laberr.ErrShape, "lowrank: %s: %d cluster labels for %d points", op, len(clusters), n)
	}
	for i, c := range clusters {
		if c < 0 {
			return fmt.Errorf("lowrank: %s: clusters[%d] = %d, want a non-negative label", op, i, c)
		}
	}
	return nil
}
