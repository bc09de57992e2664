package graphkernel

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// pathABA is the path 0–1–2 labelled 1, 2, 1. Its ordered pairs at distance 1 are (0,1), (1,0),
// (1,2), (2,1): two (1,2,1) and two (2,1,1); at distance 2, (0,2) and (2,0): two (1,1,2).
var pathABA = format.Graph{NodeLabels: []int{1, 2, 1}, Edges: [][2]int{{0, 1}, {1, 2}}}

// triangleAAB is the triangle on nodes labelled 1, 1, 2: every pair at distance 1, so (0,1) and
// (1,0) give two (1,1,1); (0,2), (1,2) two (1,2,1); (2,0), (2,1) two (2,1,1).
var triangleAAB = format.Graph{NodeLabels: []int{1, 1, 2}, Edges: [][2]int{{0, 1}, {0, 2}, {1, 2}}}

func TestPathHistogramHandCount(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    format.Graph
		want map[Triple]float64
	}{
		{"path", pathABA, map[Triple]float64{{1, 1, 2}: 2, {1, 2, 1}: 2, {2, 1, 1}: 2}},
		{"triangle", triangleAAB, map[Triple]float64{{1, 1, 1}: 2, {1, 2, 1}: 2, {2, 1, 1}: 2}},
		// Two components {0,1} and {2,3,4} (a path 2–3–4), unlabelled: pairs across them are
		// ignored; 2 + 4 pairs at distance 1, 2 pairs at distance 2.
		{"two components", format.Graph{Edges: [][2]int{{0, 1}, {2, 3}, {3, 4}}},
			map[Triple]float64{{0, 0, 1}: 6, {0, 0, 2}: 2}},
		// A lone node and an edgeless labelled graph have no path.
		{"single node", format.Graph{NodeLabels: []int{7}}, map[Triple]float64{}},
		{"no edges", format.Graph{NodeLabels: []int{1, 2, 3}}, map[Triple]float64{}},
	} {
		h, err := PathHistogram(tc.g)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(h.Paths) != len(tc.want) || len(h.Counts) != len(h.Paths) {
			t.Fatalf("%s: histogram %v %v, want %v", tc.name, h.Paths, h.Counts, tc.want)
		}
		for i, p := range h.Paths {
			if i > 0 && compareTriples(h.Paths[i-1], p) >= 0 {
				t.Errorf("%s: triples not strictly increasing: %v", tc.name, h.Paths)
			}
			if h.Counts[i] != tc.want[p] {
				t.Errorf("%s: count of %v = %g, want %g", tc.name, p, h.Counts[i], tc.want[p])
			}
		}
	}
}

func TestKernelHandCount(t *testing.T) {
	// Matching pairs of triples: path×triangle share (1,2,1) (2·2) and (2,1,1) (2·2): 8.
	// path×path: 3 triples with 2 each, 12; triangle×triangle likewise 12.
	k, err := NewShortestPath([]format.Graph{pathABA, triangleAAB, {NodeLabels: []int{4}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{12, 8, 0}, {8, 12, 0}, {0, 0, 0}}
	checkGram(t, "plain", k, want)
	kn, err := NewShortestPath([]format.Graph{pathABA, triangleAAB, {NodeLabels: []int{4}}}, Options{Normalise: true})
	if err != nil {
		t.Fatal(err)
	}
	checkGram(t, "normalised", kn, [][]float64{{1, 8.0 / 12, 0}, {8.0 / 12, 1, 0}, {0, 0, 0}})
}

func checkGram(t *testing.T, name string, k *ShortestPath, want [][]float64) {
	t.Helper()
	gram := k.Gram()
	for i := range want {
		for j := range want {
			if got := gram.At(i, j); math.Abs(got-want[i][j]) > 1e-15 {
				t.Errorf("%s: Gram[%d,%d] = %g, want %g", name, i, j, got, want[i][j])
			}
			if got := k.Eval(i, j); math.Abs(got-want[i][j]) > 1e-15 {
				t.Errorf("%s: Eval(%d,%d) = %g, want %g", name, i, j, got, want[i][j])
			}
		}
	}
}

// randomGraph draws a labelled graph on n nodes with edge probability p and labels in 0..labels-1.
func randomGraph(rng *rand.Rand, n int, p float64, labels int) format.Graph {
	g := format.Graph{NodeLabels: make([]int, n)}
	for u := range n {
		g.NodeLabels[u] = rng.IntN(labels)
		for v := u + 1; v < n; v++ {
			if rng.Float64() < p {
				g.Edges = append(g.Edges, [2]int{u, v})
			}
		}
	}
	return g
}

// floydWarshall returns the shortest-path lengths of g by gonum's Floyd–Warshall (+Inf when
// unreachable): an independent reference for the breadth-first searches.
func floydWarshall(g format.Graph) [][]float64 {
	n := len(g.NodeLabels)
	ug := simple.NewUndirectedGraph()
	for u := range n {
		ug.AddNode(simple.Node(u))
	}
	for _, e := range g.Edges {
		ug.SetEdge(ug.NewEdge(simple.Node(e[0]), simple.Node(e[1])))
	}
	all, _ := path.FloydWarshall(ug)
	d := make([][]float64, n)
	for u := range n {
		d[u] = make([]float64, n)
		for v := range n {
			d[u][v] = all.Weight(int64(u), int64(v))
		}
	}
	return d
}

func TestShortestPathLengthsMatchFloydWarshall(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 30 {
		g := randomGraph(rng, 1+rng.IntN(25), 0.04+0.2*rng.Float64(), 3)
		got, err := ShortestPathLengths(g)
		if err != nil {
			t.Fatal(err)
		}
		want := floydWarshall(g)
		for u := range want {
			for v := range want {
				w := want[u][v]
				if math.IsInf(w, 1) {
					w = -1
				}
				if float64(got[u][v]) != w {
					t.Fatalf("trial %d: d(%d,%d) = %d, want %g", trial, u, v, got[u][v], w)
				}
			}
		}
	}
}

// TestKernelBruteForce compares the histogram kernel with the definition: the number of pairs of
// ordered node pairs, one from each graph, with equal end labels and equal (finite, non-zero)
// shortest-path lengths, the lengths taken from Floyd–Warshall.
func TestKernelBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	graphs := make([]format.Graph, 12)
	for i := range graphs {
		graphs[i] = randomGraph(rng, 2+rng.IntN(14), 0.1+0.3*rng.Float64(), 2+rng.IntN(2))
	}
	dists := make([][][]float64, len(graphs))
	for i, g := range graphs {
		dists[i] = floydWarshall(g)
	}
	brute := func(a, b int) float64 {
		var count float64
		ga, gb := graphs[a], graphs[b]
		for u := range ga.NodeLabels {
			for v := range ga.NodeLabels {
				d := dists[a][u][v]
				if u == v || math.IsInf(d, 1) {
					continue
				}
				for x := range gb.NodeLabels {
					for y := range gb.NodeLabels {
						if x != y && dists[b][x][y] == d && ga.NodeLabels[u] == gb.NodeLabels[x] && ga.NodeLabels[v] == gb.NodeLabels[y] {
							count++
						}
					}
				}
			}
		}
		return count
	}
	plain, err := NewShortestPath(graphs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	norm, err := NewShortestPath(graphs, Options{Normalise: true})
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := []int{3, 0, 11, 3}, []int{5, 5, 1, 0, 10}
	block := mat.NewDense(len(rows), len(cols), nil)
	if err := norm.Block(block, rows, cols); err != nil {
		t.Fatal(err)
	}
	for a := range graphs {
		for b := range graphs {
			want := brute(a, b)
			if got := plain.Eval(a, b); got != want {
				t.Errorf("k(%d,%d) = %g, want %g", a, b, got, want)
			}
			wantNorm := want / math.Sqrt(brute(a, a)*brute(b, b))
			if got := norm.Eval(a, b); math.Abs(got-wantNorm) > 1e-14 {
				t.Errorf("normalised k(%d,%d) = %g, want %g", a, b, got, wantNorm)
			}
		}
	}
	for a, i := range rows {
		for b, j := range cols {
			if got, want := block.At(a, b), norm.Eval(i, j); got != want {
				t.Errorf("Block[%d,%d] = %g, want k(%d,%d) = %g", a, b, got, i, j, want)
			}
		}
	}
	if h, ok := plain.Histogram(2); !ok || must(h.Dot(h)) != brute(2, 2) {
		t.Errorf("Histogram(2) = %v, %v", h, ok)
	}
}

func TestErrors(t *testing.T) {
	bad := []struct {
		g    format.Graph
		want string
	}{
		{format.Graph{NodeLabels: []int{1, 2}, Edges: [][2]int{{0, 2}}}, "edge 0 (0, 2) touches a node outside 0..1"},
		{format.Graph{Edges: [][2]int{{-1, 2}}}, "edge 0 (-1, 2)"},
		{format.Graph{NodeLabels: []int{1, 2}, NodeAttributes: [][]float64{{1}}}, "2 node labels but 1 node attribute rows"},
	}
	for _, tc := range bad {
		if _, err := PathHistogram(tc.g); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("PathHistogram(%v): error %v, want %q", tc.g, err, tc.want)
		}
		if _, err := ShortestPathLengths(tc.g); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ShortestPathLengths(%v): error %v, want %q", tc.g, err, tc.want)
		}
	}
	if _, err := NewShortestPath([]format.Graph{pathABA, bad[0].g}, Options{}); err == nil || !strings.Contains(err.Error(), "graph 1: ") {
		t.Errorf("NewShortestPath with a bad graph: error %v", err)
	}
	if _, err := NewShortestPath(nil, Options{}); err == nil {
		t.Error("NewShortestPath(nil): no error")
	}
	k, err := NewShortestPath([]format.Graph{pathABA, triangleAAB}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dst        *mat.Dense
		rows, cols []int
		want       string
	}{
		{nil, []int{0}, []int{0}, "nil destination"},
		{mat.NewDense(1, 2, nil), []int{0}, []int{0}, "destination is 1×2, want 1×1"},
		{mat.NewDense(1, 1, nil), []int{2}, []int{0}, "rows[0] = 2 outside the 2 graphs"},
		{mat.NewDense(1, 2, nil), []int{0}, []int{1, -1}, "cols[1] = -1"},
	} {
		if err := k.Block(tc.dst, tc.rows, tc.cols); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Block(%v, %v): error %v, want %q", tc.rows, tc.cols, err, tc.want)
		}
	}
	if v := k.Eval(0, 2); !math.IsNaN(v) {
		t.Errorf("Eval out of range = %g, want NaN", v)
	}
	if _, ok := k.Histogram(-1); ok {
		t.Error("Histogram(-1) ok")
	}
}

// mutag loads MUTAG from the offline mirror (LAB_DATA_MIRROR, else /work/shared/datasets) or skips.
func mutag(tb testing.TB) *dataset.GraphSet {
	tb.Helper()
	dir := os.Getenv("LAB_DATA_MIRROR")
	if dir == "" {
		dir = "/work/shared/datasets"
	}
	if st, err := os.Stat(dir + "/mutag"); err != nil || !st.IsDir() {
		tb.Skipf("no MUTAG in a data mirror at %s (set LAB_DATA_MIRROR)", dir)
	}
	set, err := dataset.Source{Mirror: dir}.Graphs(context.Background(), "mutag")
	if err != nil {
		tb.Fatal(err)
	}
	return set
}

// TestMUTAG checks the Gram matrix of the thesis's graph set: 188 graphs, every diagonal entry
// positive and equal to the histogram's squared norm, a positive semi-definite matrix, and the
// normalised matrix with unit diagonal and entries in [0, 1].
func TestMUTAG(t *testing.T) {
	set := mutag(t)
	k, err := NewShortestPath(set.Graphs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if k.Len() != 188 {
		t.Fatalf("%d graphs, want 188", k.Len())
	}
	gram := k.Gram()
	var eig mat.EigenSym
	if !eig.Factorize(gram, false) {
		t.Fatal("eigendecomposition failed")
	}
	values := eig.Values(nil)
	if lo, hi := values[0], values[len(values)-1]; lo < -1e-10*hi {
		t.Errorf("smallest eigenvalue %g for largest %g: not positive semi-definite", lo, hi)
	}
	kn, err := NewShortestPath(set.Graphs, Options{Normalise: true})
	if err != nil {
		t.Fatal(err)
	}
	gn := kn.Gram()
	for i := range 188 {
		h, _ := k.Histogram(i)
		if d := gram.At(i, i); d <= 0 || d != must(h.Dot(h)) {
			t.Errorf("k(%d,%d) = %g", i, i, d)
		}
		if d := gn.At(i, i); math.Abs(d-1) > 1e-14 {
			t.Errorf("normalised k(%d,%d) = %g, want 1", i, i, d)
		}
		for j := range 188 {
			if v := gn.At(i, j); v < 0 || v > 1+1e-14 {
				t.Errorf("normalised k(%d,%d) = %g outside [0, 1]", i, j, v)
			}
		}
	}
}
