package pursuit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// scaledGaussian returns a d×n Gaussian matrix whose column j has norm scales[j%len(scales)].
func scaledGaussian(rng *rand.Rand, d, n int, scales ...float64) *mat.Dense {
	m := gaussianMatrix(rng, d, n)
	for j := range n {
		s := scales[j%len(scales)]
		for i := range d {
			m.Set(i, j, s*m.At(i, j))
		}
	}
	return m
}

func mustGram(t *testing.T, dd *DenseDictionary) *GramDictionary {
	t.Helper()
	gd, err := NewGramDictionary(dd)
	if err != nil {
		t.Fatal(err)
	}
	return gd
}

// TestGramDictionaryMatrix compares the Gram matrix with gonum's general product MᵀM (the
// independent reference) within the rounding bound γ_d‖d_i‖‖d_j‖ of a dot product, checks that
// it is exactly symmetric, and that n values that are not multiples of the 64-atom tiles are
// mirrored whole.
func TestGramDictionaryMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for _, size := range [][2]int{{5, 1}, {13, 64}, {40, 150}, {7, 129}} {
		d, n := size[0], size[1]
		m := scaledGaussian(rng, d, n, 1, 1e3, 1e-3, 7)
		gd := mustGram(t, mustDense(t, m))
		var ref mat.Dense
		ref.Mul(m.T(), m)
		norms := make([]float64, n)
		if err := gd.ColumnNorms(norms); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			for j := range n {
				got := gd.row(i)[j]
				if got != gd.row(j)[i] {
					t.Fatalf("%d×%d: G[%d,%d] = %v but G[%d,%d] = %v", d, n, i, j, got, j, i, gd.row(j)[i])
				}
				if tol := 2 * gammaN(d) * norms[i] * norms[j]; math.Abs(got-ref.At(i, j)) > tol {
					t.Fatalf("%d×%d: G[%d,%d] = %v, MᵀM gives %v (tolerance %g)", d, n, i, j, got, ref.At(i, j), tol)
				}
			}
		}
	}
}

func TestNewGramDictionaryErrors(t *testing.T) {
	if _, err := NewGramDictionary(nil); err == nil {
		t.Error("nil dictionary: want an error")
	}
	if _, err := NewGramDictionary(&DenseDictionary{}); err == nil {
		t.Error("zero dictionary: want an error")
	}
	dd := mustDense(t, gaussianMatrix(rand.New(rand.NewPCG(1, 1)), 4, 100))
	t.Setenv("LAB_MEMLIMIT_BYTES", "40000") // below the 8·100² bytes of the matrix
	if _, err := NewGramDictionary(dd); err == nil || !strings.Contains(err.Error(), "Gram matrix") {
		t.Errorf("above the memory limit: %v, want the limit's error", err)
	}
}

// TestMeasureIncoherenceFromGram: read off the Gram matrix, μ and the Babel function equal
// Definition 10 by brute force on small unnormalised dictionaries, and the streamed pass of the
// DenseDictionary to rounding on one spanning several 64-row blocks (μ alone too).
func TestMeasureIncoherenceFromGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 51))
	for trial := range 3 {
		m := mat.NewDense(5, 9, nil)
		for i := range 5 {
			for j := range 9 {
				m.Set(i, j, rng.NormFloat64()*float64(1+j%2))
			}
		}
		inc, err := MeasureIncoherence(mustGram(t, mustDense(t, m)), 5)
		if err != nil {
			t.Fatal(err)
		}
		for size := 1; size <= 5; size++ {
			got, exact := inc.Babel(size)
			if want := bruteForceBabel(m, size); !exact || math.Abs(got-want) > 1e-14 {
				t.Fatalf("trial %d: μ₁(D, %d) = %g (exact %v), brute force %g", trial, size, got, exact, want)
			}
		}
	}
	m := scaledGaussian(rng, 30, 200, 1, 3)
	dd := mustDense(t, m)
	gd := mustGram(t, dd)
	for _, maxM := range []int{0, 16} {
		streamed, err := MeasureIncoherence(dd, maxM)
		if err != nil {
			t.Fatal(err)
		}
		read, err := MeasureIncoherence(gd, maxM)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(read.Coherence-streamed.Coherence) > 1e-15 {
			t.Errorf("maxM = %d: μ = %v from the Gram matrix, %v streamed", maxM, read.Coherence, streamed.Coherence)
		}
		for size := 1; size <= maxM; size++ {
			a, _ := read.Babel(size)
			b, _ := streamed.Babel(size)
			if math.Abs(a-b) > 1e-14 {
				t.Errorf("μ₁(D, %d) = %v from the Gram matrix, %v streamed", size, a, b)
			}
		}
	}
}

// fwCase is one Frank-Wolfe problem for the comparisons of the Gram search with the plain one.
type fwCase struct {
	name   string
	m      *mat.Dense
	y      []float64
	radius float64
	rule   StepRule
	iters  int
}

// fwCases are problems on which the two searches must agree: sparse signals down to the
// rounding floor (Tolerance 0, so the last iterations chase rounding), both step rules, atoms of
// very different norms, a large signal, a dense signal that converges slowly, exact ties (the
// rotated spikes and Hadamard atoms, duplicated atoms) and a zero atom.
func fwCases(t *testing.T) []fwCase {
	t.Helper()
	rng := rand.New(rand.NewPCG(60, 61))
	var cases []fwCase
	sparse := func(name string, m *mat.Dense, sparsity int, scale float64, rule StepRule, iters int) {
		y, _, coef := sparseSignal(rng, m, sparsity)
		l1 := 0.0
		for i := range y {
			y[i] *= scale
		}
		for _, c := range coef {
			l1 += math.Abs(c) * scale
		}
		cases = append(cases, fwCase{name, m, y, 8 * l1, rule, iters})
	}
	g := gaussianMatrix(rng, 60, 200)
	for _, s := range []int{1, 3, 8, 30} {
		sparse(fmt.Sprintf("gaussian/m=%d", s), g, s, 1, StepLineSearch, 400)
	}
	sparse("gaussian/open loop", g, 5, 1, StepOpenLoop, 300)
	sparse("gaussian/large y", g, 5, 1e12, StepLineSearch, 300)
	scaled := scaledGaussian(rng, 60, 200, 1, 1e3, 1e-3)
	sparse("norms 1e-3 to 1e3", scaled, 6, 1, StepLineSearch, 300)
	dense := make([]float64, 60)
	for i := range dense {
		dense[i] = rng.NormFloat64()
	}
	cases = append(cases, fwCase{"dense signal", g, dense, 50, StepLineSearch, 300})
	sparse("spikes and Hadamard", spikesAndHadamard(rng, 32), 2, 1, StepLineSearch, 200)
	dup := mat.NewDense(60, 201, nil)
	dup.Slice(0, 60, 0, 200).(*mat.Dense).Copy(g)
	dup.Slice(0, 60, 200, 201).(*mat.Dense).Copy(g.Slice(0, 60, 7, 8))
	zero := mat.NewDense(60, 201, nil)
	zero.Slice(0, 60, 1, 201).(*mat.Dense).Copy(g)
	sparse("duplicated atom", dup, 4, 1, StepLineSearch, 300)
	y := make([]float64, 60)
	for i := range y {
		y[i] = g.At(i, 7) - 0.5*g.At(i, 90)
	}
	cases = append(cases, fwCase{"duplicated atom in the signal", dup, y, 12, StepLineSearch, 300})
	sparse("zero atom", zero, 4, 1, StepOpenLoop, 200)
	return cases
}

// TestFrankWolfeGramSameResults: on every case, Frank-Wolfe on the GramDictionary returns the
// plain search's result bit for bit (atoms, correlations, steps, residual norms, coefficients,
// residual and stop), and on the Gaussian cases the bounds decide every search while the residual
// is above 10⁻⁹‖y‖ (the Gram search is used, not bypassed; below, near the rounding floor, it may
// hand searches to the plain one).
func TestFrankWolfeGramSameResults(t *testing.T) {
	type attempt struct {
		rNorm       float64
		plainBefore int
	}
	var last *gramSearch
	var attempts []attempt
	observeGramSearch = func(g *gramSearch, _ []float64, rNorm float64) {
		last = g
		attempts = append(attempts, attempt{rNorm, g.plain})
	}
	t.Cleanup(func() { observeGramSearch = nil })
	for _, c := range fwCases(t) {
		dd := mustDense(t, c.m)
		opts := Options{MaxIterations: c.iters}
		want, err := FrankWolfe(dd, c.y, c.radius, c.rule, opts)
		if err != nil {
			t.Fatal(c.name, err)
		}
		plain, err := FrankWolfe(withoutScreen(dd), c.y, c.radius, c.rule, opts)
		if err != nil {
			t.Fatal(c.name, err)
		}
		last, attempts = nil, nil
		got, err := FrankWolfe(mustGram(t, dd), c.y, c.radius, c.rule, opts)
		if err != nil {
			t.Fatal(c.name, err)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(plain, want) {
			t.Errorf("%s: the Gram search changed the result (%d and %d steps, stops %v and %v)", c.name, len(got.Steps), len(want.Steps), got.Stop, want.Stop)
			continue
		}
		if last == nil {
			t.Errorf("%s: the Gram search never screened", c.name)
			continue
		}
		// An attempt was handed to the plain search when the count of plain searches grew
		// before the next attempt (or the end).
		highest := 0.0 // the largest ‖r‖/‖y‖ of a search handed to the plain one
		for i, a := range attempts {
			next := last.plain
			if i+1 < len(attempts) {
				next = attempts[i+1].plainBefore
			}
			if next > a.plainBefore {
				highest = max(highest, a.rNorm/want.SignalNorm)
			}
		}
		t.Logf("%s: %d steps (%v), %d searches decided by the bounds, %d plain (the highest at ‖r‖ = %.2g‖y‖)",
			c.name, len(got.Steps), got.Stop, last.screened, last.plain, highest)
		if strings.HasPrefix(c.name, "gaussian") && highest > 1e-9 {
			t.Errorf("%s: a search at ‖r‖ = %.2g‖y‖ was handed to the plain search", c.name, highest)
		}
	}
}

// TestGramSearchBounds checks the rigorous bound itself at every screened iteration of every
// case: |c̃_j − ĉ_j| ≤ B_j for every atom j, where ĉ_j is the plain search's correlation with the
// residual searched (the derivation is in gramSearch's documentation). It also reports how
// conservative the bound is.
func TestGramSearchBounds(t *testing.T) {
	var worst float64
	var checked int
	var failures int
	observeGramSearch = func(g *gramSearch, r []float64, _ float64) {
		for j := range g.gd.n {
			exact := dot(g.gd.atom(j), r)
			diff := math.Abs((g.b[j] - g.z[j]) - exact)
			if diff > g.bound[j] && failures < 5 {
				failures++
				t.Errorf("atom %d: |c̃ − ĉ| = %g > B = %g (c̃ = %v, ĉ = %v)", j, diff, g.bound[j], g.b[j]-g.z[j], exact)
			}
			if g.bound[j] > 0 {
				worst = max(worst, diff/g.bound[j])
			}
			checked++
		}
	}
	t.Cleanup(func() { observeGramSearch = nil })
	for _, c := range fwCases(t) {
		if _, err := FrankWolfe(mustGram(t, mustDense(t, c.m)), c.y, c.radius, c.rule, Options{MaxIterations: c.iters}); err != nil {
			t.Fatal(c.name, err)
		}
	}
	if checked == 0 {
		t.Fatal("no screened search")
	}
	t.Logf("%d correlations checked; the largest error is %.2g of its bound", checked, worst)
}

// TestGramDictionaryWithoutMatrix: a GramDictionary assembled by hand without its matrix, and
// the zero one, are their DenseDictionary (or refused like the zero DenseDictionary).
func TestGramDictionaryWithoutMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	m := gaussianMatrix(rng, 20, 50)
	dd := mustDense(t, m)
	y, _, _ := sparseSignal(rng, m, 3)
	want, err := FrankWolfe(dd, y, 10, StepLineSearch, Options{MaxIterations: 50})
	if err != nil {
		t.Fatal(err)
	}
	got, err := FrankWolfe(&GramDictionary{DenseDictionary: *dd}, y, 10, StepLineSearch, Options{MaxIterations: 50})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("no Gram matrix: %v; want the DenseDictionary's result", err)
	}
	if _, err := FrankWolfe(&GramDictionary{}, y, 10, StepLineSearch, Options{MaxIterations: 5}); err == nil {
		t.Error("zero GramDictionary: want an error")
	}
	if _, err := MeasureIncoherence(&GramDictionary{}, 1); err == nil {
		t.Error("zero GramDictionary: want an error from MeasureIncoherence")
	}
}
