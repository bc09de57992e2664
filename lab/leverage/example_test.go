package leverage_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/leverage"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// Ridge leverage scores of 400 points of the unit square: exact, DAC-RLS (every estimate at least
// the exact score) and uniform RLS (every estimate at most the exact score); then 40 landmarks drawn
// in proportion to the DAC scores for a Nyström approximation.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(400, 2, nil)
	for i := range 400 {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, rng.Float64())
	}
	k, _ := kernel.NewGaussian(0.3)
	const lambda = 0.1

	exact, deff, err := leverage.Exact(k, x, lambda, leverage.ExactOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	dac, _ := leverage.DAC(rng, k, x, lambda, leverage.DACOptions{}) // blocks of m = √n = 20
	uniform, _ := leverage.Uniform(rng, k, x, lambda, leverage.UniformOptions{Landmarks: 40})
	over, under := 0, 0
	var sumDAC, sumUniform float64
	for i := range exact {
		if dac[i] >= exact[i] {
			over++
		}
		if uniform[i] <= exact[i] {
			under++
		}
		sumDAC += dac[i]
		sumUniform += uniform[i]
	}
	fmt.Printf("d_eff = %.1f, Σ DAC = %.1f, Σ uniform RLS = %.1f\n", deff, sumDAC, sumUniform)
	fmt.Printf("DAC ≥ exact for %d of 400 points, uniform RLS ≤ exact for %d\n", over, under)

	landmarks, _ := leverage.Sample(rng, dac, 40)
	ny, _ := lowrank.FitNystrom(k, x, landmarks, 0)
	phi, _ := ny.Transform(x)
	rel, _ := lowrank.RelativeFrobeniusError(k, x, phi, nil)
	fmt.Printf("Nyström on 40 DAC landmarks: relative Frobenius error %.0e\n", rel)
	// Output:
	// d_eff = 22.7, Σ DAC = 196.8, Σ uniform RLS = 22.3
	// DAC ≥ exact for 400 of 400 points, uniform RLS ≤ exact for 400
	// Nyström on 40 DAC landmarks: relative Frobenius error 8e-04
}

// Algorithm 3: each point is kept with probability min(1, 16 l̂_i ln(Σ l̂/ρ)); the number kept is
// random and at most 32 ln(Σ l̂/ρ) Σ l̂ with probability 1 − ρ (Theorem 1).
func ExampleBernoulliSample() {
	scores := []float64{0.9, 0.5, 0.01, 0.002, 0.001, 0}
	p, _ := leverage.BernoulliProbabilities(scores, 0.1)
	fmt.Printf("p = %.3f\n", p)
	kept, _ := leverage.BernoulliSample(rand.New(rand.NewPCG(3, 4)), scores, 0.1)
	fmt.Println("kept:", kept)
	_, err := leverage.BernoulliSample(rand.New(rand.NewPCG(3, 4)), scores, 2)
	fmt.Println(err)
	// Output:
	// p = [1.000 1.000 0.424 0.085 0.042 0.000]
	// kept: [0 1]
	// leverage: BernoulliSample: ρ = 2, want a failure probability in (0, 1)
}

// DAC's random partition can be drawn apart (DACPartition) and given back (DACOptions.Blocks):
// the scores are the same as DAC's with the same generator, and a chosen partition can be studied.
func ExampleDACPartition() {
	x := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	k, _ := kernel.NewGaussian(2)
	blocks, _ := leverage.DACPartition(rand.New(rand.NewPCG(7, 8)), 10, 4)
	given, _ := leverage.DAC(nil, k, x, 0.1, leverage.DACOptions{Blocks: blocks})
	drawn, _ := leverage.DAC(rand.New(rand.NewPCG(7, 8)), k, x, 0.1, leverage.DACOptions{BlockSize: 4})
	sizes := []int{}
	for _, b := range blocks {
		sizes = append(sizes, len(b))
	}
	fmt.Println("block sizes", sizes, "- same scores:", fmt.Sprint(given) == fmt.Sprint(drawn))
	// Output: block sizes [4 3 3] - same scores: true
}
