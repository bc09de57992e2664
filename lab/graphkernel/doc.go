// Package graphkernel provides kernels on labelled graphs, for kernel methods whose points are
// graphs (the MUTAG experiment of thesis §4.6, and MMD between sets of molecules).
//
// The shortest-path kernel of Borgwardt and Kriegel (2005) compares two graphs through their
// shortest paths: every ordered pair of distinct nodes (u, v) joined by a path gives a triple
// (label of u, label of v, length of the shortest u–v path, in edges), and the kernel counts the
// pairs of such triples that are equal, one from each graph. With the delta kernel on labels and
// lengths this sum is the inner product of the two graphs' histograms of triples:
//
//	k(G, G') = Σ_t φ_t(G) φ_t(G'),  φ_t(G) = #{(u, v) : u ≠ v, triple(u, v) = t},
//
// which is how it is computed here: the all-pairs shortest paths of each graph (a breadth-first
// search from every node, the graphs being unweighted), one sparse histogram per graph, and
// merges of sorted histograms for the kernel values. The normalised kernel
// k(G, G')/√(k(G, G) k(G', G')) is the inner product of the histograms scaled to unit length.
//
// Conventions, for comparison with other implementations: ordered pairs, so a path between
// nodes labelled a and b counts once as (a, b, ℓ) and once as (b, a, ℓ), as in GraKeL's
// shortest_path (Shervashidze's MATLAB spkernel counts unordered pairs with sorted labels and
// adds the node itself at length 0); unreachable pairs are ignored; edge labels and node
// attributes are not used; graphs without node labels have every label 0.
//
// [ShortestPath] holds the histograms of a list of graphs and serves kernel values by index: its
// Len and Block methods make it a set of points for the estimators of package lab/mmd, and Gram
// gives the whole kernel matrix (MUTAG's 188 graphs: histograms and Gram matrix in about 10 ms
// on two cores). Bad input (an edge to a node that does not exist, label and attribute counts
// that disagree) gives an error, never a panic.
package graphkernel
