package kernel_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/kernel"
	"gonum.org/v1/gonum/mat"
)

// The thesis' recipe: bandwidth from the mean squared distance, then the Gram matrix and a
// cross-kernel against two landmarks.
func Example() {
	X := mat.NewDense(3, 2, []float64{
		0, 0,
		1, 0,
		0, 2,
	})
	sigma2, err := kernel.MeanSquaredDistance(X)
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := kernel.NewGaussian(math.Sqrt(sigma2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ² = %.4f, γ = %.4f\n", sigma2, k.Gamma())
	K, err := kernel.Gram(k, X)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("K =\n%.4f\n", mat.Formatted(K))
	C, err := kernel.Cross(k, X, X.Slice(0, 2, 0, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("C =\n%.4f\n", mat.Formatted(C))
	// Output:
	// σ² = 2.2222, γ = 0.2250
	// K =
	// ⎡1.0000  0.7985  0.4066⎤
	// ⎢0.7985  1.0000  0.3247⎥
	// ⎣0.4066  0.3247  1.0000⎦
	// C =
	// ⎡1.0000  0.7985⎤
	// ⎢0.7985  1.0000⎥
	// ⎣0.4066  0.3247⎦
}

func ExampleExpNonPositive() {
	src := []float64{0, -1, -745.2, math.Inf(-1)}
	dst := make([]float64, len(src))
	kernel.ExpNonPositive(dst, src)
	fmt.Printf("%.15f %.15f %g %g\n", dst[0], dst[1], dst[2], dst[3])
	// Output: 1.000000000000000 0.367879441171442 0 0
}

func ExampleMedianHeuristic() {
	rng := rand.New(rand.NewPCG(1, 2)) // used only above kernel.MedianSubsample rows
	X := mat.NewDense(4, 1, []float64{0, 1, 3, 7})
	sigma, err := kernel.MedianHeuristic(rng, X)
	fmt.Println(sigma, err)
	// Output: 3.5 <nil>
}

func ExampleThesisRidge() {
	lambda, err := kernel.ThesisRidge(mat.NewDense(2, 2, []float64{3, 4, 0, 0}))
	fmt.Println(lambda, err)
	// Output: 0.4 <nil>
}
