package pursuit

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDenseDictionaryLayouts builds the same dictionary from a *mat.Dense, from the transpose of
// its n×d transpose, and from a generic mat.Matrix, and checks its products against gonum.
func TestDenseDictionaryLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(60, 60))
	d, n := 7, 131 // n above one transposition block
	m := mat.NewDense(d, n, nil)
	for i := range d {
		for j := range n {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	var mt mat.Dense
	mt.CloneFrom(m.T())
	generic := mat.NewSymDense(3, []float64{1, 2, 3, 2, 4, 5, 3, 5, 6})
	for name, c := range map[string]struct {
		in   mat.Matrix
		want *mat.Dense
	}{
		"dense":     {m, m},
		"transpose": {mt.T(), m},
		"generic":   {generic, mat.DenseCopyOf(generic)},
	} {
		dd, err := NewDenseDictionary(c.in)
		if err != nil {
			t.Fatal(err)
		}
		rows, cols := c.want.Dims()
		if gd, gn := dd.Dims(); gd != rows || gn != cols {
			t.Fatalf("%s: dims %d×%d, want %d×%d", name, gd, gn, rows, cols)
		}
		if !mat.Equal(dd.Matrix(), c.want) {
			t.Fatalf("%s: Matrix() differs from the input", name)
		}
		atom := make([]float64, rows)
		norms := make([]float64, cols)
		if err := dd.ColumnNorms(norms); err != nil {
			t.Fatal(err)
		}
		for j := range cols {
			if err := dd.Atom(atom, j); err != nil {
				t.Fatal(err)
			}
			col := mat.Col(nil, j, c.want)
			if !closeSlices(atom, col, 0) || math.Abs(norms[j]-mat.Norm(mat.NewVecDense(rows, col), 2)) > 1e-15 {
				t.Fatalf("%s: atom %d or its norm differs", name, j)
			}
		}
		coef := make([]float64, cols)
		for j := range coef {
			coef[j] = rng.NormFloat64()
		}
		got := make([]float64, rows)
		if err := dd.Apply(got, coef); err != nil {
			t.Fatal(err)
		}
		var want mat.VecDense
		want.MulVec(c.want, mat.NewVecDense(cols, coef))
		if !closeSlices(got, want.RawVector().Data, 1e-14) {
			t.Fatalf("%s: Apply differs from gonum", name)
		}
		r := make([]float64, rows)
		for i := range r {
			r[i] = rng.NormFloat64()
		}
		corr := make([]float64, cols)
		if err := dd.ApplyTranspose(corr, r); err != nil {
			t.Fatal(err)
		}
		var wantCorr mat.VecDense
		wantCorr.MulVec(c.want.T(), mat.NewVecDense(rows, r))
		if !closeSlices(corr, wantCorr.RawVector().Data, 1e-14) {
			t.Fatalf("%s: ApplyTranspose differs from gonum", name)
		}
	}
}

// TestNewGaussianDictionary: unit-norm atoms, the same atoms whatever the number of goroutines,
// different atoms for another seed, entries with the variance 1/d of a normalised Gaussian.
func TestNewGaussianDictionary(t *testing.T) {
	draw := func(procs int, seed uint64) *DenseDictionary {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		dd, err := NewGaussianDictionary(rand.New(rand.NewPCG(seed, 1)), 50, 300)
		if err != nil {
			t.Fatal(err)
		}
		return dd
	}
	one, four, other := draw(1, 7), draw(4, 7), draw(4, 8)
	sumSq := 0.0
	for j := range 300 {
		if math.Abs(one.norms[j]-1) > 1e-15 {
			t.Fatalf("atom %d has norm %g", j, one.norms[j])
		}
		for _, v := range one.atom(j) {
			sumSq += v * v
		}
	}
	if !closeSlices(one.atoms, four.atoms, 0) {
		t.Fatal("atoms depend on GOMAXPROCS")
	}
	if closeSlices(one.atoms, other.atoms, 0.1) {
		t.Fatal("another seed gives the same atoms")
	}
	// Mean of d·v² over all entries is exactly 1 for unit atoms; the fourth moment of a
	// normalised Gaussian entry, d²·E[v⁴] ≈ 3d/(d+2), tells Gaussian from, say, uniform (1.8).
	fourth := 0.0
	for _, v := range one.atoms {
		fourth += 50 * 50 * v * v * v * v
	}
	fourth /= float64(len(one.atoms))
	if math.Abs(fourth-3*50.0/52) > 0.15 {
		t.Fatalf("fourth moment %g, want about %g for Gaussian entries", fourth, 3*50.0/52)
	}
}

// TestBadInputsGiveErrors calls every exported function with bad input: each must return an
// error (never panic) that names the function.
func TestBadInputsGiveErrors(t *testing.T) {
	good := mustDense(t, mat.NewDense(2, 3, []float64{1, 0, 1, 0, 1, 1}))
	y := []float64{1, 2}
	var nilDense *DenseDictionary
	failing := matrixOperator{m: mat.NewDense(2, 3, []float64{1, 0, 1, 0, 1, 1}), fail: true}
	nanMatrix := mat.NewDense(2, 2, []float64{1, math.NaN(), 0, 1})
	zeroAtom := mustDense(t, mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0}))
	cases := map[string]func() error{
		"dense nil":          func() error { _, err := NewDenseDictionary(nil); return err },
		"dense nil pointer":  func() error { var m *mat.Dense; _, err := NewDenseDictionary(m); return err },
		"dense NaN":          func() error { _, err := NewDenseDictionary(nanMatrix); return err },
		"gaussian nil rng":   func() error { _, err := NewGaussianDictionary(nil, 2, 2); return err },
		"gaussian size":      func() error { _, err := NewGaussianDictionary(rand.New(rand.NewPCG(1, 1)), 0, 2); return err },
		"atom index":         func() error { return good.Atom(make([]float64, 2), 3) },
		"atom length":        func() error { return good.Atom(make([]float64, 3), 0) },
		"apply length":       func() error { return good.Apply(make([]float64, 2), make([]float64, 2)) },
		"transpose length":   func() error { return good.ApplyTranspose(make([]float64, 2), y) },
		"norms length":       func() error { return good.ColumnNorms(make([]float64, 2)) },
		"OMP nil dictionary": func() error { _, err := OrthogonalMatchingPursuit(nil, y, Options{}); return err },
		"OMP nil pointer":    func() error { _, err := OrthogonalMatchingPursuit(nilDense, y, Options{}); return err },
		"OMP y length":       func() error { _, err := OrthogonalMatchingPursuit(good, []float64{1}, Options{}); return err },
		"OMP y NaN": func() error {
			_, err := OrthogonalMatchingPursuit(good, []float64{1, math.NaN()}, Options{})
			return err
		},
		"OMP MaxAtoms":       func() error { _, err := OrthogonalMatchingPursuit(good, y, Options{MaxAtoms: -1}); return err },
		"OMP tolerance":      func() error { _, err := OrthogonalMatchingPursuit(good, y, Options{Tolerance: math.NaN()}); return err },
		"OMP operator fails": func() error { _, err := OrthogonalMatchingPursuit(failing, y, Options{}); return err },
		"MP no iterations":   func() error { _, err := MatchingPursuit(good, y, Options{}); return err },
		"MP negative":        func() error { _, err := MatchingPursuit(good, y, Options{MaxIterations: -2}); return err },
		"MP operator fails":  func() error { _, err := MatchingPursuit(failing, y, Options{MaxIterations: 2}); return err },
		"NNOMP operator":     func() error { _, err := NonNegativeOMP(failing, y, Options{}); return err },
		"NNOMP y length":     func() error { _, err := NonNegativeOMP(good, nil, Options{}); return err },
		"FW radius":          func() error { _, err := FrankWolfe(good, y, 0, StepLineSearch, Options{MaxIterations: 2}); return err },
		"FW infinite radius": func() error {
			_, err := FrankWolfe(good, y, math.Inf(1), StepLineSearch, Options{MaxIterations: 2})
			return err
		},
		"FW rule":             func() error { _, err := FrankWolfe(good, y, 1, StepRule(9), Options{MaxIterations: 2}); return err },
		"FW no iterations":    func() error { _, err := FrankWolfe(good, y, 1, StepOpenLoop, Options{}); return err },
		"FW operator fails":   func() error { _, err := FrankWolfe(failing, y, 1, StepOpenLoop, Options{MaxIterations: 2}); return err },
		"NNLS nil":            func() error { _, err := NonNegativeLeastSquares(nil, y); return err },
		"NNLS b length":       func() error { _, err := NonNegativeLeastSquares(mat.NewDense(2, 2, nil), []float64{1}); return err },
		"NNLS NaN":            func() error { _, err := NonNegativeLeastSquares(nanMatrix, y); return err },
		"incoherence maxM":    func() error { _, err := MeasureIncoherence(good, 3); return err },
		"incoherence zero":    func() error { _, err := MeasureIncoherence(zeroAtom, 1); return err },
		"incoherence nil":     func() error { _, err := MeasureIncoherence(nil, 1); return err },
		"incoherence failing": func() error { _, err := MeasureIncoherence(failing, 1); return err },
		"ERC empty":           func() error { _, _, err := ExactRecoveryCondition(good, nil); return err },
		"ERC duplicate":       func() error { _, _, err := ExactRecoveryCondition(good, []int{0, 0}); return err },
		"ERC range":           func() error { _, _, err := ExactRecoveryCondition(good, []int{5}); return err },
		"ERC dependent": func() error {
			_, _, err := ExactRecoveryCondition(mustDense(t, mat.NewDense(2, 3, []float64{1, 2, 0, 1, 2, 1})), []int{0, 1})
			return err
		},
		"ERC failing": func() error { _, _, err := ExactRecoveryCondition(failing, []int{0}); return err },
	}
	for name, call := range cases {
		err := call()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "pursuit: ") {
			t.Errorf("%s: error %q does not name the package", name, err)
		}
	}
}

// TestConcurrentSolvesShareADictionary runs solvers on one DenseDictionary from several
// goroutines (the dictionary is read-only, each solve has its own buffers) and compares with a
// sequential run.
func TestConcurrentSolvesShareADictionary(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 61))
	dd, err := NewGaussianDictionary(rng, 64, 200)
	if err != nil {
		t.Fatal(err)
	}
	signals := make([][]float64, 4)
	for s := range signals {
		signals[s] = make([]float64, 64)
		for i := range signals[s] {
			signals[s][i] = rng.NormFloat64()
		}
	}
	want := make([]*Result, len(signals))
	for s, y := range signals {
		if want[s], err = OrthogonalMatchingPursuit(dd, y, Options{MaxAtoms: 20}); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]*Result, len(signals))
	errs := make([]error, len(signals))
	done := make(chan int)
	for s, y := range signals {
		go func() {
			got[s], errs[s] = OrthogonalMatchingPursuit(dd, y, Options{MaxAtoms: 20})
			done <- s
		}()
	}
	for range signals {
		<-done
	}
	for s := range signals {
		if errs[s] != nil || !closeSlices(got[s].Coefficients, want[s].Coefficients, 0) {
			t.Fatalf("signal %d: concurrent solve differs (%v)", s, errs[s])
		}
	}
}
