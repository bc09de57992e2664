package learn

import (
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
)

// denseCopy checks that m is a non-nil, non-empty matrix of finite values and returns a copy of
// it, so a fitted model never shares memory with its caller's data. op and name say where a
// failure happened ("KMeans", "X").
func denseCopy(op, name string, m mat.Matrix) (*mat.Dense, error) {
	return matcheck.DenseCopy("learn: "+op, name, m)
}

// checkFinite returns an error naming the first NaN or ±Inf of v.
func checkFinite(op, name string, v []float64) error {
	return matcheck.FiniteVector("learn: "+op, name, v)
}
