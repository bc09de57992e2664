package matcheck_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
)

func ExampleDense() {
	x := mat.NewDense(2, 2, []float64{1, 2, math.Inf(1), 4})
	if _, err := matcheck.Dense("lowrank: Nystrom.Fit", "X", x); err != nil {
		fmt.Println(err)
	}
	// Output: lowrank: Nystrom.Fit: X[1,0] = +Inf, want finite values
}
