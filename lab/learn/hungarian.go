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
// The method is the shortest augmenting path algorithm with row and column potentials (Jonker and
// Volgenant 1987, in the rectangular form of Crouse 2016 that scipy's linear_sum_assignment
// uses): rows are added one at a time, each by a Dijkstra search over the reduced costs
// C[i,j] − u_i − v_j ≥ 0 that ends at the first free column it reaches, so the total is exact up to
// the rounding of the sums. Among columns at the same distance the search takes a free one first:
// ties, common in integer or constant costs, then end a search at once instead of running along
// every assigned column (the earlier form of this solver took 95 s on a 3000×3000 matrix of zeros).
// Of several optimal assignments, which one is returned depends only on C. gonum has no assignment
// solver, hence this one.
//
// Errors: nil or empty C, NaN or ±Inf in C, more rows than columns (transpose C), a dense copy of
// a lazy C above memlimit, and costs so large that the potentials overflow. Cost: O(n²m) time in
// the worst case, far less on most matrices; O(n + m) memory besides C.
func Assignment(C mat.Matrix) (cols []int, total float64, err error) {
	g, err := matcheck.Rows("learn: Assignment", "C", C)
	if err != nil {
		return nil, 0, err
	}
	n, m := g.Rows, g.Cols
	if n > m {
		return nil, 0, fmt.Errorf("learn: Assignment: C is %d×%d, want no more rows than columns (transpose it)", n, m)
	}
	cs := make([]column, m)
	for j := range cs {
		cs[j].row = -1
	}
	u := make([]float64, n)     // row potentials
	colOf := make([]int, n)     // the column assigned to row i
	remaining := make([]int, m) // unreached columns first (nLeft of them), then the reached ones
	rows := make([]int, 0, n)   // the rows on the search tree
	overflow := func(d float64) error {
		return laberr.Errorf(laberr.ErrNonFinite, "learn: Assignment: the potentials overflow (path length %g); rescale C", d)
	}
	for cur := range n {
		// The first step reaches every column from row cur, in the order m−1, …, 0: the search's
		// distances need no reset between rows.
		row := g.Data[cur*g.Stride : cur*g.Stride+m]
		h := -u[cur]
		best, lowest := -1, math.Inf(1)
		for j := m - 1; j >= 0; j-- {
			c := &cs[j]
			d := h + row[j] - c.v
			c.dist, c.prev = d, cur
			if d < lowest || d == lowest && c.row < 0 {
				best, lowest = j, d
			}
		}
		if best < 0 {
			return nil, 0, overflow(lowest)
		}
		for k := range remaining {
			remaining[k] = m - 1 - k
		}
		k, nLeft, reach, sink := m-1-best, m, 0.0, -1
		rows = append(rows[:0], cur)
		for {
			if lowest-lowest != 0 {
				return nil, 0, overflow(lowest)
			}
			reach = lowest
			j := remaining[k]
			nLeft--
			remaining[k], remaining[nLeft] = remaining[nLeft], j
			if cs[j].row < 0 {
				sink = j
				break
			}
			i := cs[j].row
			rows = append(rows, i)
			row = g.Data[i*g.Stride : i*g.Stride+m]
			h = reach - u[i]
			k, lowest = -1, math.Inf(1)
			for kk, jj := range remaining[:nLeft] {
				c := &cs[jj]
				if r := h + row[jj] - c.v; r < c.dist {
					c.dist, c.prev = r, i
				}
				if d := c.dist; d < lowest || d == lowest && c.row < 0 {
					k, lowest = kk, d
				}
			}
			if k < 0 {
				return nil, 0, overflow(lowest)
			}
		}
		u[cur] += reach
		for _, r := range rows[1:] {
			u[r] += reach - cs[colOf[r]].dist
		}
		for _, j := range remaining[nLeft:] {
			cs[j].v -= reach - cs[j].dist
		}
		for j := sink; ; { // augment along the path back to row cur
			r := cs[j].prev
			cs[j].row = r
			colOf[r], j = j, colOf[r]
			if r == cur {
				break
			}
		}
	}
	for i, j := range colOf {
		total += g.Data[i*g.Stride+j]
	}
	if total-total != 0 {
		return nil, 0, laberr.Errorf(laberr.ErrNonFinite, "learn: Assignment: the total cost overflows (%g); rescale C", total)
	}
	return colOf, total, nil
}

// column is the state of one column of Assignment's search, kept together so that a step touches
// one cache line per column.
type column struct {
	v    float64 // potential
	dist float64 // length of the shortest alternating path to it found by the current search
	prev int     // the row before it on that path
	row  int     // the row assigned to it, −1 when free
}
