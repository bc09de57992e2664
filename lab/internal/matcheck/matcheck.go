package matcheck

import (
	"fmt"
	"reflect"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Rows checks that m is a non-nil, non-empty matrix of finite values and returns its row-major
// storage: m's own (no copy) when it is a mat.RawMatrixer such as *mat.Dense, a copy otherwise.
// where and name prefix and name the errors ("kernel: Cross", "X").
func Rows(where, name string, m mat.Matrix) (blas64.General, error) {
	if err := checkPresent(where, name, m); err != nil {
		return blas64.General{}, err
	}
	var g blas64.General
	if rm, ok := m.(mat.RawMatrixer); ok {
		g = rm.RawMatrix()
	} else {
		d, err := denseCopy(where, name, m)
		if err != nil {
			return blas64.General{}, err
		}
		g = d.RawMatrix()
	}
	return g, finiteRows(where, name, g)
}

// Dense is Rows for callers that want a *mat.Dense: m itself when it is one, a copy otherwise.
func Dense(where, name string, m mat.Matrix) (*mat.Dense, error) {
	if err := checkPresent(where, name, m); err != nil {
		return nil, err
	}
	d, ok := m.(*mat.Dense)
	if !ok {
		var err error
		if d, err = denseCopy(where, name, m); err != nil {
			return nil, err
		}
	}
	return d, finiteRows(where, name, d.RawMatrix())
}

// DenseCopy is Dense that always copies, so that a fitted model never shares memory with its
// caller's data.
func DenseCopy(where, name string, m mat.Matrix) (*mat.Dense, error) {
	if err := checkPresent(where, name, m); err != nil {
		return nil, err
	}
	d, err := denseCopy(where, name, m)
	if err != nil {
		return nil, err
	}
	return d, finiteRows(where, name, d.RawMatrix())
}

// Symmetric checks that m is a non-nil, non-empty symmetric matrix whose upper triangle (hence
// all of it) is finite, and returns its order.
func Symmetric(where, name string, m mat.Symmetric) (int, error) {
	if err := NotNil(where, name, m); err != nil {
		return 0, err
	}
	n := m.SymmetricDim()
	if n == 0 {
		return 0, fmt.Errorf("%s: %s is empty", where, name)
	}
	// Its callers work on a dense n×n copy (an eigendecomposition); a lazy matrix of 2⁴⁰ rows
	// is refused here, before a scan of its n²/2 entries that would never end.
	if err := memlimit.Check(where, fmt.Sprintf("a dense copy of the %d×%d %s", n, n, name), 8, n, n); err != nil {
		return 0, err
	}
	for i := range n {
		for j := i; j < n; j++ {
			if v := m.At(i, j); v-v != 0 {
				return 0, notFinite(where, name, i, j, v)
			}
		}
	}
	return n, nil
}

// FiniteVector returns an error naming the first NaN or ±Inf of v (as name[i]), nil if none.
func FiniteVector(where, name string, v []float64) error {
	if allFinite(v) {
		return nil
	}
	for i, x := range v {
		if x-x != 0 {
			return laberr.Errorf(laberr.ErrNonFinite, "%s: %s[%d] = %g, want finite values", where, name, i, x)
		}
	}
	return nil
}

// checkPresent rejects a nil matrix (untyped or typed) and one with no rows or no columns.
func checkPresent(where, name string, m mat.Matrix) error {
	if err := NotNil(where, name, m); err != nil {
		return err
	}
	if r, c := m.Dims(); r == 0 || c == 0 {
		return fmt.Errorf("%s: %s is empty (%d×%d)", where, name, r, c)
	}
	return nil
}

// NotNil rejects nil and a nil pointer in a non-nil interface, whose methods would panic: an
// argument of any interface type (a matrix, a kernel, documents), named name in where's errors.
func NotNil(where, name string, m any) error {
	if m == nil {
		return fmt.Errorf("%s: %s is nil", where, name)
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("%s: %s is a nil %T", where, name, m)
	}
	return nil
}

// finiteRows returns an error naming the first non-finite entry of g, nil if none.
func finiteRows(where, name string, g blas64.General) error {
	for i := range g.Rows {
		row := g.Data[i*g.Stride : i*g.Stride+g.Cols]
		if allFinite(row) {
			continue
		}
		for j, v := range row {
			if v-v != 0 {
				return notFinite(where, name, i, j, v)
			}
		}
	}
	return nil
}

func notFinite(where, name string, i, j int, v float64) error {
	return laberr.Errorf(laberr.ErrNonFinite, "%s: %s[%d,%d] = %g, want finite values", where, name, i, j, v)
}

// allFinite reports whether every entry of v is finite: x·0 is ±0 for a finite x and NaN for NaN
// and ±Inf, so the sums below stay zero exactly when v is finite. Four independent sums and no
// branch per entry make it about 1.7 times as fast as testing each entry (20,000 × 1000 entries:
// 22 instead of 37 ms on one core); the callers rescan a failing row to name the entry.
func allFinite(v []float64) bool {
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(v); j += 4 {
		s0 += v[j] * 0
		s1 += v[j+1] * 0
		s2 += v[j+2] * 0
		s3 += v[j+3] * 0
	}
	for ; j < len(v); j++ {
		s0 += v[j] * 0
	}
	return s0+s1+s2+s3 == 0
}

// PredictCopy checks and copies the points X a fitted model predicts on: DenseCopy, and as many
// columns as the model was fitted on (an [laberr.ErrShape] error otherwise). where is the caller's
// "pkg: Op".
func PredictCopy(where string, X mat.Matrix, fitted int) (*mat.Dense, error) {
	x, err := DenseCopy(where, "X", X)
	if err != nil {
		return nil, err
	}
	if _, cols := x.Dims(); cols != fitted {
		return nil, laberr.Errorf(laberr.ErrShape, "%s: X has %d columns but the model was fitted on %d", where, cols, fitted)
	}
	return x, nil
}

// denseCopy copies m into a new Dense, after memlimit has checked its size: a lazy matrix (a view,
// a CSR matrix, a user type) may declare dimensions whose dense copy no machine holds.
func denseCopy(where, name string, m mat.Matrix) (*mat.Dense, error) {
	r, c := m.Dims()
	if err := memlimit.Check(where, fmt.Sprintf("a dense copy of the %d×%d %s", r, c, name), 8, r, c); err != nil {
		return nil, err
	}
	return mat.DenseCopyOf(m), nil
}
