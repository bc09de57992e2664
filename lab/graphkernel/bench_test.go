package graphkernel

import "testing"

// BenchmarkMUTAGGram is the whole shortest-path pipeline on MUTAG (188 graphs): all-pairs shortest
// paths, histograms and the normalised 188×188 Gram matrix.
func BenchmarkMUTAGGram(b *testing.B) {
	set := mutag(b)
	b.ResetTimer()
	for range b.N {
		k, err := NewShortestPath(set.Graphs, Options{Normalise: true})
		if err != nil {
			b.Fatal(err)
		}
		k.Gram()
	}
}
