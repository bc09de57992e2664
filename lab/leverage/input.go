package leverage

import (
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// checkInputs validates the arguments shared by the score methods and returns X as a *mat.Dense
// (X itself when it is one, a copy otherwise): a non-nil kernel, a non-empty finite X and a finite
// λ > 0.
func checkInputs(op string, k kernel.Kernel, X mat.Matrix, lambda float64) (*mat.Dense, error) {
	if err := checkKernel(op, k); err != nil {
		return nil, err
	}
	if err := checkRidge(op, lambda); err != nil {
		return nil, err
	}
	return finiteDense(op, X)
}

// checkKernel rejects a nil kernel, including a nil pointer in the interface.
func checkKernel(op string, k kernel.Kernel) error {
	if k == nil {
		return fmt.Errorf("leverage: %s: nil kernel", op)
	}
	if v := reflect.ValueOf(k); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("leverage: %s: nil kernel %T", op, k)
	}
	return nil
}

// checkRidge rejects a ridge that is not finite and positive.
func checkRidge(op string, lambda float64) error {
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return fmt.Errorf("leverage: %s: λ = %g, want a finite value > 0", op, lambda)
	}
	return nil
}

// finiteDense returns X as a *mat.Dense (X itself when it is one, a copy otherwise) after checking
// that it is non-nil, non-empty and finite.
func finiteDense(op string, X mat.Matrix) (*mat.Dense, error) {
	return matcheck.Dense("leverage: "+op, "X", X)
}

// gatherRows copies the rows idx of X into dst, an len(idx)×d matrix.
func gatherRows(dst *mat.Dense, X *mat.Dense, idx []int) {
	for r, i := range idx {
		copy(dst.RawRowView(r), X.RawRowView(i))
	}
}
