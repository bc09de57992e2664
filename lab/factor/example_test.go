package factor_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// Points on the line y = 2x: one component carries all the variance.
func ExampleFitPCA() {
	x := mat.NewDense(3, 2, []float64{0, 0, 1, 2, 2, 4})
	pca, err := factor.FitPCA(x, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	proj, err := pca.Transform(mat.NewDense(2, 2, []float64{0, 0, 3, 6}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("direction %.3f, variance %.1f\n", mat.Col(nil, 0, pca.Components()), pca.ExplainedVariance()[0])
	fmt.Printf("projections of (0,0) and (3,6): %.3f\n", mat.Col(nil, 0, proj))
	// Output:
	// direction [0.447 0.894], variance 5.0
	// projections of (0,0) and (3,6): [-2.236 4.472]
}

// Two concentric circles are not linearly separable, but the first kernel principal component of
// a Gaussian kernel puts them on opposite sides of a threshold.
func ExampleFitKernelPCA() {
	const perCircle = 12
	x := mat.NewDense(2*perCircle, 2, nil)
	for i := range 2 * perCircle {
		r := 1.0
		if i >= perCircle {
			r = 0.3
		}
		theta := 2 * math.Pi * float64(i) / perCircle
		x.Set(i, 0, r*math.Cos(theta))
		x.Set(i, 1, r*math.Sin(theta))
	}
	gauss, err := kernel.NewGaussian(0.35)
	if err != nil {
		fmt.Println(err)
		return
	}
	kpca, err := factor.FitKernelPCA(gauss, x, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	proj, err := kpca.Transform(mat.NewDense(2, 2, []float64{1, 0, 0.3, 0})) // one point of each circle
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("outer circle %.2f, inner circle %.2f\n", proj.At(0, 0), proj.At(1, 0))
	// Output: outer circle 0.39, inner circle -0.39
}

// A 4-document × 5-word bag of words as a sparse CSR matrix: its two leading singular values by
// the randomized SVD (exact here: the rank is 3 ≤ k + p), and the number of them that carry 70%
// of the ℓ1 norm of the spectrum, the slides' rule.
func ExampleRandomizedSVD() {
	docs := []int{0, 0, 1, 1, 2, 2, 3}
	words := []int{0, 1, 0, 1, 2, 3, 4}
	counts := []float64{2, 1, 1, 2, 3, 3, 1}
	bag, err := csr.FromTriplets(4, 5, docs, words, counts)
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := factor.RandomizedSVDOptions{Oversample: 2, PowerIterations: 1}
	svd, err := factor.RandomizedSVD(rand.New(rand.NewPCG(1, 2)), bag, 2, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ = %.4f\n", svd.Values)
	fmt.Printf("leading right singular vector on words 2 and 3: %.4f\n", mat.Col(nil, 0, svd.V)[2:4])

	full, err := factor.TruncatedSVD(bag, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := factor.ComponentsForMass(full.Values, factor.SlidesSpectrumFraction)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("all σ = %.4f: keep %d\n", full.Values, k)
	// Output:
	// σ = [4.2426 3.0000]
	// leading right singular vector on words 2 and 3: [0.7071 0.7071]
	// all σ = [4.2426 3.0000 1.0000]: keep 2
}
