package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Assignment solves the linear assignment problem: given an n×m cost matrix C with n ≤ m, it
// returns the one-to-one map σ from rows to distinct columns that minimises Σ_i C[i, σ(i)], as
// cols[i] = σ(i), with that minimal total. The topic model's scores use it to match the topics
// of two runs, whose labels are arbitrary ([MatchTopics]); any other one-to-one matching (clusters
// to classes, for instance) is the same problem.
//
// The method is the Hungarian algorithm in its shortest-augmenting-path form (Kuhn 1955,
// Munkres 1957; the O(n²m) variant with row and column potentials of Jonker and Volgenant):
// rows are added one at a time, each by a Dijkstra-like search over reduced costs
// C[i,j] − u_i − v_j ≥ 0, so the total is exact up to the rounding of the sums. Of several optimal
// assignments, which one is returned depends only on C. gonum has no assignment solver, hence
// this one.
//
// Errors: nil or empty C, NaN or ±Inf in C, more rows than columns (transpose C), and costs so
// large that the potentials overflow. Cost: O(n²m) time, O(n + m) memory besides C.
func Assignment(C mat.Matrix) (cols []int, total float64, err error) {
	g, err := matcheck.Rows("learn: Assignment", "C", C)
	if err != nil {
		return nil, 0, err
	}
	n, m := g.Rows, g.Cols
	if n > m {
		return nil, 0, fmt.Errorf("learn: Assignment: C is %d×%d, want no more rows than columns (transpose it)", n, m)
	}
	cost := func(i, j int) float64 { return g.Data[i*g.Stride+j] }
	// Potentials u (rows) and v (columns), 1-based with a virtual column 0 that holds the row
	// being inserted; rowOf[j] is the row assigned to column j (0: none).
	u := make([]float64, n+1)
	v := make([]float64, m+1)
	rowOf := make([]int, m+1)
	prev := make([]int, m+1) // the column before j on the shortest alternating path
	minSlack := make([]float64, m+1)
	used := make([]bool, m+1)
	for i := 1; i <= n; i++ {
		rowOf[0] = i
		j0 := 0
		for j := range minSlack {
			minSlack[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := rowOf[j0]
			delta, j1 := math.Inf(1), -1
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if r := cost(i0-1, j-1) - u[i0] - v[j]; r < minSlack[j] {
					minSlack[j], prev[j] = r, j0
				}
				if minSlack[j] < delta {
					delta, j1 = minSlack[j], j
				}
			}
			if j1 < 0 || delta-delta != 0 {
				return nil, 0, laberr.Errorf(laberr.ErrNonFinite, "learn: Assignment: the potentials overflow (reduced cost %g); rescale C", delta)
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[rowOf[j]] += delta
					v[j] -= delta
				} else {
					minSlack[j] -= delta
				}
			}
			j0 = j1
			if rowOf[j0] == 0 {
				break
			}
		}
		for j0 != 0 { // augment along the path back to the virtual column
			j1 := prev[j0]
			rowOf[j0] = rowOf[j1]
			j0 = j1
		}
	}
	cols = make([]int, n)
	for j := 1; j <= m; j++ {
		if rowOf[j] != 0 {
			cols[rowOf[j]-1] = j - 1
		}
	}
	for i, j := range cols {
		total += cost(i, j)
	}
	if total-total != 0 {
		return nil, 0, laberr.Errorf(laberr.ErrNonFinite, "learn: Assignment: the total cost overflows (%g); rescale C", total)
	}
	return cols, total, nil
}
