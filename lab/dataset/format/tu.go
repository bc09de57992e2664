package format

import (
	"io"
	"strconv"
	"strings"
)

// TUFiles holds the readers of one data set in the TU-Dortmund graph format (DS_A.txt and
// friends); the optional ones are nil when the set does not have them.
type TUFiles struct {
	A, GraphIndicator, GraphLabels         io.Reader // required
	NodeLabels, EdgeLabels, NodeAttributes io.Reader // optional, nil when absent
}

// Graph is one labelled undirected graph of a TU data set, with 0-based local node ids.
type Graph struct {
	NodeLabels     []int       // per node; nil when the set has none
	Edges          [][2]int    // each undirected edge once, with u < v, in the order of A
	EdgeLabels     []int       // aligned with Edges; nil when the set has none
	NodeAttributes [][]float64 // per node; nil when the set has none
	Label          int         // the graph label as in the file
}

// ReadTU parses a data set in the TU-Dortmund graph format. name is the data set's prefix
// ("MUTAG"); errors name the member file ("MUTAG_A.txt:12: ...").
//
// A lists directed edges "i, j" between 1-based global node ids, each undirected edge in both
// directions; GraphIndicator gives the 1-based graph id of each node; GraphLabels one label per
// graph; NodeLabels one integer per node; EdgeLabels one integer per line of A (equal for both
// directions of an edge); NodeAttributes comma-separated numbers per node, the same count on
// every line. Local node ids follow the order of the nodes in GraphIndicator.
//
// Errors: an edge between two graphs, node or graph ids out of range, a graph without nodes,
// line counts that do not match, an edge without its reverse or listed twice, self loops,
// edge labels that differ between the two directions, and any unparsable line.
func ReadTU(files TUFiles, name string) ([]Graph, error) {
	if files.A == nil || files.GraphIndicator == nil || files.GraphLabels == nil {
		return nil, fileError(name, "the A, graph indicator and graph labels files are required")
	}
	fileA, fileIndicator, fileLabels := name+"_A.txt", name+"_graph_indicator.txt", name+"_graph_labels.txt"
	graphLabels, err := readTUInts(files.GraphLabels, fileLabels)
	if err != nil {
		return nil, err
	}
	if len(graphLabels) == 0 {
		return nil, fileError(fileLabels, "no graphs")
	}
	indicator, err := readTUInts(files.GraphIndicator, fileIndicator)
	if err != nil {
		return nil, err
	}
	graphs := make([]Graph, len(graphLabels))
	local := make([]int, len(indicator)) // local id of each global node
	sizes := make([]int, len(graphs))
	for v, g := range indicator {
		if g < 1 || g > len(graphs) {
			return nil, lineError(fileIndicator, v+1, "graph id %d is outside 1..%d (%s has %d lines)", g, len(graphs), fileLabels, len(graphs))
		}
		indicator[v] = g - 1
		local[v] = sizes[g-1]
		sizes[g-1]++
	}
	for g := range graphs {
		if sizes[g] == 0 {
			return nil, fileError(fileIndicator, "graph %d has no nodes", g+1)
		}
		graphs[g].Label = graphLabels[g]
	}

	edges, err := readTUEdges(files.A, fileA, len(indicator))
	if err != nil {
		return nil, err
	}
	var edgeLabels []int
	if files.EdgeLabels != nil {
		fileEdgeLabels := name + "_edge_labels.txt"
		if edgeLabels, err = readTUInts(files.EdgeLabels, fileEdgeLabels); err != nil {
			return nil, err
		}
		if len(edgeLabels) != len(edges) {
			return nil, fileError(fileEdgeLabels, "%d lines, but %s has %d", len(edgeLabels), fileA, len(edges))
		}
		for g := range graphs {
			graphs[g].EdgeLabels = []int{}
		}
	}
	if err := addTUEdges(graphs, edges, edgeLabels, indicator, local, fileA); err != nil {
		return nil, err
	}

	if files.NodeLabels != nil {
		fileNodeLabels := name + "_node_labels.txt"
		labels, err := readTUInts(files.NodeLabels, fileNodeLabels)
		if err != nil {
			return nil, err
		}
		if len(labels) != len(indicator) {
			return nil, fileError(fileNodeLabels, "%d lines, but %s has %d nodes", len(labels), fileIndicator, len(indicator))
		}
		for g := range graphs {
			graphs[g].NodeLabels = make([]int, sizes[g])
		}
		for v, l := range labels {
			graphs[indicator[v]].NodeLabels[local[v]] = l
		}
	}
	if files.NodeAttributes != nil {
		fileAttributes := name + "_node_attributes.txt"
		attrs, err := readTUAttributes(files.NodeAttributes, fileAttributes)
		if err != nil {
			return nil, err
		}
		if len(attrs) != len(indicator) {
			return nil, fileError(fileAttributes, "%d lines, but %s has %d nodes", len(attrs), fileIndicator, len(indicator))
		}
		for g := range graphs {
			graphs[g].NodeAttributes = make([][]float64, sizes[g])
		}
		for v, a := range attrs {
			graphs[indicator[v]].NodeAttributes[local[v]] = a
		}
	}
	return graphs, nil
}

// tuEdge is one line of DS_A.txt: 0-based global endpoints.
type tuEdge struct{ from, to int }

// addTUEdges checks that A is symmetric within graphs and appends each undirected edge once
// (at its first listing) to its graph.
func addTUEdges(graphs []Graph, edges []tuEdge, labels []int, indicator, local []int, fileA string) error {
	lineOf := make(map[tuEdge]int, len(edges)) // 0-based line of each directed edge
	for k, e := range edges {
		if e.from == e.to {
			return lineError(fileA, k+1, "self loop on node %d", e.from+1)
		}
		if gf, gt := indicator[e.from], indicator[e.to]; gf != gt {
			return lineError(fileA, k+1, "edge %d, %d joins graph %d and graph %d", e.from+1, e.to+1, gf+1, gt+1)
		}
		if first, dup := lineOf[e]; dup {
			return lineError(fileA, k+1, "edge %d, %d is listed twice (also line %d)", e.from+1, e.to+1, first+1)
		}
		lineOf[e] = k
	}
	for k, e := range edges {
		rev, ok := lineOf[tuEdge{e.to, e.from}]
		if !ok {
			return lineError(fileA, k+1, "edge %d, %d has no reverse %d, %d (A must be symmetric)", e.from+1, e.to+1, e.to+1, e.from+1)
		}
		if labels != nil && labels[rev] != labels[k] {
			return lineError(fileA, k+1, "edge %d, %d has label %d but its reverse on line %d has %d", e.from+1, e.to+1, labels[k], rev+1, labels[rev])
		}
		if rev < k {
			continue // listed already, at the reverse's line
		}
		g := &graphs[indicator[e.from]]
		u, v := local[e.from], local[e.to]
		g.Edges = append(g.Edges, [2]int{min(u, v), max(u, v)})
		if labels != nil {
			g.EdgeLabels = append(g.EdgeLabels, labels[k])
		}
	}
	return nil
}

// readTUEdges reads DS_A.txt lines "i, j" (1-based) into 0-based pairs, checking the ids.
func readTUEdges(r io.Reader, file string, nodes int) ([]tuEdge, error) {
	var edges []tuEdge
	err := readTULines(r, file, func(line int, text string) error {
		a, b, found := strings.Cut(text, ",")
		if !found {
			return lineError(file, line, "%q is not \"i, j\"", clip(text))
		}
		var ends [2]int
		for k, s := range [2]string{a, b} {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return lineError(file, line, "%q is not \"i, j\" with integer node ids", clip(text))
			}
			if v < 1 || v > nodes {
				return lineError(file, line, "node id %d is outside 1..%d (the graph indicator's length)", v, nodes)
			}
			ends[k] = v - 1
		}
		edges = append(edges, tuEdge{ends[0], ends[1]})
		return nil
	})
	return edges, err
}

// readTUInts reads a file of one integer per line.
func readTUInts(r io.Reader, file string) ([]int, error) {
	var values []int
	err := readTULines(r, file, func(line int, text string) error {
		v, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil {
			return lineError(file, line, "%q is not an integer", clip(text))
		}
		values = append(values, v)
		return nil
	})
	return values, err
}

// readTUAttributes reads comma-separated numbers, the same count on every line.
func readTUAttributes(r io.Reader, file string) ([][]float64, error) {
	var rows [][]float64
	err := readTULines(r, file, func(line int, text string) error {
		fields := strings.Split(text, ",")
		if len(rows) > 0 && len(fields) != len(rows[0]) {
			return lineError(file, line, "%d values, want %d as on line 1", len(fields), len(rows[0]))
		}
		row := make([]float64, len(fields))
		for k, f := range fields {
			v, err := parseFinite(strings.TrimSpace(f))
			if err != nil {
				return lineError(file, line, "value %d %q is %v", k+1, clip(strings.TrimSpace(f)), err)
			}
			row[k] = v
		}
		rows = append(rows, row)
		return nil
	})
	return rows, err
}

// readTULines calls each for every line of a TU file. Blank lines are allowed only at the end,
// where they are ignored; inside the file they would misalign lines with node or edge ids.
func readTULines(r io.Reader, file string, each func(line int, text string) error) error {
	lr := newLineReader(r, file)
	blank := 0 // line number of the first blank line of the current run, 0 if none
	for {
		line, ok, err := lr.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if strings.TrimSpace(line) == "" {
			if blank == 0 {
				blank = lr.line
			}
			continue
		}
		if blank != 0 {
			return lineError(file, blank, "blank line inside the file")
		}
		if err := each(lr.line, line); err != nil {
			return err
		}
	}
}
