package learn

import (
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// denseCopy checks that m is a non-nil, non-empty matrix of finite values and returns a copy of
// it, so a fitted model never shares memory with its caller's data. op and name say where a
// failure happened ("KMeans", "X").
func denseCopy(op, name string, m mat.Matrix) (*mat.Dense, error) {
	if m == nil {
		return nil, fmt.Errorf("learn: %s: %s is nil", op, name)
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("learn: %s: %s is a nil %T", op, name, m)
	}
	r, c := m.Dims()
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("learn: %s: %s is empty (%d×%d)", op, name, r, c)
	}
	out := mat.DenseCopyOf(m)
	for i := range r {
		for j, v := range out.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("learn: %s: %s[%d,%d] = %g, want finite values", op, name, i, j, v)
			}
		}
	}
	return out, nil
}

// checkFinite returns an error naming the first NaN or ±Inf of v.
func checkFinite(op, name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("learn: %s: %s[%d] = %g, want finite values", op, name, i, x)
		}
	}
	return nil
}
