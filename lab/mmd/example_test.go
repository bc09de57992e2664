package mmd_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/graphkernel"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/mmd"
)

// The three-sample problem of thesis §4.6 on vectors: X and W from N(0, 1), Z from N(1, 1), 2000
// points each, stored as the rows of one matrix; the samples are index ranges into it. Every
// estimator attributes W to P_X; the approximations are compared with the exact MMD² on (X, Z).
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2000
	data := mat.NewDense(3*n, 1, nil)
	for i := range 3 * n {
		shift := 0.0
		if i >= n && i < 2*n {
			shift = 1
		}
		data.Set(i, 0, shift+rng.NormFloat64())
	}
	k, _ := kernel.NewGaussian(1)
	points, _ := mmd.NewVectors(k, data)
	x, z, w := indices(0, n), indices(n, 2*n), indices(2*n, 3*n)
	ctx := context.Background()
	exact, _ := mmd.Exact{}.MMD2(ctx, nil, points, x, z)
	fmt.Printf("exact MMD²(X, Z) = %.3f\n", exact)
	for _, est := range []mmd.Estimator{mmd.Exact{}, mmd.Linear{}, mmd.Block{}, mmd.RFF{}, mmd.Nystrom{Lambda: 1e-3}} {
		d, err := mmd.ThreeSample(ctx, rand.New(rand.NewPCG(3, 4)), est, points, x, z, w)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-7s W from P_X: %v\n", est.Name(), d.FromX())
	}
	// Output:
	// exact MMD²(X, Z) = 0.172
	// exact   W from P_X: true
	// linear  W from P_X: true
	// block   W from P_X: true
	// rff     W from P_X: true
	// nystrom W from P_X: true
}

// MMD between sets of graphs: the shortest-path kernel's graphkernel.ShortestPath is a set of
// Points like any other, so Exact, Linear, Block and Nystrom work on it; RFF does not exist for
// graphs and says so.
func Example_graphs() {
	path := format.Graph{NodeLabels: []int{1, 2, 1}, Edges: [][2]int{{0, 1}, {1, 2}}}
	triangle := format.Graph{NodeLabels: []int{1, 1, 2}, Edges: [][2]int{{0, 1}, {0, 2}, {1, 2}}}
	star := format.Graph{NodeLabels: []int{2, 1, 1, 1}, Edges: [][2]int{{0, 1}, {0, 2}, {0, 3}}}
	graphs, _ := graphkernel.NewShortestPath([]format.Graph{path, triangle, star}, graphkernel.Options{Normalise: true})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	x, z := []int{0, 1}, []int{1, 2}
	exact, _ := mmd.Exact{}.MMD2(ctx, nil, graphs, x, z)
	all, _ := mmd.Nystrom{Landmarks: 4}.MMD2(ctx, rng, graphs, x, z)
	fmt.Printf("exact %.4f, Nyström with every point as a landmark %.4f\n", exact, all)
	_, err := mmd.RFF{}.MMD2(ctx, rng, graphs, x, z)
	fmt.Println(err != nil)
	// Output:
	// exact 0.0286, Nyström with every point as a landmark 0.0286
	// true
}

// indices returns lo, lo+1, ..., hi-1.
func indices(lo, hi int) []int {
	idx := make([]int, hi-lo)
	for i := range idx {
		idx[i] = lo + i
	}
	return idx
}
