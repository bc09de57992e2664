package learn_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/learn"
)

// XOR is not linearly separable, but a Gaussian-kernel SVM separates it: the four corners of the
// square, labelled by whether their coordinates agree, are all support vectors, on the margin.
func ExampleFitSVM() {
	x := mat.NewDense(4, 2, []float64{
		1, 1,
		-1, -1,
		1, -1,
		-1, 1,
	})
	y := []float64{1, 1, 0, 0} // any two label values: the larger one is the positive class
	gauss, err := kernel.NewGaussian(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	model, err := learn.FitSVM(gauss, x, y, learn.SVMOptions{C: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	test := mat.NewDense(4, 2, []float64{
		0.8, 0.9,
		-1.2, -0.7,
		0.9, -1.1,
		-0.6, 1.3,
	})
	labels, err := model.Predict(test)
	if err != nil {
		fmt.Println(err)
		return
	}
	scores, err := model.Decision(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("labels:", labels)
	fmt.Printf("f on the training corners: %.3f\n", scores)
	fmt.Println("support vectors:", model.NumSupportVectors(), "converged:", model.Converged())
	// Output:
	// labels: [1 1 0 0]
	// f on the training corners: [1.000 1.000 -1.000 -1.000]
	// support vectors: 4 converged: true
}
