package graphkernel

import (
	"math"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// must returns v, panicking on err (tests only: the histograms compared are valid).
func must(v float64, err error) float64 {
	if err != nil {
		panic(err)
	}
	return v
}

// Regression tests for issue 16.

// TestHistogramDotInvalid: two paths with one count indexed out of range.
func TestHistogramDotInvalid(t *testing.T) {
	good := Histogram{Paths: []Triple{{0, 0, 1}, {0, 1, 1}}, Counts: []float64{2, 3}}
	for _, c := range []struct {
		name string
		h    Histogram
	}{
		{"counts short", Histogram{Paths: good.Paths, Counts: []float64{1}}},
		{"unsorted", Histogram{Paths: []Triple{{0, 1, 1}, {0, 0, 1}}, Counts: []float64{1, 1}}},
		{"repeated", Histogram{Paths: []Triple{{0, 1, 1}, {0, 1, 1}}, Counts: []float64{1, 1}}},
		{"NaN count", Histogram{Paths: good.Paths, Counts: []float64{1, math.NaN()}}},
		{"negative count", Histogram{Paths: good.Paths, Counts: []float64{1, -1}}},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", c.name, r)
				}
			}()
			if v, err := c.h.Dot(good); err == nil {
				t.Errorf("%s: h.Dot = %g with a nil error", c.name, v)
			}
			if v, err := good.Dot(c.h); err == nil {
				t.Errorf("%s: good.Dot(h) = %g with a nil error", c.name, v)
			}
		}()
	}
	huge := Histogram{Paths: good.Paths, Counts: []float64{1e300, 1e300}}
	if v, err := huge.Dot(huge); err == nil {
		t.Errorf("overflow: Dot = %g with a nil error", v)
	}
	if v, err := good.Dot(good); err != nil || v != 13 {
		t.Errorf("good.Dot(good) = %g (%v), want 13", v, err)
	}
}

// TestZeroShortestPath: Gram on the zero value panicked.
func TestZeroShortestPath(t *testing.T) {
	if g := new(ShortestPath).Gram(); g != nil {
		t.Errorf("zero ShortestPath: Gram = %v, want nil", g)
	}
}

// TestHugeNodeIndex: one edge to node 200000 asked for a 960 GB block of triples.
func TestHugeNodeIndex(t *testing.T) {
	for _, node := range []int{200000, 1 << 40} {
		g := format.Graph{Edges: [][2]int{{0, node}}}
		if _, err := PathHistogram(g); err == nil {
			t.Errorf("PathHistogram with an edge to node %d: nil error", node)
		}
		if _, err := ShortestPathLengths(g); err == nil {
			t.Errorf("ShortestPathLengths with an edge to node %d: nil error", node)
		}
		if _, err := NewShortestPath([]format.Graph{g}, Options{}); err == nil {
			t.Errorf("NewShortestPath with an edge to node %d: nil error", node)
		}
	}
}
