package format

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

// tinyTU is two graphs: graph 1 is the path 1-2-3, graph 2 the edge 4-5.
func tinyTU() TUFiles {
	return TUFiles{
		A:              strings.NewReader("2, 1\n1, 2\n2, 3\n3, 2\n4, 5\n5, 4\n"),
		GraphIndicator: strings.NewReader("1\n1\n1\n2\n2\n"),
		GraphLabels:    strings.NewReader("1\n-1\n"),
		NodeLabels:     strings.NewReader("0\n1\n2\n3\n4\n"),
		EdgeLabels:     strings.NewReader("7\n7\n8\n8\n9\n9\n"),
		NodeAttributes: strings.NewReader(" 1.0, 2.0\n3,4\n5,6\n7,8\n9,10\n\n"),
	}
}

func TestReadTU(t *testing.T) {
	got, err := ReadTU(tinyTU(), "T")
	if err != nil {
		t.Fatal(err)
	}
	want := []Graph{
		{NodeLabels: []int{0, 1, 2}, Edges: [][2]int{{0, 1}, {1, 2}}, EdgeLabels: []int{7, 8},
			NodeAttributes: [][]float64{{1, 2}, {3, 4}, {5, 6}}, Label: 1},
		{NodeLabels: []int{3, 4}, Edges: [][2]int{{0, 1}}, EdgeLabels: []int{9},
			NodeAttributes: [][]float64{{7, 8}, {9, 10}}, Label: -1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestReadTUOptionalAbsentAndInterleaved(t *testing.T) {
	// Nodes of graph 1 are global 1 and 3 (local 0 and 1); graph 2 has node 2 and no edges.
	files := TUFiles{
		A:              strings.NewReader("1,3\r\n3,1\r\n"),
		GraphIndicator: strings.NewReader("1\n2\n1\n"),
		GraphLabels:    strings.NewReader("5\n6\n"),
	}
	got, err := ReadTU(files, "T")
	if err != nil {
		t.Fatal(err)
	}
	want := []Graph{{Edges: [][2]int{{0, 1}}, Label: 5}, {Label: 6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestReadTUErrors(t *testing.T) {
	type edit func(*TUFiles)
	set := func(field *io.Reader, text string) { *field = strings.NewReader(text) }
	cases := []struct {
		name string
		edit edit
		want string
	}{
		{"edge between graphs", func(f *TUFiles) { set(&f.A, "3, 4\n4, 3\n"); f.EdgeLabels = nil }, "T_A.txt:1: edge 3, 4 joins graph 1 and graph 2"},
		{"asymmetric", func(f *TUFiles) { set(&f.A, "1, 2\n2, 1\n2, 3\n"); f.EdgeLabels = nil }, "T_A.txt:3: edge 2, 3 has no reverse 3, 2"},
		{"duplicate", func(f *TUFiles) { set(&f.A, "1, 2\n2, 1\n1, 2\n"); f.EdgeLabels = nil }, "T_A.txt:3: edge 1, 2 is listed twice (also line 1)"},
		{"self loop", func(f *TUFiles) { set(&f.A, "2, 2\n"); f.EdgeLabels = nil }, "T_A.txt:1: self loop on node 2"},
		{"node id too large", func(f *TUFiles) { set(&f.A, "1, 6\n") }, "T_A.txt:1: node id 6 is outside 1..5"},
		{"node id zero", func(f *TUFiles) { set(&f.A, "0, 1\n") }, "T_A.txt:1: node id 0 is outside 1..5"},
		{"bad edge line", func(f *TUFiles) { set(&f.A, "1 2\n") }, "T_A.txt:1: \"1 2\" is not \"i, j\""},
		{"bad edge id", func(f *TUFiles) { set(&f.A, "1, x\n") }, "T_A.txt:1: \"1, x\" is not \"i, j\" with integer node ids"},
		{"graph id too large", func(f *TUFiles) { set(&f.GraphIndicator, "1\n1\n1\n3\n2\n") }, "T_graph_indicator.txt:4: graph id 3 is outside 1..2"},
		{"graph without nodes", func(f *TUFiles) { set(&f.GraphLabels, "1\n-1\n1\n") }, "T_graph_indicator.txt: graph 3 has no nodes"},
		{"no graphs", func(f *TUFiles) { set(&f.GraphLabels, "") }, "T_graph_labels.txt: no graphs"},
		{"node labels count", func(f *TUFiles) { set(&f.NodeLabels, "0\n1\n") }, "T_node_labels.txt: 2 lines, but T_graph_indicator.txt has 5 nodes"},
		{"edge labels count", func(f *TUFiles) { set(&f.EdgeLabels, "7\n") }, "T_edge_labels.txt: 1 lines, but T_A.txt has 6"},
		{"edge labels differ", func(f *TUFiles) { set(&f.EdgeLabels, "7\n7\n8\n1\n9\n9\n") }, "T_A.txt:3: edge 2, 3 has label 8 but its reverse on line 4 has 1"},
		{"attribute count", func(f *TUFiles) { set(&f.NodeAttributes, "1,2\n3\n5,6\n7,8\n9,10\n") }, "T_node_attributes.txt:2: 1 values, want 2"},
		{"attribute NaN", func(f *TUFiles) { set(&f.NodeAttributes, "1,2\n3,NaN\n5,6\n7,8\n9,10\n") }, "T_node_attributes.txt:2: value 2 \"NaN\" is not a finite number"},
		{"attribute lines", func(f *TUFiles) { set(&f.NodeAttributes, "1,2\n") }, "T_node_attributes.txt: 1 lines, but T_graph_indicator.txt has 5 nodes"},
		{"non-integer label", func(f *TUFiles) { set(&f.GraphLabels, "1\nb\n") }, "T_graph_labels.txt:2: \"b\" is not an integer"},
		{"blank line inside", func(f *TUFiles) { set(&f.GraphIndicator, "1\n1\n\n1\n2\n2\n") }, "T_graph_indicator.txt:3: blank line inside the file"},
		{"missing required", func(f *TUFiles) { f.A = nil }, "T: the A, graph indicator and graph labels files are required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := tinyTU()
			c.edit(&files)
			_, err := ReadTU(files, "T")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got error %v, want prefix %q", err, c.want)
			}
		})
	}
}

func FuzzReadTU(f *testing.F) {
	f.Add([]byte("2, 1\n1, 2\n2, 3\n3, 2\n4, 5\n5, 4\n"), []byte("1\n1\n1\n2\n2\n"), []byte("1\n-1\n"),
		[]byte("0\n1\n2\n3\n4\n"), []byte("7\n7\n8\n8\n9\n9\n"), []byte("1,2\n3,4\n5,6\n7,8\n9,10\n"))
	f.Add([]byte("1,3\n3,1\n"), []byte("1\n2\n1\n"), []byte("5\n6\n"), []byte{}, []byte{}, []byte{})
	f.Add([]byte("1, 2\n"), []byte("1\n1\n"), []byte("0\n"), []byte("x\n"), []byte("1\n"), []byte("1\n"))
	f.Fuzz(func(t *testing.T, a, indicator, labels, nodeLabels, edgeLabels, attrs []byte) {
		files := TUFiles{A: bytes.NewReader(a), GraphIndicator: bytes.NewReader(indicator), GraphLabels: bytes.NewReader(labels)}
		if len(nodeLabels) > 0 {
			files.NodeLabels = bytes.NewReader(nodeLabels)
		}
		if len(edgeLabels) > 0 {
			files.EdgeLabels = bytes.NewReader(edgeLabels)
		}
		if len(attrs) > 0 {
			files.NodeAttributes = bytes.NewReader(attrs)
		}
		graphs, err := ReadTU(files, "F")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "F") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		edges := 0
		for _, g := range graphs {
			n := len(bytes.Fields(indicator)) // an upper bound on the nodes of any graph
			if g.NodeLabels != nil {
				n = len(g.NodeLabels)
			}
			for _, e := range g.Edges {
				if e[0] < 0 || e[0] >= e[1] || e[1] >= n {
					t.Fatalf("bad edge %v in a graph of at most %d nodes", e, n)
				}
			}
			if files.EdgeLabels != nil && len(g.EdgeLabels) != len(g.Edges) {
				t.Fatalf("%d edge labels for %d edges", len(g.EdgeLabels), len(g.Edges))
			}
			edges += len(g.Edges)
		}
		if 2*edges != len(bytes.Fields(bytes.ReplaceAll(a, []byte(","), []byte(" "))))/2 {
			t.Fatalf("%d undirected edges from an A file of %q", edges, a)
		}
	})
}
