package factor_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

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
