package graphkernel

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Triple identifies a shortest path by the labels of its end nodes and its length in edges: the
// feature the shortest-path kernel compares.
type Triple struct {
	Start, End, Length int
}

// compareTriples orders triples by Start, then End, then Length.
func compareTriples(a, b Triple) int {
	if c := cmp.Compare(a.Start, b.Start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.End, b.End); c != 0 {
		return c
	}
	return cmp.Compare(a.Length, b.Length)
}

// Histogram is one graph's feature vector under the shortest-path kernel: for each triple, the
// number of ordered pairs of distinct nodes whose shortest path has it. It is sparse (only the
// triples that occur are stored), so that kernel values are merges of two short sorted lists.
type Histogram struct {
	Paths  []Triple  // distinct triples, in increasing order of Start, then End, then Length
	Counts []float64 // Counts[i] is the number of ordered pairs (u, v), u ≠ v, with triple Paths[i]
}

// Dot returns Σ_t h_t o_t, the (unnormalised) shortest-path kernel between the graphs of h and o.
// It merges the two sorted lists: time O(len(h.Paths) + len(o.Paths)).
//
// Errors: a histogram whose Paths and Counts have different lengths, whose Paths are not distinct
// and increasing, or whose Counts are not finite and ≥ 0 ([PathHistogram] and
// [ShortestPath.Histogram] always give valid ones), and a sum that overflows.
func (h Histogram) Dot(o Histogram) (float64, error) {
	if err := h.check("h"); err != nil {
		return 0, err
	}
	if err := o.check("o"); err != nil {
		return 0, err
	}
	s := h.dot(o)
	if math.IsInf(s, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "graphkernel: Histogram.Dot: the sum overflows")
	}
	return s, nil
}

// check validates a histogram given to Dot.
func (h Histogram) check(name string) error {
	if len(h.Paths) != len(h.Counts) {
		return laberr.Errorf(laberr.ErrShape, "graphkernel: Histogram.Dot: %s has %d paths but %d counts, want one count per path", name, len(h.Paths), len(h.Counts))
	}
	for i, c := range h.Counts {
		if !(c >= 0) || math.IsInf(c, 0) {
			return fmt.Errorf("graphkernel: Histogram.Dot: %s.Counts[%d] = %g, want a finite count ≥ 0", name, i, c)
		}
		if i > 0 && compareTriples(h.Paths[i-1], h.Paths[i]) >= 0 {
			return fmt.Errorf("graphkernel: Histogram.Dot: %s.Paths[%d] = %v does not follow %v, want distinct triples in increasing order", name, i, h.Paths[i], h.Paths[i-1])
		}
	}
	return nil
}

// dot is Dot for valid histograms.
func (h Histogram) dot(o Histogram) float64 {
	var s float64
	i, j := 0, 0
	for i < len(h.Paths) && j < len(o.Paths) {
		switch c := compareTriples(h.Paths[i], o.Paths[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			s += h.Counts[i] * o.Counts[j]
			i++
			j++
		}
	}
	return s
}

// graphShape returns the number of nodes of g, and g's node labels (all 0 when it has none). The
// node count is the length of NodeLabels, else of NodeAttributes, else one more than the largest
// node an edge touches (isolated nodes of unlabelled graphs without attributes are then unknown,
// which does not change any shortest path).
func graphShape(g format.Graph) (int, []int, error) {
	n := -1
	switch {
	case g.NodeLabels != nil && g.NodeAttributes != nil && len(g.NodeLabels) != len(g.NodeAttributes):
		return 0, nil, laberr.Errorf(laberr.ErrShape, "%d node labels but %d node attribute rows", len(g.NodeLabels), len(g.NodeAttributes))
	case g.NodeLabels != nil:
		n = len(g.NodeLabels)
	case g.NodeAttributes != nil:
		n = len(g.NodeAttributes)
	}
	if n < 0 {
		n = 0
		for _, e := range g.Edges {
			n = max(n, e[0]+1, e[1]+1)
		}
	}
	for i, e := range g.Edges {
		if e[0] < 0 || e[0] >= n || e[1] < 0 || e[1] >= n {
			return 0, nil, fmt.Errorf("edge %d (%d, %d) touches a node outside 0..%d", i, e[0], e[1], n-1)
		}
	}
	// Every use needs at least n² values (path lengths or triples): refuse a node count whose
	// memory cannot be meant before allocating anything of size n.
	if err := memlimit.Check("graph", fmt.Sprintf("%d nodes (%d×%d path lengths)", n, n, n), 8, n, n); err != nil {
		return 0, nil, err
	}
	labels := g.NodeLabels
	if labels == nil {
		labels = make([]int, n)
	}
	return n, labels, nil
}

// adjacency is a graph's neighbour lists in compressed form: the neighbours of node u are
// next[start[u]:start[u+1]].
type adjacency struct {
	start, next []int
}

func newAdjacency(n int, edges [][2]int) adjacency {
	start := make([]int, n+1)
	for _, e := range edges {
		start[e[0]+1]++
		start[e[1]+1]++
	}
	for u := range n {
		start[u+1] += start[u]
	}
	next := make([]int, start[n])
	fill := slices.Clone(start[:n])
	for _, e := range edges {
		next[fill[e[0]]] = e[1]
		fill[e[0]]++
		next[fill[e[1]]] = e[0]
		fill[e[1]]++
	}
	return adjacency{start: start, next: next}
}

// distancesFrom sets dist[v] to the number of edges of a shortest path from source to v, or -1
// when no path joins them (breadth-first search; queue must have room for every node).
func (a adjacency) distancesFrom(source int, dist, queue []int) {
	for v := range dist {
		dist[v] = -1
	}
	dist[source] = 0
	queue = append(queue[:0], source)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for _, v := range a.next[a.start[u]:a.start[u+1]] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
}

// ShortestPathLengths returns the n×n matrix of shortest-path lengths between the nodes of g, in
// edges (entry [u][v]; 0 on the diagonal), with -1 for pairs that no path joins. It runs a
// breadth-first search from every node: time O(n(n + |E|)), memory O(n²).
//
// Errors: an edge to a node outside the graph, node labels and attributes of different lengths,
// an n×n matrix above the allocation limit (lab/internal/memlimit; a graph whose only edge names
// node 200000 has n = 200001).
func ShortestPathLengths(g format.Graph) ([][]int, error) {
	n, _, err := graphShape(g)
	if err != nil {
		return nil, fmt.Errorf("graphkernel: ShortestPathLengths: %w", err)
	}
	adj := newAdjacency(n, g.Edges)
	queue := make([]int, 0, n)
	dist := make([][]int, n)
	for u := range dist {
		dist[u] = make([]int, n)
		adj.distancesFrom(u, dist[u], queue)
	}
	return dist, nil
}

// PathHistogram returns g's histogram of shortest-path triples (start label, end label, length)
// over the ordered pairs of distinct nodes that a path joins. Time O(n(n + |E|) + n² log n),
// memory O(n²): 24 bytes per ordered pair of nodes, checked against the allocation limit.
//
// Errors as for [ShortestPathLengths].
func PathHistogram(g format.Graph) (Histogram, error) {
	n, labels, err := graphShape(g)
	if err != nil {
		return Histogram{}, fmt.Errorf("graphkernel: PathHistogram: %w", err)
	}
	if err := memlimit.Check("graphkernel: PathHistogram", fmt.Sprintf("the triples of the %d×%d ordered pairs of nodes", n, max(0, n-1)), 24, n, max(0, n-1)); err != nil {
		return Histogram{}, err
	}
	adj := newAdjacency(n, g.Edges)
	dist := make([]int, n)
	queue := make([]int, 0, n)
	triples := make([]Triple, 0, n*(n-1))
	for u := range n {
		adj.distancesFrom(u, dist, queue)
		for v, d := range dist {
			if v != u && d > 0 {
				triples = append(triples, Triple{Start: labels[u], End: labels[v], Length: d})
			}
		}
	}
	slices.SortFunc(triples, compareTriples)
	var h Histogram
	for i, t := range triples {
		if i > 0 && t == triples[i-1] {
			h.Counts[len(h.Counts)-1]++
			continue
		}
		h.Paths = append(h.Paths, t)
		h.Counts = append(h.Counts, 1)
	}
	return h, nil
}

// Options are the choices of the shortest-path kernel. The zero value is the plain kernel.
type Options struct {
	// Normalise makes the kernel k(G, G')/√(k(G, G) k(G', G')), which is 1 on the diagonal, so
	// that large molecules (with many paths) do not dominate. A graph without any path (fewer
	// than two connected nodes) has k(G, G) = 0 and then normalised kernel values 0, itself
	// included.
	Normalise bool
}

// ShortestPath is the shortest-path kernel on a fixed list of graphs, addressed by index: the
// histograms are computed once by [NewShortestPath], and kernel values are merges of two of them.
// Len and Block make it a set of points for package lab/mmd. Memory: the histograms, O(Σ n_i²)
// in the worst case and far less in practice (MUTAG: 188 graphs, 43 distinct triples per graph
// on average). Safe for concurrent use.
type ShortestPath struct {
	hists []Histogram
	ids   [][]int32 // ids[i][t]: rank of hists[i].Paths[t] among all the set's triples (increasing)
	scale []float64 // 1/√k(G, G) when normalised (0 when k(G, G) = 0), else 1
}

// NewShortestPath computes the path histograms of graphs (on all cores) for the shortest-path
// kernel with the given options.
//
// Errors: no graphs, and for the first faulty graph (by index) the errors of [PathHistogram].
func NewShortestPath(graphs []format.Graph, opts Options) (*ShortestPath, error) {
	if len(graphs) == 0 {
		return nil, fmt.Errorf("graphkernel: NewShortestPath: no graphs")
	}
	k := &ShortestPath{hists: make([]Histogram, len(graphs)), scale: make([]float64, len(graphs))}
	errs := make([]error, len(graphs))
	parallelFor(len(graphs), func(i int) {
		k.hists[i], errs[i] = PathHistogram(graphs[i])
		k.scale[i] = 1
		if opts.Normalise {
			if self := k.hists[i].dot(k.hists[i]); self > 0 {
				k.scale[i] = 1 / math.Sqrt(self)
			} else {
				k.scale[i] = 0
			}
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("graphkernel: NewShortestPath: graph %d: %w", i, err)
		}
	}
	// Number the distinct triples of the whole set in increasing order, so that each histogram
	// becomes an increasing list of integers and the merges of dot compare integers.
	var all []Triple
	for _, h := range k.hists {
		all = append(all, h.Paths...)
	}
	slices.SortFunc(all, compareTriples)
	all = slices.Compact(all)
	k.ids = make([][]int32, len(graphs))
	for i, h := range k.hists {
		k.ids[i] = make([]int32, len(h.Paths))
		for t, p := range h.Paths {
			id, _ := slices.BinarySearchFunc(all, p, compareTriples)
			k.ids[i][t] = int32(id)
		}
	}
	return k, nil
}

// dot returns the unnormalised kernel between graphs i and j by merging their triple ids.
func (k *ShortestPath) dot(i, j int) float64 {
	a, b := k.ids[i], k.ids[j]
	ca, cb := k.hists[i].Counts, k.hists[j].Counts
	var s float64
	p, q := 0, 0
	for p < len(a) && q < len(b) {
		switch {
		case a[p] < b[q]:
			p++
		case a[p] > b[q]:
			q++
		default:
			s += ca[p] * cb[q]
			p++
			q++
		}
	}
	return s
}

// Len returns the number of graphs.
func (k *ShortestPath) Len() int { return len(k.hists) }

// Histogram returns a copy of the path histogram of graph i (unnormalised), for inspection; ok is
// false when i is out of range.
func (k *ShortestPath) Histogram(i int) (h Histogram, ok bool) {
	if i < 0 || i >= len(k.hists) {
		return Histogram{}, false
	}
	return Histogram{Paths: slices.Clone(k.hists[i].Paths), Counts: slices.Clone(k.hists[i].Counts)}, true
}

// Eval returns the kernel between graphs i and j (normalised if so built), or NaN when an index
// is out of range (as kernel.Kernel's Eval returns NaN for vectors of different lengths); the zero
// ShortestPath holds no graph, so every index is out of its range and Eval returns NaN.
func (k *ShortestPath) Eval(i, j int) float64 {
	if i < 0 || i >= len(k.hists) || j < 0 || j >= len(k.hists) {
		return math.NaN()
	}
	return k.dot(i, j) * k.scale[i] * k.scale[j]
}

// Block writes the kernel values k(G_rows[a], G_cols[b]) into dst, which must be
// len(rows)×len(cols), so that MMD estimators can read any block of the kernel matrix without
// forming it.
//
// Errors: nil dst, a dst of another shape, an index out of range (dst is then left unchanged).
func (k *ShortestPath) Block(dst *mat.Dense, rows, cols []int) error {
	if dst == nil {
		return fmt.Errorf("graphkernel: ShortestPath.Block: nil destination")
	}
	if r, c := dst.Dims(); r != len(rows) || c != len(cols) {
		return laberr.Errorf(laberr.ErrShape, "graphkernel: ShortestPath.Block: destination is %d×%d, want %d×%d", r, c, len(rows), len(cols))
	}
	if err := k.checkIndices("rows", rows); err != nil {
		return err
	}
	if err := k.checkIndices("cols", cols); err != nil {
		return err
	}
	raw := dst.RawMatrix()
	for a, i := range rows {
		out := raw.Data[a*raw.Stride : a*raw.Stride+len(cols)]
		for b, j := range cols {
			out[b] = k.dot(i, j) * k.scale[i] * k.scale[j]
		}
	}
	return nil
}

func (k *ShortestPath) checkIndices(name string, idx []int) error {
	for a, i := range idx {
		if i < 0 || i >= len(k.hists) {
			return fmt.Errorf("graphkernel: ShortestPath.Block: %s[%d] = %d outside the %d graphs", name, a, i, len(k.hists))
		}
	}
	return nil
}

// Gram returns the n×n kernel matrix of all the graphs, rows computed on all cores. Memory: the
// n×n result. It is nil for the zero ShortestPath (one not made by [NewShortestPath]).
func (k *ShortestPath) Gram() *mat.SymDense {
	if k == nil || len(k.hists) == 0 {
		return nil
	}
	n := len(k.hists)
	gram := mat.NewSymDense(n, nil)
	raw := gram.RawSymmetric()
	parallelFor(n, func(i int) {
		for j := i; j < n; j++ {
			raw.Data[i*raw.Stride+j] = k.dot(i, j) * k.scale[i] * k.scale[j]
		}
	})
	return gram
}

// parallelFor runs body(0..n-1) on min(n, GOMAXPROCS) goroutines that take indices in turn.
func parallelFor(n int, body func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				body(i)
			}
		})
	}
	wg.Wait()
}
