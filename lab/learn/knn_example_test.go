package learn_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/learn"
)

// The deck's experiment 1 in miniature: two noisy classes in the plane, K tuned on a hold-out,
// then the fraction of positive neighbours scored by ROC-AUC.
func ExampleTuneKNN() {
	rng := rand.New(rand.NewPCG(1, 2))
	sample := func(n int) (*mat.Dense, []float64) {
		x, y := mat.NewDense(n, 2, nil), make([]float64, n)
		for i := range n {
			y[i] = float64(i % 2) // class 1 is centred at (1.5, 1.5), class 0 at the origin
			x.Set(i, 0, 1.5*y[i]+rng.NormFloat64())
			x.Set(i, 1, 1.5*y[i]+rng.NormFloat64())
		}
		return x, y
	}
	xTrain, yTrain := sample(200)
	xVal, yVal := sample(100)
	xTest, yTest := sample(100)

	tuning, err := learn.TuneKNN(xTrain, yTrain, xVal, yVal, []int{1, 3, 5, 9, 15, 25})
	if err != nil {
		fmt.Println(err)
		return
	}
	scores, err := tuning.Model.Scores(xTest, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	auc, err := learn.ROCAUC(yTest, scores, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("K chosen on the hold-out: %d (accuracy %.2f; 1-NN: %.2f)\n", tuning.K, tuning.Accuracy[len(tuning.Ks)-1], tuning.Accuracy[0])
	fmt.Printf("test ROC-AUC: %.3f\n", auc)
	// Output:
	// K chosen on the hold-out: 25 (accuracy 0.87; 1-NN: 0.82)
	// test ROC-AUC: 0.919
}

// Matching three workers to three jobs at the least total cost.
func ExampleAssignment() {
	cost := mat.NewDense(3, 3, []float64{
		8, 4, 7,
		5, 2, 3,
		9, 4, 8,
	})
	jobs, total, err := learn.Assignment(cost)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("jobs:", jobs, "total:", total)
	// Output: jobs: [0 2 1] total: 15
}
