package csr

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSparse returns a rows×cols matrix with about density·rows·cols values drawn from rng,
// as CSR and as the dense reference it must equal.
func randomSparse(t *testing.T, rng *rand.Rand, rows, cols int, density float64) (*Matrix, *mat.Dense) {
	t.Helper()
	dense := mat.NewDense(rows, cols, nil)
	var is, js []int
	var vs []float64
	for i := range rows {
		for j := range cols {
			if rng.Float64() < density {
				v := rng.NormFloat64()
				dense.Set(i, j, v)
				is, js, vs = append(is, i), append(js, j), append(vs, v)
			}
		}
	}
	// Shuffle the triplets: FromTriplets must not rely on their order.
	rng.Shuffle(len(vs), func(a, b int) {
		is[a], is[b] = is[b], is[a]
		js[a], js[b] = js[b], js[a]
		vs[a], vs[b] = vs[b], vs[a]
	})
	m, err := FromTriplets(rows, cols, is, js, vs)
	if err != nil {
		t.Fatal(err)
	}
	return m, dense
}

func TestFromTripletsSumsDuplicates(t *testing.T) {
	// (0,1) is given three times (1 + 2 + 4 = 7); (1,0) holds an explicit zero; row 2 is empty.
	m, err := FromTriplets(3, 2, []int{0, 1, 0, 0}, []int{1, 0, 1, 1}, []float64{1, 0, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	if m.NNZ() != 2 {
		t.Fatalf("NNZ = %d, want 2", m.NNZ())
	}
	want := mat.NewDense(3, 2, []float64{0, 7, 0, 0, 0, 0})
	if !mat.Equal(m, want) {
		t.Fatalf("matrix %v, want %v", mat.Formatted(m), mat.Formatted(want))
	}
	if cols, vals := m.Row(0); len(cols) != 1 || cols[0] != 1 || vals[0] != 7 {
		t.Fatalf("Row(0) = %v, %v, want [1], [7]", cols, vals)
	}
	if cols, _ := m.Row(2); len(cols) != 0 {
		t.Fatalf("Row(2) = %v, want none", cols)
	}
	tr, err := m.Transpose()
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(m.T(), want.T()) || !mat.Equal(tr, want.T()) {
		t.Fatal("transposes differ from the dense transpose")
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		name       string
		rows, cols int
		indptr     []int
		indices    []int
		data       []float64
		want       string
	}{
		{"empty shape", 0, 2, []int{0}, nil, nil, "shape"},
		{"short indptr", 2, 2, []int{0, 1}, []int{0}, []float64{1}, "len(indptr)"},
		{"lengths differ", 1, 2, []int{0, 1}, []int{0}, nil, "len(data)"},
		{"indptr end", 1, 2, []int{0, 2}, []int{0}, []float64{1}, "indptr runs"},
		{"decreasing indptr", 3, 2, []int{0, 2, 1, 2}, []int{0, 1}, []float64{1, 2}, "non-decreasing"},
		{"column out of range", 1, 2, []int{0, 1}, []int{2}, []float64{1}, "column index 2"},
		{"unsorted row", 1, 3, []int{0, 2}, []int{2, 0}, []float64{1, 2}, "strictly increasing"},
		{"repeated column", 1, 3, []int{0, 2}, []int{1, 1}, []float64{1, 2}, "strictly increasing"},
		{"NaN", 1, 2, []int{0, 1}, []int{1}, []float64{math.NaN()}, "finite"},
	} {
		if _, err := New(c.rows, c.cols, c.indptr, c.indices, c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		name string
		i, j []int
		v    []float64
		want string
	}{
		{"lengths", []int{0}, []int{0, 1}, []float64{1}, "equal counts"},
		{"outside", []int{0}, []int{5}, []float64{1}, "outside"},
		{"Inf", []int{0}, []int{0}, []float64{math.Inf(-1)}, "finite"},
		{"sum overflows", []int{1, 1}, []int{1, 1}, []float64{math.MaxFloat64, math.MaxFloat64}, "(1, 1) overflow"},
	} {
		if _, err := FromTriplets(2, 2, c.i, c.j, c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromTriplets %s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestProductsMatchDense compares both products with gonum's dense ones on random matrices of
// several densities, including a matrix with empty rows and columns and more than one row block.
func TestProductsMatchDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		rows, cols, k int
		density       float64
	}{{1, 1, 1, 1}, {7, 5, 3, 0.3}, {600, 90, 4, 0.02}, {300, 400, 17, 0.2}} {
		a, dense := randomSparse(t, rng, c.rows, c.cols, c.density)
		if !mat.Equal(a, dense) {
			t.Fatalf("%d×%d: CSR differs from its dense reference", c.rows, c.cols)
		}
		b := mat.NewDense(c.cols, c.k, nil)
		bt := mat.NewDense(c.rows, c.k, nil)
		for _, d := range [][]float64{b.RawMatrix().Data, bt.RawMatrix().Data} {
			for i := range d {
				d[i] = rng.NormFloat64()
			}
		}
		var got, want mat.Dense
		if err := a.MulDense(&got, b); err != nil {
			t.Fatal(err)
		}
		want.Mul(dense, b)
		if !mat.EqualApprox(&got, &want, 1e-12) {
			t.Fatalf("%d×%d: A·B differs from the dense product", c.rows, c.cols)
		}
		var gotT, wantT mat.Dense
		// A mat.Transpose operand goes through the copying path of MulDense's input check.
		if err := a.MulTransDense(&gotT, bt.T().T()); err != nil {
			t.Fatal(err)
		}
		wantT.Mul(dense.T(), bt)
		if !mat.EqualApprox(&gotT, &wantT, 1e-12) {
			t.Fatalf("%d×%d: Aᵀ·B differs from the dense product", c.rows, c.cols)
		}
		// Reusing a destination of the right shape overwrites it.
		if err := a.MulDense(&got, b); err != nil || !mat.EqualApprox(&got, &want, 1e-12) {
			t.Fatalf("reused dst: %v", err)
		}
	}
}

func TestProductsRejectBadInput(t *testing.T) {
	a, err := FromTriplets(2, 3, []int{0, 1}, []int{2, 0}, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	var dst mat.Dense
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"nil B", a.MulDense(&dst, nil), "nil"},
		{"wrong rows", a.MulDense(&dst, mat.NewDense(2, 1, nil)), "want 3 rows"},
		{"NaN in B", a.MulDense(&dst, mat.NewDense(3, 1, []float64{0, math.NaN(), 0})), "B[1,0] = NaN"},
		{"wrong dst", a.MulDense(mat.NewDense(5, 5, nil), mat.NewDense(3, 1, nil)), "dst is 5×5"},
		{"nil dst", a.MulTransDense(nil, mat.NewDense(2, 1, nil)), "dst is nil"},
		{"trans wrong rows", a.MulTransDense(&dst, mat.NewDense(3, 1, nil)), "want 2 rows"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, c.err, c.want)
		}
	}
	sq, _ := FromTriplets(2, 2, []int{0}, []int{0}, []float64{1})
	b := mat.NewDense(2, 2, nil)
	if err := sq.MulDense(b, b); err == nil || !strings.Contains(err.Error(), "dst is B") {
		t.Errorf("aliased dst: error %v", err)
	}
}

// TestProductsRaceFree runs products of one matrix from several goroutines (go test -race).
func TestProductsRaceFree(t *testing.T) {
	a, _ := randomSparse(t, rand.New(rand.NewPCG(5, 6)), 700, 50, 0.05)
	b := mat.NewDense(700, 3, nil)
	done := make(chan error)
	for range 4 {
		go func() {
			var dst mat.Dense
			done <- a.MulTransDense(&dst, b)
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
