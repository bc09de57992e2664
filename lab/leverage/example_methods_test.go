package leverage_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/leverage"
)

// smallSquare is n points of the unit square drawn by rng.
func smallSquare(rng *rand.Rand, n int) *mat.Dense {
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, rng.Float64())
	}
	return x
}

// Exact ridge leverage scores l_i = (K(K + nλI)⁻¹)_ii and their sum, the effective dimension.
func ExampleExact() {
	x := smallSquare(rand.New(rand.NewPCG(3, 4)), 200)
	k, _ := kernel.NewGaussian(0.3)
	scores, deff, err := leverage.Exact(k, x, 0.01, leverage.ExactOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var sum float64
	for _, l := range scores {
		sum += l
	}
	fmt.Printf("d_eff = %.2f = Σ l_i = %.2f\n", deff, sum)
	// Output:
	// d_eff = 28.94 = Σ l_i = 28.94
}

// DAC-RLS (Algorithm 2) splits the points into random blocks of about √n and scores each point
// within its block only: cheap, and never below the exact score (Corollary 1).
func ExampleDAC() {
	rng := rand.New(rand.NewPCG(3, 4))
	x := smallSquare(rng, 200)
	k, _ := kernel.NewGaussian(0.3)
	exact, _, _ := leverage.Exact(k, x, 0.01, leverage.ExactOptions{})
	dac, err := leverage.DAC(rng, k, x, 0.01, leverage.DACOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	above := 0
	for i := range dac {
		if dac[i] >= exact[i] {
			above++
		}
	}
	fmt.Printf("DAC ≥ exact for %d of %d points\n", above, len(dac))
	// Output:
	// DAC ≥ exact for 200 of 200 points
}
