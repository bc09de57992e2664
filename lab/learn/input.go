package learn

import (
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// denseCopy checks that m is a non-nil, non-empty matrix of finite values and returns a copy of
// it, so a fitted model never shares memory with its caller's data. op and name say where a
// failure happened ("KMeans", "X").
func denseCopy(op, name string, m mat.Matrix) (*mat.Dense, error) {
	return matcheck.DenseCopy("learn: "+op, name, m)
}

// trainingCopy checks a training set (X n×d finite and non-empty, y n finite labels or targets)
// and returns a copy of X for the fitted model to keep.
func trainingCopy(op string, X mat.Matrix, y []float64) (*mat.Dense, error) {
	train, err := denseCopy(op, "X", X)
	if err != nil {
		return nil, err
	}
	if n, _ := train.Dims(); len(y) != n {
		return nil, laberr.Errorf(laberr.ErrShape, "learn: %s: len(y) = %d but X has %d rows", op, len(y), n)
	}
	return train, checkFinite(op, "y", y)
}

// finiteOutput returns an error when a computed result v holds a NaN or ±Inf: the inputs were
// finite but too large for the computation (an overflow), which the caller should rescale.
func finiteOutput(op, what string, v []float64) error {
	for i, x := range v {
		if x-x != 0 {
			return laberr.Errorf(laberr.ErrNonFinite, "learn: %s: %s[%d] = %g: the computation overflows on these inputs; rescale them", op, what, i, x)
		}
	}
	return nil
}

// checkFinite returns an error naming the first NaN or ±Inf of v.
func checkFinite(op, name string, v []float64) error {
	return matcheck.FiniteVector("learn: "+op, name, v)
}

// orDefault returns def when v is the zero value (an option left unset), v otherwise.
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
