package matcheck

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/lazymat"
)

func TestMatrixChecksRejectBadInput(t *testing.T) {
	var nilDense *mat.Dense
	withNaN := mat.NewDense(2, 3, []float64{1, 2, 3, 4, math.NaN(), 6})
	withInf := mat.NewDense(2, 2, []float64{1, math.Inf(-1), 3, 4})
	// A view whose hidden columns hold NaN: only the visible part counts.
	parent := mat.NewDense(2, 3, []float64{1, 2, math.NaN(), 3, 4, math.NaN()})
	view := parent.Slice(0, 2, 0, 2)
	cases := []struct {
		name string
		m    mat.Matrix
		want string // "" for no error
	}{
		{"nil", nil, "where: X is nil"},
		{"typed nil", nilDense, "where: X is a nil *mat.Dense"},
		{"empty", &mat.Dense{}, "where: X is empty (0×0)"},
		{"NaN", withNaN, "where: X[1,1] = NaN, want finite values"},
		{"-Inf", withInf, "where: X[0,1] = -Inf, want finite values"},
		{"-Inf transposed", withInf.T(), "where: X[1,0] = -Inf, want finite values"},
		{"hidden NaN outside view", view, ""},
		{"finite", mat.NewDense(1, 2, []float64{-1e308, 5e-324}), ""},
	}
	for _, c := range cases {
		for fn, check := range map[string]func() error{
			"Rows":      func() error { _, err := Rows("where", "X", c.m); return err },
			"Dense":     func() error { _, err := Dense("where", "X", c.m); return err },
			"DenseCopy": func() error { _, err := DenseCopy("where", "X", c.m); return err },
		} {
			err := check()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%s(%s): unexpected error %v", fn, c.name, err)
			case c.want != "" && (err == nil || err.Error() != c.want):
				t.Errorf("%s(%s): error %v, want %q", fn, c.name, err, c.want)
			}
		}
	}
}

func TestMatrixChecksShareOrCopy(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	g, err := Rows("w", "X", x)
	if err != nil || &g.Data[0] != &x.RawMatrix().Data[0] {
		t.Fatalf("Rows(*mat.Dense) copied or failed: %v", err)
	}
	d, err := Dense("w", "X", x)
	if err != nil || d != x {
		t.Fatalf("Dense(*mat.Dense) did not return the matrix itself: %v", err)
	}
	c, err := DenseCopy("w", "X", x)
	if err != nil || c == x || &c.RawMatrix().Data[0] == &x.RawMatrix().Data[0] || !mat.Equal(c, x) {
		t.Fatalf("DenseCopy shares memory or differs: %v", err)
	}
	// A matrix without raw storage is copied, transposed as it reads.
	g, err = Rows("w", "X", x.T())
	if err != nil || g.Rows != 2 || g.Cols != 2 || g.Data[g.Stride] != 2 {
		t.Fatalf("Rows(Xᵀ) = %+v, %v; want the transpose", g, err)
	}
}

func TestSymmetric(t *testing.T) {
	var nilSym *mat.SymDense
	bad := mat.NewSymDense(3, nil)
	bad.SetSym(2, 1, math.Inf(1))
	cases := []struct {
		name string
		m    mat.Symmetric
		want string
	}{
		{"nil", nil, "w: K is nil"},
		{"typed nil", nilSym, "w: K is a nil *mat.SymDense"},
		{"empty", &mat.SymDense{}, "w: K is empty"},
		{"Inf", bad, "w: K[1,2] = +Inf, want finite values"},
	}
	for _, c := range cases {
		if _, err := Symmetric("w", "K", c.m); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if n, err := Symmetric("w", "K", mat.NewSymDense(3, nil)); n != 3 || err != nil {
		t.Errorf("zero 3×3: got %d, %v; want 3, nil", n, err)
	}
}

func TestFiniteVector(t *testing.T) {
	if err := FiniteVector("w", "y", []float64{0, -2, math.MaxFloat64}); err != nil {
		t.Errorf("finite vector: %v", err)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		err := FiniteVector("w", "y", []float64{1, 2, v})
		if err == nil || !strings.HasPrefix(err.Error(), "w: y[2] = ") {
			t.Errorf("y[2] = %g: error %v, want one naming y[2]", v, err)
		}
	}
}

// TestAllFinite checks allFinite against a per-entry test for every length up to 9 (the unrolled
// body and each tail) and every position of one non-finite entry among extreme finite ones.
func TestAllFinite(t *testing.T) {
	finite := []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0, math.Copysign(0, -1)}
	for n := range 10 {
		v := make([]float64, n)
		for i := range v {
			v[i] = finite[i%len(finite)]
		}
		if !allFinite(v) {
			t.Errorf("length %d, all finite: allFinite = false", n)
		}
		for i := range n {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				w := append([]float64(nil), v...)
				w[i] = bad
				if allFinite(w) {
					t.Errorf("length %d, v[%d] = %g: allFinite = true", n, i, bad)
				}
			}
		}
	}
}

// Issue 34: a lazy matrix of huge dimensions was densified by mat.DenseCopyOf without a size check
// (an unrecoverable out-of-memory crash); a lazy symmetric one was scanned entry by entry first.
func TestHugeLazyMatricesAreRefused(t *testing.T) {
	t.Setenv("LAB_MEMLIMIT_BYTES", "1073741824")
	for _, m := range []mat.Matrix{lazymat.Ones{R: 1 << 40, C: 3}, lazymat.Ones{R: 3, C: 1 << 40}, lazymat.Ones{R: 1 << 40, C: 1 << 40}} {
		if _, err := Rows("op", "X", m); err == nil || !strings.Contains(err.Error(), "memlimit") {
			t.Errorf("Rows(%v): %v, want a memlimit error", m, err)
		}
		if _, err := Dense("op", "X", m); err == nil || !strings.Contains(err.Error(), "memlimit") {
			t.Errorf("Dense(%v): %v, want a memlimit error", m, err)
		}
		if _, err := DenseCopy("op", "X", m); err == nil || !strings.Contains(err.Error(), "memlimit") {
			t.Errorf("DenseCopy(%v): %v, want a memlimit error", m, err)
		}
	}
	if _, err := Symmetric("op", "K", lazymat.SymOnes{N: 1 << 40}); err == nil || !strings.Contains(err.Error(), "memlimit") {
		t.Errorf("Symmetric of order 2⁴⁰: %v, want a memlimit error", err)
	}
	// Small lazy matrices are still copied.
	if d, err := Dense("op", "X", lazymat.Ones{R: 2, C: 3}); err != nil || d.At(1, 2) != 1 {
		t.Errorf("Dense of a lazy 2×3 matrix: %v", err)
	}
}
