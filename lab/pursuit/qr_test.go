package pursuit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestUpdatableQR appends columns beyond the initial capacity, removes some, and checks after
// each change that Q has orthonormal rows, that QᵀR reproduces the remaining columns, and that
// the rotated right-hand side still equals Qb.
func TestUpdatableQR(t *testing.T) {
	rng := rand.New(rand.NewPCG(70, 70))
	d := 12
	cols := make([][]float64, 9)
	for j := range cols {
		cols[j] = make([]float64, d)
		for i := range cols[j] {
			cols[j][i] = rng.NormFloat64()
		}
	}
	b := make([]float64, d)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	f := newUpdatableQR(d, 2)
	var z []float64
	var current []int
	check := func(stage string) {
		k := f.k
		for l := range k {
			for m := range k {
				want := 0.0
				if l == m {
					want = 1
				}
				if got := dot(f.row(l), f.row(m)); math.Abs(got-want) > 1e-14 {
					t.Fatalf("%s: ⟨q_%d, q_%d⟩ = %g", stage, l, m, got)
				}
			}
			if math.Abs(z[l]-dot(f.row(l), b)) > 1e-13 {
				t.Fatalf("%s: z[%d] = %g, want ⟨q, b⟩ = %g", stage, l, z[l], dot(f.row(l), b))
			}
		}
		for c, j := range current {
			rebuilt := make([]float64, d)
			for l := 0; l <= c; l++ {
				axpy(f.r[l*f.cap+c], f.row(l), rebuilt)
			}
			for l := c + 1; l < k; l++ {
				if f.r[l*f.cap+c] != 0 {
					t.Fatalf("%s: R[%d,%d] = %g below the diagonal", stage, l, c, f.r[l*f.cap+c])
				}
			}
			if !closeSlices(rebuilt, cols[j], 1e-13) {
				t.Fatalf("%s: column %d (atom %d) is not Qᵀr_c", stage, c, j)
			}
		}
		// Least squares on the current columns against gonum.
		if k > 0 {
			a := mat.NewDense(d, k, nil)
			for c, j := range current {
				a.SetCol(c, cols[j])
			}
			x := make([]float64, k)
			f.solve(x, z)
			all := make([]int, k)
			for c := range all {
				all[c] = c
			}
			if want := leastSquares(t, a, all, b); !closeSlices(x, want, 1e-12) {
				t.Fatalf("%s: solve %v, least squares %v", stage, x, want)
			}
		}
	}
	for j := range 7 {
		if !f.append(cols[j]) {
			t.Fatalf("column %d refused", j)
		}
		z = append(z, dot(f.row(f.k-1), b))
		current = append(current, j)
		check("append")
	}
	for _, pos := range []int{2, 0, 4, 3} {
		f.remove(pos, z)
		z = z[:f.k]
		current = append(current[:pos], current[pos+1:]...)
		check("remove")
	}
	// A combination of current columns is refused; a fresh one is accepted.
	combo := make([]float64, d)
	axpy(2, cols[current[0]], combo)
	axpy(-1, cols[current[1]], combo)
	if f.append(combo) {
		t.Fatal("a combination of factored columns was accepted")
	}
	if !f.append(cols[8]) {
		t.Fatal("an independent column was refused")
	}
}
