package learn_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/learn"
)

// Two groups of points on a line: k-means with k = 2 finds them.
func ExampleKMeans() {
	x := mat.NewDense(6, 1, []float64{0, 0.5, 1, 10, 10.5, 11})
	res, err := learn.KMeans(rand.New(rand.NewPCG(1, 2)), x, 2, learn.KMeansOptions{NInit: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("same cluster:", res.Labels[0] == res.Labels[2], res.Labels[3] == res.Labels[5])
	fmt.Println("different clusters:", res.Labels[0] != res.Labels[3])
	fmt.Printf("inertia: %.2f\n", res.Inertia)
	// Output:
	// same cluster: true true
	// different clusters: true
	// inertia: 1.00
}

// Kernel ridge regression with a Gaussian kernel learns sin on [0, 2π] from 20 samples; by the
// representer theorem the model is a(x) = Σ α_i k(x, x_i).
func ExampleFitKRR() {
	const n = 20
	x := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := range n {
		t := 2 * math.Pi * float64(i) / (n - 1)
		x.Set(i, 0, t)
		y[i] = math.Sin(t)
	}
	gauss, err := kernel.NewGaussian(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	model, err := learn.FitKRR(gauss, x, y, 1e-3)
	if err != nil {
		fmt.Println(err)
		return
	}
	test := mat.NewDense(3, 1, []float64{math.Pi / 2, math.Pi, 1.5 * math.Pi})
	pred, err := model.Predict(test)
	if err != nil {
		fmt.Println(err)
		return
	}
	mse, err := learn.MSE([]float64{1, 0, -1}, pred)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("a(π/2) = %.2f, a(3π/2) = %.2f, MSE < 1e-3: %v, %d coefficients\n",
		pred[0], pred[2], mse < 1e-3, len(model.Coefficients()))
	// Output:
	// a(π/2) = 1.00, a(3π/2) = -1.00, MSE < 1e-3: true, 20 coefficients
}

// Accuracy compares class codes exactly.
func ExampleAccuracy() {
	acc, err := learn.Accuracy([]float64{1, -1, 1, -1}, []float64{1, -1, -1, -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(acc)
	// Output: 0.75
}
