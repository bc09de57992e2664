package factor

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// denseCopy checks that m is a non-nil, non-empty matrix of finite values and returns a copy of
// it, so a fitted model never shares memory with its caller's data. op and name say where a
// failure happened ("FitPCA", "X").
func denseCopy(op, name string, m mat.Matrix) (*mat.Dense, error) {
	return matcheck.DenseCopy("factor: "+op, name, m)
}

// finiteResult returns an error when the computed matrix r holds a NaN or ±Inf: the inputs were
// finite but too large for the computation (an overflow), which the caller should rescale.
func finiteResult(op string, r *mat.Dense) error {
	rows, _ := r.Dims()
	for i := range rows {
		for j, v := range r.RawRowView(i) {
			if v-v != 0 {
				return laberr.Errorf(laberr.ErrNonFinite, "factor: %s: entry [%d,%d] of the result is %g: the computation overflows on these inputs; rescale them", op, i, j, v)
			}
		}
	}
	return nil
}

// fixSigns flips the columns of v so that the first entry of largest magnitude in each is
// positive: eigenvectors and singular vectors are defined up to sign, and this makes the fitted
// models reproducible. Magnitudes within a relative signTieTolerance of the largest count as
// tied, so that symmetric data (entries equal but for rounding) get the same sign everywhere.
// The same columns of each partner (the right singular vectors paired with left ones) are
// flipped with them.
func fixSigns(v *mat.Dense, partners ...*mat.Dense) {
	r, c := v.Dims()
	for j := range c {
		var largest float64
		for i := range r {
			largest = max(largest, math.Abs(v.At(i, j)))
		}
		for i := range r {
			if math.Abs(v.At(i, j)) >= (1-signTieTolerance)*largest {
				if v.At(i, j) < 0 {
					for _, m := range append([]*mat.Dense{v}, partners...) {
						col := m.ColView(j).(*mat.VecDense)
						col.ScaleVec(-1, col)
					}
				}
				break
			}
		}
	}
}

// signTieTolerance is the relative difference below which fixSigns treats magnitudes as equal.
const signTieTolerance = 1e-9
