package lowrank_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// points returns n seeded points of the unit square.
func points(n int) *mat.Dense {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, rng.Float64())
	}
	return x
}

// Nyström on 30 uniform landmarks, rank 10: the features Φ (n×10) give K̂ = ΦΦᵀ, and the error is
// measured against the exact Gram matrix without forming it.
func ExampleFitNystrom() {
	x := points(500)
	k, _ := kernel.NewGaussian(0.5)
	rng := rand.New(rand.NewPCG(3, 4))
	landmarks, _ := lowrank.UniformLandmarks(rng, 500, 30)
	ny, err := lowrank.FitNystrom(k, x, landmarks, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	phi, _ := ny.Transform(x)
	rel, _ := lowrank.RelativeFrobeniusError(k, x, phi, nil)
	r, c := phi.Dims()
	fmt.Printf("features %d×%d, relative Frobenius error %.0e\n", r, c, rel)
	_, err = lowrank.FitNystrom(k, x, landmarks, 31)
	fmt.Println(err)
	// Output:
	// features 500×10, relative Frobenius error 2e-03
	// lowrank: Nystrom.Fit: rank 31 with 30 landmarks, want 0 ≤ rank ≤ |S| (0 = |S|)
}

// Random Fourier features for the Gaussian kernel: Φ(x)·Φ(z) estimates k(x, z) to about 1/√D.
func ExampleNewRFFGaussian() {
	x := points(2)
	k, _ := kernel.NewGaussian(0.5)
	rff, _ := lowrank.NewRFFGaussian(rand.New(rand.NewPCG(5, 6)), 2, 20000, 0.5)
	phi, _ := rff.Transform(x)
	fmt.Printf("exact %.2f, estimate %.2f\n", k.Eval(x.RawRowView(0), x.RawRowView(1)), mat.Dot(phi.RowView(0), phi.RowView(1)))
	// Output:
	// exact 0.94, estimate 0.95
}

// MEKA on four clusters (here the quadrants of the square; k-means in practice), rank 10 each.
func ExampleFitMEKA() {
	x := points(400)
	clusters := make([]int, 400)
	for i := range clusters {
		if x.At(i, 0) > 0.5 {
			clusters[i]++
		}
		if x.At(i, 1) > 0.5 {
			clusters[i] += 2
		}
	}
	k, _ := kernel.NewGaussian(0.2)
	m, err := lowrank.FitMEKA(rand.New(rand.NewPCG(7, 8)), k, x, clusters, 10, lowrank.MEKAOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rel, _ := m.RelativeFrobeniusError(x, nil)
	w, l := m.Factors()
	_, r := w.Dims()
	fmt.Printf("W is 400×%d, L is %d×%d, relative Frobenius error %.2f\n", r, l.SymmetricDim(), l.SymmetricDim(), rel)
	// Output:
	// W is 400×40, L is 40×40, relative Frobenius error 0.07
}

// A feature map is fixed by its frequencies and phases: read them back and give them to NewRFF to
// reuse the draw (as with scikit-learn's RBFSampler.random_weights_ and random_offset_), or
// give frequencies drawn elsewhere.
func ExampleNewRFF() {
	drawn, _ := lowrank.NewRFFGaussian(rand.New(rand.NewPCG(5, 6)), 2, 100, 0.5)
	again, err := lowrank.NewRFF(drawn.Frequencies(), drawn.Phases())
	if err != nil {
		fmt.Println(err)
		return
	}
	x := points(3)
	a, _ := drawn.Transform(x)
	b, _ := again.Transform(x)
	r, c := drawn.Frequencies().Dims()
	fmt.Printf("frequencies %d×%d, %d phases, same features: %v\n", r, c, len(drawn.Phases()), mat.Equal(a, b))
	// Output: frequencies 2×100, 100 phases, same features: true
}
