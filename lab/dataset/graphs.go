package dataset

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// GraphSet is a labelled graph-classification data set.
type GraphSet struct {
	Name   string
	Graphs []format.Graph
	Labels []int // graph labels as in the file (MUTAG and PTC_MR: 1 / -1; ENZYMES: 1..6)
}

// graphPrefixes maps the graph sets to the prefix of their TU-Dortmund file names.
var graphPrefixes = map[string]string{"mutag": "MUTAG", "ptc_mr": "PTC_MR", "enzymes": "ENZYMES"}

// Graphs loads a TU-Dortmund graph set (mutag, ptc_mr, enzymes) with the node labels, edge
// labels and node attributes the set has.
func (s Source) Graphs(ctx context.Context, name string) (*GraphSet, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	prefix, ok := graphPrefixes[name]
	if !ok {
		return nil, fmt.Errorf("dataset %s is not a graph set (graph sets: enzymes, mutag, ptc_mr)", name)
	}
	var files format.TUFiles
	targets := []struct {
		suffix string
		dst    *io.Reader
	}{
		{"_A.txt", &files.A}, {"_graph_indicator.txt", &files.GraphIndicator}, {"_graph_labels.txt", &files.GraphLabels},
		{"_node_labels.txt", &files.NodeLabels}, {"_edge_labels.txt", &files.EdgeLabels},
		{"_node_attributes.txt.gz", &files.NodeAttributes},
	}
	for _, t := range targets {
		file := prefix + t.suffix
		if _, err := spec.File(file); err != nil {
			continue // the set has no such file; required ones are checked by format.ReadTU
		}
		rc, err := s.openSpec(ctx, spec, file)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		*t.dst = ctxReader{ctx: ctx, r: rc}
	}
	graphs, err := format.ReadTU(files, strings.ToUpper(prefix))
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	labels := make([]int, len(graphs))
	for i, g := range graphs {
		labels[i] = g.Label
	}
	return &GraphSet{Name: name, Graphs: graphs, Labels: labels}, nil
}
