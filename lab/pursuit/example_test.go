package pursuit_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/pursuit"
)

// A 2-sparse signal in a random 256×512 dictionary of unit-norm Gaussian atoms: the coherence
// gives the recovery condition m < (1/μ + 1)/2, i.e. m ≤ m* = 2, OMP recovers the support and
// the coefficients in two steps, and Frank-Wolfe with the line search (radius β = 8‖α*‖₁, as in
// §5.4) converges far faster than Theorem 5's bound.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	dict, err := pursuit.NewGaussianDictionary(rng, 256, 512)
	if err != nil {
		fmt.Println(err)
		return
	}
	inc, _ := pursuit.MeasureIncoherence(dict, 2)
	mStar, _ := pursuit.RecoverySparsity(inc.Coherence)
	fmt.Printf("μ(D) = %.2f, m* = %d\n", inc.Coherence, mStar)

	// y = 1.5·d₁₀ − 2·d₂₀₀.
	y := make([]float64, 256)
	atom := make([]float64, 256)
	support := map[int]float64{10: 1.5, 200: -2}
	l1 := 0.0
	for j, c := range support {
		_ = dict.Atom(atom, j)
		for i := range y {
			y[i] += c * atom[i]
		}
		l1 += math.Abs(c)
	}

	omp, _ := pursuit.OrthogonalMatchingPursuit(dict, y, pursuit.Options{Tolerance: 1e-12})
	fmt.Printf("OMP: atoms %v, coefficients %.3f, stopped by: %v\n", omp.Atoms, omp.Coefficients, omp.Stop)

	fw, _ := pursuit.FrankWolfe(dict, y, 8*l1, pursuit.StepLineSearch, pursuit.Options{MaxIterations: 100})
	babel, exact := inc.Babel(1) // μ₁(D, m−1) for m = 2
	theta, _ := pursuit.FrankWolfeRate(babel, 2, l1, 8*l1)
	k := firstBelow(fw.ResidualNorms(), 1e-8*fw.SignalNorm)
	bound, _ := pursuit.ResidualBound(1, theta, k)
	fmt.Printf("FW: atoms %v, ‖r_k‖/‖y‖ < 1e-8 from k = %d, where Theorem 5 bounds it by %.2f (exact Babel: %v)\n",
		fw.Atoms, k, bound, exact)
	// Output:
	// μ(D) = 0.28, m* = 2
	// OMP: atoms [200 10], coefficients [-2.000 1.500], stopped by: residual tolerance reached
	// FW: atoms [200 10], ‖r_k‖/‖y‖ < 1e-8 from k = 9, where Theorem 5 bounds it by 0.92 (exact Babel: true)
}

// firstBelow returns the first k with norms[k] < level.
func firstBelow(norms []float64, level float64) int {
	for k, v := range norms {
		if v < level {
			return k
		}
	}
	return -1
}
