package forest_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/forest"
)

// Pruning a 50-tree regression forest with OMP (thesis chapter 6): the per-tree predictions on
// held-out data are the dictionary, one OMP run gives every pruned size, and the pruned forest
// predicts on new data with its kept trees only.
func ExamplePruneOMP() {
	rng := rand.New(rand.NewPCG(1, 2))
	sample := func(n int) (*mat.Dense, []float64) {
		X := mat.NewDense(n, 2, nil)
		y := make([]float64, n)
		for i := range n {
			a, b := rng.Float64(), rng.Float64()
			X.SetRow(i, []float64{a, b})
			y[i] = math.Sin(2*math.Pi*a) + b + 0.1*rng.NormFloat64()
		}
		return X, y
	}
	Xtrain, ytrain := sample(300)
	Xprune, yprune := sample(200)
	Xtest, ytest := sample(200)
	f, err := forest.Fit(rng, forest.Regression, Xtrain, ytrain, forest.Options{Trees: 50})
	if err != nil {
		fmt.Println(err)
		return
	}
	P, _ := f.TreePredictions(Xprune)
	pruning, err := forest.PruneOMP(P, yprune, []int{2, 5, 10}, forest.PruneOptions{Task: forest.Regression})
	if err != nil {
		fmt.Println(err)
		return
	}
	mse := func(pred []float64) float64 {
		var s float64
		for i, v := range pred {
			s += (v - ytest[i]) * (v - ytest[i])
		}
		return s / float64(len(pred))
	}
	full, _ := f.Predict(Xtest)
	fmt.Printf("full forest (50 trees): test MSE %.3f\n", mse(full))
	for k, m := range pruning.Sizes {
		pf, _ := forest.NewPrunedForest(f, pruning.Selections[k])
		pred, _ := pf.Predict(Xtest)
		fmt.Printf("OMP, %2d trees: test MSE %.3f\n", m, mse(pred))
	}
	// Output:
	// full forest (50 trees): test MSE 0.018
	// OMP,  2 trees: test MSE 0.026
	// OMP,  5 trees: test MSE 0.019
	// OMP, 10 trees: test MSE 0.019
}
