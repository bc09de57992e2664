package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
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
// uses), after Jonker and Volgenant's reduction on square costs without many ties (reduce): rows
// are added one at a time, each by a Dijkstra search over the reduced costs
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
	free := make([]int, n) // the rows the searches below add, in order
	for i := range free {
		free[i] = i
	}
	if n == m && !tied(g) {
		free = reduce(g, cs, u, colOf, free)
	}
	for _, cur := range free {
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

// reduce is Jonker and Volgenant's initialisation of a square problem (LAPJV, 1987): it assigns most
// rows, with potentials that keep every reduced cost C[i,j] − u_i − v_j ≥ 0 and the assigned ones at
// 0, in three cheap passes, so that the Dijkstra searches, the costly part on costs without ties,
// only add the rows left free, which it returns (in the order they were freed; all rows, and
// nothing changed, when C's span is too wide for its differences to stay finite).
//   - Column reduction: v_j is column j's minimum, and the column goes to its first minimal row
//     when that row has no column yet (columns from the last).
//   - Reduction transfer: a row that got exactly one column lowers that column's v by its least
//     reduced cost elsewhere, which leaves the row's other columns free to other rows.
//   - Augmenting row reduction, twice over the free rows: a row takes its column of least reduced
//     cost, lowering that column's v to the row's second least so that the row keeps it tight, and
//     the row it displaces tries again at once. When its two least are equal it takes a free one
//     of those two columns, or stays free (LAPJV displaces a row then, which on costs full of ties
//     only passes rows around: 12 times slower on a 2000×2000 matrix of zeros).
//
// A square problem's column potentials carry no sign constraint, which is why this holds only for
// n = m: in a wider one, the free columns' v must stay equal (0) for a search to stop at the first
// free column it reaches, as the Dijkstra searches do.
func reduce(g blas64.General, cs []column, u []float64, colOf, free []int) []int {
	n := g.Rows
	minRow := make([]int, n)
	hi := math.Inf(-1)
	for j := range cs {
		cs[j].v = math.Inf(1) // C is finite (checked), so row 0 sets every column's minimum
	}
	for i := range n {
		for j, c := range g.Data[i*g.Stride : i*g.Stride+n] {
			if c < cs[j].v {
				cs[j].v, minRow[j] = c, i
			}
			if c > hi {
				hi = c
			}
		}
	}
	lo := math.Inf(1)
	for j := range cs {
		if cs[j].v < lo {
			lo = cs[j].v
		}
	}
	if !(hi-lo <= maxReducedSpan) {
		for j := range cs {
			cs[j].v = 0
		}
		return free
	}
	matches := make([]int, n)
	for i := range colOf {
		colOf[i] = -1
	}
	for j := n - 1; j >= 0; j-- {
		i := minRow[j]
		if matches[i]++; matches[i] == 1 {
			colOf[i], cs[j].row = j, i
		}
	}
	free = free[:0]
	for i, k := range matches {
		switch k {
		case 0:
			free = append(free, i)
		case 1:
			j1, least := colOf[i], math.Inf(1)
			for j, c := range g.Data[i*g.Stride : i*g.Stride+n] {
				if r := c - cs[j].v; r < least && j != j1 {
					least = r
				}
			}
			if least < math.Inf(1) { // n = 1 has no other column
				cs[j1].v -= least
			}
		}
	}
	for range 2 {
		// Rows are read from free[k] and the ones freed again written to free[numFree]: numFree ≤ k
		// throughout, so one slice serves both. A row displaced after v moved is read again at once
		// (k steps back); the steps are capped, since a string of ever smaller moves could go on.
		k, prev, numFree := 0, len(free), 0
		for steps := 0; k < prev; steps++ {
			if steps > 4*n {
				numFree += copy(free[numFree:], free[k:prev])
				break
			}
			i := free[k]
			k++
			row := g.Data[i*g.Stride : i*g.Stride+n]
			j1, j2 := 0, -1
			umin, usub := row[0]-cs[0].v, math.Inf(1)
			for j := 1; j < n; j++ {
				h := row[j] - cs[j].v
				if h < usub {
					if h >= umin {
						usub, j2 = h, j
					} else {
						usub, umin, j2, j1 = umin, h, j1, j
					}
				}
			}
			i0 := cs[j1].row
			switch {
			case umin < usub && usub < math.Inf(1):
				cs[j1].v -= usub - umin
				if i0 >= 0 {
					colOf[i0] = -1
					k--
					free[k] = i0
				}
			case i0 < 0:
			case j2 >= 0 && cs[j2].row < 0: // equal least costs: the second column is free
				j1 = j2
			default:
				// Equal least costs on two taken columns: displacing a row would move no potential,
				// and on costs full of ties rows would only displace each other. The row stays free
				// for the searches, which take a free column first among equal distances.
				free[numFree] = i
				numFree++
				continue
			}
			colOf[i], cs[j1].row = j1, i
		}
		free = free[:numFree]
	}
	for i, j := range colOf {
		if j >= 0 {
			u[i] = g.Data[i*g.Stride+j] - cs[j].v
		}
	}
	return free
}

// tied reports whether C's entries repeat often, as integer or constant costs do: among up to 8
// pairs of consecutive rows, more than one entry in 64 equals the one below it (a matrix of zeros:
// all; integers 0–4: one in five; continuous costs: none). On such costs the searches end at once
// at a free column of equal distance, and reduce's passes would only add to them (1.1–2.3 times
// scipy's time on zeros and integers 0–4 with them, 0.6–0.8 without).
func tied(g blas64.General) bool {
	equal, seen := 0, 0
	for i := 0; i+1 < g.Rows && i < 8; i++ {
		a := g.Data[i*g.Stride : i*g.Stride+g.Cols]
		b := g.Data[(i+1)*g.Stride : (i+1)*g.Stride+g.Cols]
		for j, c := range a {
			if c == b[j] {
				equal++
			}
		}
		seen += g.Cols
	}
	return 64*equal > seen
}

// maxReducedSpan bounds the span of C (largest minus smallest entry) under which reduce runs: its
// potentials move by at most a few spans, so their differences stay far from overflowing.
const maxReducedSpan = 1e300

// column is the state of one column of Assignment's search, kept together so that a step touches
// one cache line per column.
type column struct {
	v    float64 // potential
	dist float64 // length of the shortest alternating path to it found by the current search
	prev int     // the row before it on that path
	row  int     // the row assigned to it, −1 when free
}
