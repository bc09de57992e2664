package pursuit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// incoherentCase is a dictionary with its coherence and the sparsity m* of the recovery
// condition m < (1/μ + 1)/2.
type incoherentCase struct {
	name string
	m    *mat.Dense
	mu   float64
	mMax int
}

// incoherentCases returns the rotated spikes-and-Hadamard dictionary (μ = 1/16, m* = 8) and a
// Gaussian one with its measured coherence.
func incoherentCases(t *testing.T) []incoherentCase {
	t.Helper()
	rng := rand.New(rand.NewPCG(10, 10))
	var out []incoherentCase
	for _, c := range []struct {
		name string
		m    *mat.Dense
	}{{"spikes+Hadamard 256×512", spikesAndHadamard(rng, 256)}, {"Gaussian 400×600", gaussianMatrix(rng, 400, 600)}} {
		inc, err := MeasureIncoherence(mustDense(t, c.m), 0)
		if err != nil {
			t.Fatal(err)
		}
		mMax, err := RecoverySparsity(inc.Coherence)
		if err != nil {
			t.Fatal(err)
		}
		if mMax < 2 {
			t.Fatalf("%s: μ = %g leaves m* = %d, too incoherent a case to test", c.name, inc.Coherence, mMax)
		}
		out = append(out, incoherentCase{c.name, c.m, inc.Coherence, mMax})
	}
	if math.Abs(out[0].mu-1.0/16) > 1e-12 || out[0].mMax != 8 {
		t.Fatalf("spikes+Hadamard: μ = %g, m* = %d, want 1/16 and 8", out[0].mu, out[0].mMax)
	}
	return out
}

// TestOMPRecoversSupportOfIncoherentDictionaries checks Tropp's theorem: with m < (1/μ + 1)/2,
// OMP finds the support of every m-sparse signal in exactly m steps, with its coefficients.
func TestOMPRecoversSupportOfIncoherentDictionaries(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, c := range incoherentCases(t) {
		dd := mustDense(t, c.m)
		for trial := range 10 {
			y, support, coef := sparseSignal(rng, c.m, c.mMax)
			yNorm := norm2(y)
			res, err := OrthogonalMatchingPursuit(dd, y, Options{Tolerance: 1e-10 * yNorm})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Steps) != c.mMax || res.Stop != StopTolerance {
				t.Fatalf("%s trial %d: %d steps, stop %v; want %d steps and the tolerance", c.name, trial, len(res.Steps), res.Stop, c.mMax)
			}
			if !sameSet(res.Atoms, support) {
				t.Fatalf("%s trial %d: atoms %v, support %v", c.name, trial, res.Atoms, support)
			}
			want := map[int]float64{}
			for l, j := range support {
				want[j] = coef[l]
			}
			for l, j := range res.Atoms {
				if math.Abs(res.Coefficients[l]-want[j]) > 1e-9 {
					t.Fatalf("%s trial %d: coefficient of atom %d = %g, want %g", c.name, trial, j, res.Coefficients[l], want[j])
				}
			}
			erc, _, err := ExactRecoveryCondition(dd, support)
			if err != nil || erc >= 1 {
				t.Fatalf("%s trial %d: ERC = %g (%v), want < 1 under m < (1/μ+1)/2", c.name, trial, erc, err)
			}
		}
	}
}

// TestOMPCoefficientsEqualLeastSquares compares every OMP iterate with gonum's QR
// least-squares solution on the same support, on a coherent dictionary and a dense signal.
func TestOMPCoefficientsEqualLeastSquares(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	m := gaussianMatrix(rng, 60, 100)
	y := make([]float64, 60)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	res, err := OrthogonalMatchingPursuit(mustDense(t, m), y, Options{MaxAtoms: 40})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 40 || res.Stop != StopMaxAtoms {
		t.Fatalf("%d steps, stop %v; want 40 and MaxAtoms", len(res.Steps), res.Stop)
	}
	for k, step := range res.Steps {
		want := leastSquares(t, m, res.Atoms[:k+1], y)
		if !closeSlices(step.Coefficients, want, 1e-9) {
			t.Fatalf("step %d: coefficients %v, least squares %v", k, step.Coefficients, want)
		}
		if r := norm2(residualOf(m, res.Atoms[:k+1], want, y)); math.Abs(r-step.ResidualNorm) > 1e-10 {
			t.Fatalf("step %d: residual norm %g, least squares %g", k, step.ResidualNorm, r)
		}
	}
	if !closeSlices(res.Residual, residualOf(m, res.Atoms, res.Coefficients, y), 1e-10) {
		t.Fatal("final residual is not y − D_S x")
	}
}

// naiveOMP is OMP written from its definition: a fresh least-squares solve (gonum QR) per step
// and every correlation recomputed from the explicit residual.
func naiveOMP(t *testing.T, m *mat.Dense, y []float64, steps int) []int {
	_, n := m.Dims()
	var support []int
	r := append([]float64(nil), y...)
	for range steps {
		best, bestValue := -1, -1.0
		for j := range n {
			col := mat.Col(nil, j, m)
			if v := math.Abs(dot(col, r)) / norm2(col); v > bestValue {
				best, bestValue = j, v
			}
		}
		support = append(support, best)
		r = residualOf(m, support, leastSquares(t, m, support, y), y)
	}
	return support
}

func TestOMPMatchesNaiveReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for trial := range 5 {
		m := gaussianMatrix(rng, 30, 50)
		y := make([]float64, 30)
		for i := range y {
			y[i] = rng.NormFloat64()
		}
		want := naiveOMP(t, m, y, 15)
		for _, dict := range []Dictionary{mustDense(t, m), matrixOperator{m: m}} {
			res, err := OrthogonalMatchingPursuit(dict, y, Options{MaxAtoms: 15})
			if err != nil {
				t.Fatal(err)
			}
			for k := range want {
				if res.Atoms[k] != want[k] {
					t.Fatalf("trial %d (%T): atoms %v, naive OMP %v", trial, dict, res.Atoms, want)
				}
			}
		}
	}
}

// bestKTerm returns the smallest residual norm of y over all supports of k atoms (brute force).
func bestKTerm(t *testing.T, m *mat.Dense, y []float64, k int) float64 {
	_, n := m.Dims()
	best := math.Inf(1)
	var rec func(start int, support []int)
	rec = func(start int, support []int) {
		if len(support) == k {
			best = min(best, norm2(residualOf(m, support, leastSquares(t, m, support, y), y)))
			return
		}
		for j := start; j < n; j++ {
			rec(j+1, append(support, j))
		}
	}
	rec(0, nil)
	return best
}

// TestOMPAgainstBruteForce: OMP's k-term residual is never below the best k-term residual found
// by enumerating all supports, equals it for k = 1, and an exactly 2-sparse signal whose support
// satisfies the recovery condition is recovered with residual zero, as brute force finds.
func TestOMPAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	for trial := range 4 {
		m := gaussianMatrix(rng, 6, 9)
		y := make([]float64, 6)
		for i := range y {
			y[i] = rng.NormFloat64()
		}
		res, err := OrthogonalMatchingPursuit(mustDense(t, m), y, Options{MaxAtoms: 4})
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 4; k++ {
			best := bestKTerm(t, m, y, k)
			got := res.Steps[k-1].ResidualNorm
			if got < best-1e-12 || (k == 1 && math.Abs(got-best) > 1e-12) {
				t.Fatalf("trial %d k %d: OMP residual %g, best %d-term %g", trial, k, got, k, best)
			}
		}
	}
	// A 2-sparse signal on a support that satisfies the ERC.
	for {
		m := gaussianMatrix(rng, 6, 9)
		y, support, _ := sparseSignal(rng, m, 2)
		if erc, _, err := ExactRecoveryCondition(mustDense(t, m), support); err != nil || erc >= 1 {
			continue
		}
		res, err := OrthogonalMatchingPursuit(mustDense(t, m), y, Options{MaxAtoms: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !sameSet(res.Atoms, support) || res.ResidualNorm() > 1e-12 || bestKTerm(t, m, y, 2) > 1e-12 {
			t.Fatalf("ERC support %v: OMP atoms %v residual %g", support, res.Atoms, res.ResidualNorm())
		}
		break
	}
}

// TestOMPStopsOnDependentAtom: atoms e1, e2 and c = (e1 + e2 + 10⁻¹³e3)/‖·‖ in ℝ³, y = e1 − e2 +
// e3/2. OMP takes e1 (tie with e2, smaller index), then e2; the residual e3/2 then correlates
// only with c, which lies within 10⁻¹³ of span(e1, e2).
func TestOMPStopsOnDependentAtom(t *testing.T) {
	s := math.Sqrt(2 + 1e-26)
	m := mat.NewDense(3, 3, []float64{1, 0, 1 / s, 0, 1, 1 / s, 0, 0, 1e-13 / s})
	res, err := OrthogonalMatchingPursuit(mustDense(t, m), []float64{1, -1, 0.5}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopDependentAtom || len(res.Atoms) != 2 || res.Atoms[0] != 0 || res.Atoms[1] != 1 {
		t.Fatalf("atoms %v, stop %v; want [0 1] and a dependent atom", res.Atoms, res.Stop)
	}
	if !closeSlices(res.Coefficients, []float64{1, -1}, 1e-15) || math.Abs(res.ResidualNorm()-0.5) > 1e-15 {
		t.Fatalf("coefficients %v residual %g, want [1 −1] and 0.5", res.Coefficients, res.ResidualNorm())
	}
	// Orthonormal basis: d atoms exhaust ℝᵈ and the residual vanishes.
	res, err = OrthogonalMatchingPursuit(mustDense(t, mat.NewDense(2, 2, []float64{0, 1, 1, 0})), []float64{3, 4}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopTolerance || len(res.Atoms) != 2 || res.Atoms[0] != 0 || !closeSlices(res.Vector(), []float64{4, 3}, 0) {
		t.Fatalf("orthonormal basis: atoms %v, α %v, stop %v; want [0 1], [4 3], tolerance", res.Atoms, res.Vector(), res.Stop)
	}
}

// TestSolversIdenticalWithAndWithoutScreen runs every solver on a DenseDictionary with and
// without its 8-bit screen: the selections and coefficients must be bit-identical.
func TestSolversIdenticalWithAndWithoutScreen(t *testing.T) {
	if !screenKernelAvailable {
		t.Skip("no 8-bit kernel on this machine or build")
	}
	rng := rand.New(rand.NewPCG(15, 15))
	m := gaussianMatrix(rng, 120, 300)
	dd := mustDense(t, m)
	y := make([]float64, 120)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	solvers := map[string]func(Dictionary) (*Result, error){
		"MP":    func(d Dictionary) (*Result, error) { return MatchingPursuit(d, y, Options{MaxIterations: 150}) },
		"OMP":   func(d Dictionary) (*Result, error) { return OrthogonalMatchingPursuit(d, y, Options{MaxAtoms: 80}) },
		"NNOMP": func(d Dictionary) (*Result, error) { return NonNegativeOMP(d, y, Options{}) },
		"FW": func(d Dictionary) (*Result, error) {
			return FrankWolfe(d, y, 5, StepLineSearch, Options{MaxIterations: 150})
		},
	}
	for name, solve := range solvers {
		a, err := solve(dd)
		if err != nil {
			t.Fatal(err)
		}
		b, err := solve(withoutScreen(dd))
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Steps) != len(b.Steps) || a.Stop != b.Stop {
			t.Fatalf("%s: %d steps (%v) with the screen, %d (%v) without", name, len(a.Steps), a.Stop, len(b.Steps), b.Stop)
		}
		for k := range a.Steps {
			if a.Steps[k].Atom != b.Steps[k].Atom || a.Steps[k].Correlation != b.Steps[k].Correlation || a.Steps[k].ResidualNorm != b.Steps[k].ResidualNorm {
				t.Fatalf("%s step %d: %+v with the screen, %+v without", name, k, a.Steps[k], b.Steps[k])
			}
		}
		// The operator path computes the same quantities with other roundings.
		c, err := solve(matrixOperator{m: m})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Atoms) != len(a.Atoms) || !closeSlices(c.Coefficients, a.Coefficients, 1e-9) {
			t.Fatalf("%s: operator path gives %d atoms, dense %d (or other coefficients)", name, len(c.Atoms), len(a.Atoms))
		}
	}
}
