package pursuit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bruteForceNNLS solves min ‖b − Ax‖ s.t. x ≥ 0 by enumeration: the solution is the
// least-squares solution on its positive set P, so it is the best of the least-squares
// solutions over all column subsets that come out non-negative.
func bruteForceNNLS(t *testing.T, a *mat.Dense, b []float64) ([]float64, float64) {
	d, n := a.Dims()
	best, bestX := norm2(b), make([]float64, n)
	for mask := 1; mask < 1<<n; mask++ {
		var set []int
		for j := range n {
			if mask&(1<<j) != 0 {
				set = append(set, j)
			}
		}
		if len(set) > d { // an optimal positive set has independent columns
			continue
		}
		x := leastSquares(t, a, set, b)
		negative := false
		for _, v := range x {
			negative = negative || v < 0
		}
		if negative {
			continue
		}
		if r := norm2(residualOf(a, set, x, b)); r < best-1e-12 {
			best = r
			clear(bestX)
			for l, j := range set {
				bestX[j] = x[l]
			}
		}
	}
	return bestX, best
}

func TestNonNegativeLeastSquaresAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 30))
	for trial := range 30 {
		d, n := 8, 6
		if trial%3 == 0 {
			d = 4 // more columns than rows: P must stay independent
		}
		a := mat.NewDense(d, n, nil)
		for i := range d {
			for j := range n {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		b := make([]float64, d)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		x, err := NonNegativeLeastSquares(a, b)
		if err != nil {
			t.Fatal(err)
		}
		want, wantNorm := bruteForceNNLS(t, a, b)
		all := make([]int, n)
		for j := range all {
			all[j] = j
		}
		got := norm2(residualOf(a, all, x, b))
		for j, v := range x {
			if v < 0 {
				t.Fatalf("trial %d: x[%d] = %g < 0", trial, j, v)
			}
		}
		if math.Abs(got-wantNorm) > 1e-10 || (d > n && !closeSlices(x, want, 1e-8)) {
			t.Fatalf("trial %d: x = %v (‖r‖ %g), brute force %v (‖r‖ %g)", trial, x, got, want, wantNorm)
		}
	}
}

// TestNonNegativeLeastSquaresHandCases: b in the negative cone gives x = 0; duplicated and zero
// columns; an exactly representable b.
func TestNonNegativeLeastSquaresHandCases(t *testing.T) {
	a := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	x, err := NonNegativeLeastSquares(a, []float64{-1, -2})
	if err != nil || x[0] != 0 || x[1] != 0 {
		t.Fatalf("negative b: x = %v (%v), want 0", x, err)
	}
	x, _ = NonNegativeLeastSquares(a, []float64{3, -2})
	if !closeSlices(x, []float64{3, 0}, 1e-15) {
		t.Fatalf("b = (3, −2): x = %v, want (3, 0)", x)
	}
	// Columns e1, e1 (duplicate), 0, e2: b = (2, 5) is fitted exactly.
	dup := mat.NewDense(2, 4, []float64{1, 1, 0, 0, 0, 0, 0, 1})
	x, err = NonNegativeLeastSquares(dup, []float64{2, 5})
	if err != nil || math.Abs(x[0]+x[1]-2) > 1e-14 || x[2] != 0 || math.Abs(x[3]-5) > 1e-14 {
		t.Fatalf("duplicates: x = %v (%v), want x0 + x1 = 2, x2 = 0, x3 = 5", x, err)
	}
}

// TestNonNegativeOMP: weights stay ≥ 0, the residual decreases strictly, every iterate is the
// NNLS solution on its atoms (brute force), and the run stops by itself with the optimality
// condition of NNLS over the whole dictionary when no atom is positively correlated.
func TestNonNegativeOMP(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	for trial := range 6 {
		m := gaussianMatrix(rng, 20, 25)
		y := make([]float64, 20)
		for i := range y {
			y[i] = rng.NormFloat64()
		}
		for _, dict := range []Dictionary{mustDense(t, m), matrixOperator{m: m}} {
			res, err := NonNegativeOMP(dict, y, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stop != StopNoPositiveCorrelation && res.Stop != StopNoProgress && res.Stop != StopMaxAtoms {
				t.Fatalf("trial %d: stopped by %v", trial, res.Stop)
			}
			t.Logf("trial %d %T: %d atoms, stop %v", trial, dict, len(res.Atoms), res.Stop)
			prev := res.SignalNorm
			for k, s := range res.Steps {
				if !(s.ResidualNorm < prev) {
					t.Fatalf("trial %d step %d: residual %g after %g", trial, k, s.ResidualNorm, prev)
				}
				prev = s.ResidualNorm
				for _, w := range s.Coefficients {
					if w < 0 {
						t.Fatalf("trial %d step %d: negative weight %g", trial, k, w)
					}
				}
				if k < 8 { // brute force on up to 8 atoms
					sub := mat.NewDense(20, k+1, nil)
					for l, j := range res.Atoms[:k+1] {
						sub.SetCol(l, mat.Col(nil, j, m))
					}
					_, wantNorm := bruteForceNNLS(t, sub, y)
					if math.Abs(s.ResidualNorm-wantNorm) > 1e-10 {
						t.Fatalf("trial %d step %d: residual %g, NNLS on the same atoms %g", trial, k, s.ResidualNorm, wantNorm)
					}
				}
			}
			if !closeSlices(res.Residual, residualOf(m, res.Atoms, res.Coefficients, y), 1e-12) {
				t.Fatalf("trial %d: residual is not y − Dα", trial)
			}
			if res.Stop == StopNoPositiveCorrelation {
				// The optimality conditions hold over the whole dictionary: NN-OMP has found
				// the non-negative least-squares solution on all atoms.
				x, err := NonNegativeLeastSquares(m, y)
				if err != nil {
					t.Fatal(err)
				}
				all := make([]int, 25)
				for j := range all {
					all[j] = j
				}
				if want := norm2(residualOf(m, all, x, y)); math.Abs(res.ResidualNorm()-want) > 1e-10 {
					t.Fatalf("trial %d: residual %g, NNLS over all atoms %g", trial, res.ResidualNorm(), want)
				}
				for j := range 25 {
					col := mat.Col(nil, j, m)
					if c := dot(col, res.Residual); c > 1e-10 {
						t.Fatalf("trial %d: atom %d still correlates %g with the final residual", trial, j, c)
					}
				}
			}
		}
	}
}

// TestNonNegativeOMPPositiveCone: y in the cone of three atoms of an incoherent dictionary is
// recovered with its positive weights, and the run ends on its own.
func TestNonNegativeOMPPositiveCone(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 32))
	m := spikesAndHadamard(rng, 64)
	support := []int{3, 70, 100}
	weights := []float64{1, 2, 0.5}
	y := make([]float64, 64)
	for l, j := range support {
		axpy(weights[l], mat.Col(nil, j, m), y)
	}
	res, err := NonNegativeOMP(mustDense(t, m), y, Options{Tolerance: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	if !sameSet(res.Atoms, support) {
		t.Fatalf("atoms %v, want %v", res.Atoms, support)
	}
	alpha := res.Vector()
	for l, j := range support {
		if math.Abs(alpha[j]-weights[l]) > 1e-12 {
			t.Fatalf("weight of atom %d = %g, want %g", j, alpha[j], weights[l])
		}
	}
	// −y: no atom of the cone helps, but the spikes and Hadamard atoms with negative
	// correlation to y do not count either: NN-OMP may only use positive correlations.
	res, err = NonNegativeOMP(mustDense(t, mat.NewDense(2, 2, []float64{1, 0, 0, 1})), []float64{-1, -1}, Options{})
	if err != nil || res.Stop != StopNoPositiveCorrelation || len(res.Atoms) != 0 {
		t.Fatalf("negative signal: atoms %v, stop %v (%v)", res.Atoms, res.Stop, err)
	}
}
