package forest_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/forest"
)

// A 20-tree regression forest on y = sin(2πx) sampled at 200 points (exact values 0.71, 0 and
// −1 at the test points), its predictions, and the matrix of per-tree predictions that forest
// pruning (chapter 6) works on.
func Example() {
	const n = 200
	X := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := range n {
		x := float64(i) / n
		X.Set(i, 0, x)
		y[i] = math.Sin(2 * math.Pi * x)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	f, err := forest.Fit(rng, forest.Regression, X, y, forest.Options{Trees: 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	test := mat.NewDense(3, 1, []float64{0.125, 0.5, 0.75})
	pred, _ := f.Predict(test)
	fmt.Printf("predictions at x = 0.125, 0.5, 0.75: %.2f\n", pred)

	P, _ := f.TreePredictions(test)
	rows, cols := P.Dims()
	fmt.Printf("per-tree predictions: %d×%d; tree 0 has %d leaves\n", rows, cols, f.Tree(0).Leaves())
	// Output:
	// predictions at x = 0.125, 0.5, 0.75: [0.70 0.01 -1.00]
	// per-tree predictions: 3×20; tree 0 has 131 leaves
}
