package mmd

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/graphkernel"
)

// randomGraphs draws n labelled graphs of 6 to 15 nodes with edge probability p.
func randomGraphs(rng *rand.Rand, n int, p float64) []format.Graph {
	graphs := make([]format.Graph, n)
	for g := range graphs {
		nodes := 6 + rng.IntN(10)
		graphs[g].NodeLabels = make([]int, nodes)
		for u := range nodes {
			graphs[g].NodeLabels[u] = rng.IntN(3)
			for v := u + 1; v < nodes; v++ {
				if rng.Float64() < p {
					graphs[g].Edges = append(graphs[g].Edges, [2]int{u, v})
				}
			}
		}
	}
	return graphs
}

// TestGraphs runs the estimators on graphs through the shortest-path kernel: exact MMD against the
// brute-force sums of kernel values, Nyström with all landmarks equal to it, RFF refused, and the
// three-sample decision between sparse and dense random graphs.
func TestGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	graphs := append(randomGraphs(rng, 40, 0.15), randomGraphs(rng, 20, 0.4)...) // X, W sparse; Z dense
	sp, err := graphkernel.NewShortestPath(graphs, graphkernel.Options{Normalise: true})
	if err != nil {
		t.Fatal(err)
	}
	x, w, z := span(0, 20), span(20, 40), span(40, 60)
	ctx := context.Background()
	exact, err := Exact{}.MMD2(ctx, nil, sp, x, z)
	if err != nil {
		t.Fatal(err)
	}
	if want := bruteMMD2(sp.Eval, x, z); !near(exact, want, 1e-13) {
		t.Errorf("exact MMD² on graphs = %.15g, brute force %.15g", exact, want)
	}
	ny, err := Nystrom{Landmarks: 40}.MMD2(ctx, rand.New(rand.NewPCG(3, 4)), sp, x, z)
	if err != nil || !near(ny, exact, 1e-9) {
		t.Errorf("Nyström with all landmarks on graphs = %.12g, %v; exact %.12g", ny, err, exact)
	}
	_, err = RFF{}.MMD2(ctx, rand.New(rand.NewPCG(3, 4)), sp, x, z)
	if err == nil || !strings.Contains(err.Error(), "*graphkernel.ShortestPath") || !strings.Contains(err.Error(), "shift-invariant") {
		t.Errorf("RFF on graphs: error %v", err)
	}
	for _, est := range []Estimator{Exact{}, Block{Size: 5}, Nystrom{Landmarks: 6, Lambda: 1e-3}} {
		d, err := ThreeSample(ctx, rand.New(rand.NewPCG(5, 6)), est, sp, x, z, w)
		if err != nil {
			t.Fatal(err)
		}
		if !d.FromX() {
			t.Errorf("%s on graphs: D(X, W) = %g > D(Z, W) = %g", est.Name(), d.XW, d.ZW)
		}
	}
}
