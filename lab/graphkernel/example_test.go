package graphkernel_test

import (
	"fmt"

	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/graphkernel"
)

// The shortest-path kernel between a labelled path a–b–a and a triangle a, a, b: each graph has six
// ordered node pairs, and the kernel counts the pairs of pairs with equal end labels and equal
// shortest-path length.
func ExampleNewShortestPath() {
	const a, b = 1, 2
	graphs := []format.Graph{
		{NodeLabels: []int{a, b, a}, Edges: [][2]int{{0, 1}, {1, 2}}},
		{NodeLabels: []int{a, a, b}, Edges: [][2]int{{0, 1}, {0, 2}, {1, 2}}},
	}
	h, _ := graphkernel.PathHistogram(graphs[0])
	for i, p := range h.Paths {
		fmt.Printf("path: labels %d→%d, length %d, %g pairs\n", p.Start, p.End, p.Length, h.Counts[i])
	}
	plain, _ := graphkernel.NewShortestPath(graphs, graphkernel.Options{})
	norm, _ := graphkernel.NewShortestPath(graphs, graphkernel.Options{Normalise: true})
	fmt.Printf("k = %g, normalised %.4f\n", plain.Eval(0, 1), norm.Eval(0, 1))
	_, err := graphkernel.PathHistogram(format.Graph{NodeLabels: []int{a, b}, Edges: [][2]int{{0, 2}}})
	fmt.Println(err)
	// Output:
	// path: labels 1→1, length 2, 2 pairs
	// path: labels 1→2, length 1, 2 pairs
	// path: labels 2→1, length 1, 2 pairs
	// k = 8, normalised 0.6667
	// graphkernel: PathHistogram: edge 0 (0, 2) touches a node outside 0..1
}
