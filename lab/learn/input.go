package learn

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
)

// denseCopy checks that m is a non-nil, non-empty matrix of finite values and returns a copy of
// it, so a fitted model never shares memory with its caller's data. op and name say where a
// failure happened ("KMeans", "X").
func denseCopy(op, name string, m mat.Matrix) (*mat.Dense, error) {
	return matcheck.DenseCopy("learn: "+op, name, m)
}

// finiteOutput returns an error when a computed result v holds a NaN or ±Inf: the inputs were
// finite but too large for the computation (an overflow), which the caller should rescale.
func finiteOutput(op, what string, v []float64) error {
	for i, x := range v {
		if x-x != 0 {
			return fmt.Errorf("learn: %s: %s[%d] = %g: the computation overflows on these inputs; rescale them", op, what, i, x)
		}
	}
	return nil
}

// checkFinite returns an error naming the first NaN or ±Inf of v.
func checkFinite(op, name string, v []float64) error {
	return matcheck.FiniteVector("learn: "+op, name, v)
}
