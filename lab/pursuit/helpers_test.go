package pursuit

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// matrixOperator is a dictionary known only through its products (no AtomReader, no screen),
// to exercise the solvers' operator path against the same matrix as a DenseDictionary.
type matrixOperator struct {
	m    *mat.Dense
	fail bool // every product returns an error
}

func (o matrixOperator) Dims() (int, int) { return o.m.Dims() }

func (o matrixOperator) Apply(dst, coef []float64) error {
	if o.fail {
		return errors.New("operator failure")
	}
	mat.NewVecDense(len(dst), dst).MulVec(o.m, mat.NewVecDense(len(coef), coef))
	return nil
}

func (o matrixOperator) ApplyTranspose(dst, r []float64) error {
	if o.fail {
		return errors.New("operator failure")
	}
	mat.NewVecDense(len(dst), dst).MulVec(o.m.T(), mat.NewVecDense(len(r), r))
	return nil
}

func (o matrixOperator) ColumnNorms(dst []float64) error {
	for j := range dst {
		dst[j] = mat.Norm(o.m.ColView(j), 2)
	}
	return nil
}

// gaussianMatrix returns a d×n matrix of N(0,1) entries with unit-norm columns.
func gaussianMatrix(rng *rand.Rand, d, n int) *mat.Dense {
	m := mat.NewDense(d, n, nil)
	for j := range n {
		col := make([]float64, d)
		for i := range col {
			col[i] = rng.NormFloat64()
		}
		nrm := norm2(col)
		for i, v := range col {
			m.Set(i, j, v/nrm)
		}
	}
	return m
}

// spikesAndHadamard returns the d×2d dictionary [I | H/√d] (H the Sylvester–Hadamard matrix, d a
// power of two) turned by a random rotation, which keeps every inner product: coherence
// exactly 1/√d, so m-sparse signals with m < (√d + 1)/2 satisfy the recovery condition.
func spikesAndHadamard(rng *rand.Rand, d int) *mat.Dense {
	h := mat.NewDense(1, 1, []float64{1})
	for size := 1; size < d; size *= 2 {
		next := mat.NewDense(2*size, 2*size, nil)
		for i := range size {
			for j := range size {
				v := h.At(i, j)
				next.Set(i, j, v)
				next.Set(i, j+size, v)
				next.Set(i+size, j, v)
				next.Set(i+size, j+size, -v)
			}
		}
		h = next
	}
	base := mat.NewDense(d, 2*d, nil)
	for i := range d {
		base.Set(i, i, 1)
		for j := range d {
			base.Set(i, d+j, h.At(i, j)/math.Sqrt(float64(d)))
		}
	}
	g := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	var out mat.Dense
	out.Mul(&q, base)
	return &out
}

// sparseSignal draws a support of m distinct atoms among n and N(0,1) coefficients kept away
// from zero (|α_j| ≥ 0.2), and returns y = Dα*, the support and α* on it.
func sparseSignal(rng *rand.Rand, m *mat.Dense, sparsity int) (y []float64, support []int, coef []float64) {
	d, n := m.Dims()
	support = rng.Perm(n)[:sparsity]
	y = make([]float64, d)
	for _, j := range support {
		c := rng.NormFloat64()
		for math.Abs(c) < 0.2 {
			c = rng.NormFloat64()
		}
		coef = append(coef, c)
		for i := range d {
			y[i] += c * m.At(i, j)
		}
	}
	return y, support, coef
}

// leastSquares solves min ‖y − D_S x‖ with gonum's QR (the independent reference).
func leastSquares(t *testing.T, m *mat.Dense, support []int, y []float64) []float64 {
	t.Helper()
	d, _ := m.Dims()
	a := mat.NewDense(d, len(support), nil)
	for l, j := range support {
		for i := range d {
			a.Set(i, l, m.At(i, j))
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var x mat.VecDense
	if err := qr.SolveVecTo(&x, false, mat.NewVecDense(d, append([]float64(nil), y...))); err != nil {
		t.Fatal(err)
	}
	return x.RawVector().Data
}

// residualOf returns y − D_S x.
func residualOf(m *mat.Dense, support []int, x, y []float64) []float64 {
	r := append([]float64(nil), y...)
	d, _ := m.Dims()
	for l, j := range support {
		for i := range d {
			r[i] -= x[l] * m.At(i, j)
		}
	}
	return r
}

// mustDense wraps m in a DenseDictionary.
func mustDense(t *testing.T, m *mat.Dense) *DenseDictionary {
	t.Helper()
	dd, err := NewDenseDictionary(m)
	if err != nil {
		t.Fatal(err)
	}
	return dd
}

// withoutScreen returns dd searched in double precision only.
func withoutScreen(dd *DenseDictionary) *DenseDictionary {
	plain := *dd
	plain.screen = nil
	return &plain
}

// sameSet reports whether a and b hold the same integers.
func sameSet(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[int]int{}
	for _, v := range a {
		seen[v]++
	}
	for _, v := range b {
		seen[v]--
	}
	for _, c := range seen {
		if c != 0 {
			return false
		}
	}
	return true
}

// closeSlices reports whether a and b agree to tol relative to max(1, ‖b‖∞).
func closeSlices(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	scale := 1.0
	for _, v := range b {
		scale = max(scale, math.Abs(v))
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*scale {
			return false
		}
	}
	return true
}
