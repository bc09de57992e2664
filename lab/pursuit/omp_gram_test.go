package pursuit

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// mustNormal forms the normal equations of m and y.
func mustNormal(t *testing.T, m mat.Matrix, y []float64) *NormalEquations {
	t.Helper()
	ne, err := NewNormalEquations(m, y)
	if err != nil {
		t.Fatal(err)
	}
	return ne
}

// gaussianSignal returns d N(0, 1) values.
func gaussianSignal(rng *rand.Rand, d int) []float64 {
	y := make([]float64, d)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	return y
}

// On tall Gaussian dictionaries (atoms of unequal norms, more rows than atoms: the Gram route's
// use) the Gram route picks the atoms of the naive OMP written from its definition, and after
// every step its coefficients are gonum's QR least squares on the support and its residual norm
// that of y − D_S x, computed from D.
func TestOMPGramMatchesNaiveReferenceAndLeastSquares(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	for trial := range 4 {
		d, n := 200, 40+10*trial
		m := gaussianMatrix(rng, d, n)
		for j := range n { // unequal norms: the selection must normalise
			s := 0.1 + 3*rng.Float64()
			for i := range d {
				m.Set(i, j, s*m.At(i, j))
			}
		}
		y := gaussianSignal(rng, d)
		const steps = 25
		res, err := OrthogonalMatchingPursuitGram(mustNormal(t, m, y), Options{MaxAtoms: steps})
		if err != nil {
			t.Fatal(err)
		}
		if want := naiveOMP(t, m, y, steps); !equalInts(res.Atoms, want) {
			t.Fatalf("trial %d: atoms %v, naive OMP %v", trial, res.Atoms, want)
		}
		if res.Stop != StopMaxAtoms || res.Residual != nil {
			t.Fatalf("trial %d: stop %v, residual %v; want the atom cap and no residual", trial, res.Stop, res.Residual)
		}
		for k, step := range res.Steps {
			want := leastSquares(t, m, res.Atoms[:k+1], y)
			if !closeSlices(step.Coefficients, want, 1e-12) {
				t.Fatalf("trial %d step %d: coefficients %v, least squares %v", trial, k, step.Coefficients, want)
			}
			r := residualOf(m, res.Atoms[:k+1], want, y)
			if got := norm2(r); math.Abs(got-step.ResidualNorm) > 1e-12*norm2(y) {
				t.Fatalf("trial %d step %d: residual norm %.15g, least squares %.15g", trial, k, step.ResidualNorm, got)
			}
			before := y
			if k > 0 {
				before = residualOf(m, res.Atoms[:k], leastSquares(t, m, res.Atoms[:k], y), y)
			}
			if c := dot(mat.Col(nil, step.Atom, m), before); math.Abs(c-step.Correlation) > 1e-11*norm2(y) {
				t.Fatalf("trial %d step %d: correlation %g, want %g", trial, k, step.Correlation, c)
			}
		}
		if res.ResidualNorm() != res.Steps[steps-1].ResidualNorm || !closeSlices(res.Coefficients, res.Steps[steps-1].Coefficients, 0) {
			t.Fatalf("trial %d: final result differs from the last step", trial)
		}
	}
}

// equalInts reports whether a and b are equal.
func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The Gram route and the QR route select the same atoms with the same coefficients (to the
// normal equations' accuracy) on the same problem, and the route through a matrix that is not a
// *mat.Dense (copied first) gives the *mat.Dense route's result bit for bit.
func TestOMPGramAgreesWithQRRoute(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 32))
	m := gaussianMatrix(rng, 500, 120)
	y := gaussianSignal(rng, 500)
	opts := Options{MaxAtoms: 60}
	want, err := OrthogonalMatchingPursuit(mustDense(t, m), y, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := OrthogonalMatchingPursuitGram(mustNormal(t, m, y), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !equalInts(got.Atoms, want.Atoms) || !closeSlices(got.Coefficients, want.Coefficients, 1e-12) {
		t.Fatalf("Gram route atoms %v coefficients %v; QR route %v %v", got.Atoms, got.Coefficients, want.Atoms, want.Coefficients)
	}
	if math.Abs(got.ResidualNorm()-want.ResidualNorm()) > 1e-12*norm2(y) {
		t.Fatalf("residual norms %g and %g", got.ResidualNorm(), want.ResidualNorm())
	}
	var copied mat.Dense
	copied.CloneFrom(m.T())
	viaT, err := OrthogonalMatchingPursuitGram(mustNormal(t, copied.T(), y), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !equalInts(viaT.Atoms, got.Atoms) || !closeSlices(viaT.Coefficients, got.Coefficients, 0) {
		t.Fatal("a transposed view gives another result than the *mat.Dense")
	}
}

// The stopping rules: a residual orthogonal to every atom, or one correlated only with an atom
// within 10⁻⁹ of the span of the selected ones (StopDependentAtom); a zero atom is never
// selected; a signal orthogonal to every atom selects nothing; Tolerance and MaxAtoms.
func TestOMPGramStops(t *testing.T) {
	s := 1 / math.Sqrt(2)
	// Atoms e1, e2, (e1+e2)/√2, 0; y = e1 − e2 + e3/2: e1 (tie with e2, smaller index), then e2,
	// then the residual e3/2 is orthogonal to every atom.
	m := mat.NewDense(3, 4, []float64{1, 0, s, 0, 0, 1, s, 0, 0, 0, 0, 0})
	y := []float64{1, -1, 0.5}
	res, err := OrthogonalMatchingPursuitGram(mustNormal(t, m, y), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Atoms) != 2 || res.Atoms[0] != 0 || res.Atoms[1] != 1 || !closeSlices(res.Coefficients, []float64{1, -1}, 1e-15) ||
		math.Abs(res.ResidualNorm()-0.5) > 1e-15 {
		t.Fatalf("atoms %v coefficients %v residual %g stop %v; want [0 1], [1 −1], 0.5", res.Atoms, res.Coefficients, res.ResidualNorm(), res.Stop)
	}
	if res.Stop != StopResidualOrthogonal && res.Stop != StopDependentAtom {
		t.Fatalf("stop %v, want the residual orthogonal to the dictionary or a dependent atom", res.Stop)
	}
	// y = e1 + 2e2: after e2 then e1 the residual vanishes (tolerance 0 reached).
	res, err = OrthogonalMatchingPursuitGram(mustNormal(t, m, []float64{1, 2, 0}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopTolerance && res.Stop != StopResidualOrthogonal {
		t.Fatalf("y in span(e1, e2): atoms %v stop %v", res.Atoms, res.Stop)
	}
	// c = (e1 + e2 + 10⁻⁹e3)/‖·‖ lies within 10⁻⁹ of span(e1, e2), below what the normal
	// equations resolve (√u): after e1 and e2 the residual e3/2 correlates with c alone.
	eps := 1e-9
	cn := math.Sqrt(2 + eps*eps)
	near := mat.NewDense(3, 3, []float64{1, 0, 1 / cn, 0, 1, 1 / cn, 0, 0, eps / cn})
	res, err = OrthogonalMatchingPursuitGram(mustNormal(t, near, y), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopDependentAtom || !equalInts(res.Atoms, []int{0, 1}) {
		t.Fatalf("nearly dependent atom: atoms %v stop %v; want [0 1] and a dependent atom", res.Atoms, res.Stop)
	}
	// y equals an atom (±1 votes of a tree that predicts every label, as on a data set with a
	// leak): one step fits it exactly, and the rounding noise left in the correlations, whatever
	// its sign, selects nothing more.
	votes := rand.New(rand.NewPCG(35, 35))
	for d := 100; d < 140; d++ {
		v := mat.NewDense(d, 20, nil)
		for i := range d {
			for j := range 20 {
				v.Set(i, j, float64(2*votes.IntN(2)-1))
			}
		}
		res, err = OrthogonalMatchingPursuitGram(mustNormal(t, v, mat.Col(nil, 7, v)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !equalInts(res.Atoms, []int{7}) || res.Stop != StopTolerance || res.ResidualNorm() != 0 || math.Abs(res.Coefficients[0]-1) > 1e-14 {
			t.Fatalf("d = %d, y = d_7: atoms %v stop %v residual %g coefficients %v; want [7], tolerance, 0, [1]", d, res.Atoms, res.Stop, res.ResidualNorm(), res.Coefficients)
		}
	}
	// No atom correlates with y.
	res, err = OrthogonalMatchingPursuitGram(mustNormal(t, m, []float64{0, 0, 1}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Atoms) != 0 || res.Stop != StopResidualOrthogonal || res.ResidualNorm() != 1 {
		t.Fatalf("y ⟂ D: atoms %v stop %v residual %g", res.Atoms, res.Stop, res.ResidualNorm())
	}
	// Tolerance.
	rng := rand.New(rand.NewPCG(33, 33))
	g := gaussianMatrix(rng, 100, 30)
	y = gaussianSignal(rng, 100)
	full, err := OrthogonalMatchingPursuitGram(mustNormal(t, g, y), Options{DropIterates: true})
	if err != nil {
		t.Fatal(err)
	}
	tol := full.Steps[9].ResidualNorm
	res, err = OrthogonalMatchingPursuitGram(mustNormal(t, g, y), Options{Tolerance: tol})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != StopTolerance || len(res.Atoms) != 10 || full.Steps[0].Coefficients != nil {
		t.Fatalf("tolerance %g: %d atoms, stop %v; want 10 and the tolerance (iterates dropped: %v)", tol, len(res.Atoms), res.Stop, full.Steps[0].Coefficients)
	}
	if full.Stop != StopMaxAtoms || len(full.Atoms) != 30 {
		t.Fatalf("full run: %d atoms, stop %v; want all 30", len(full.Atoms), full.Stop)
	}
}

// Duplicate columns (common among the trees of a classification forest): the pursuit never
// selects both copies of an atom, and stops as the QR route does once only copies are left.
func TestOMPGramNeverSelectsBothCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 34))
	base := gaussianMatrix(rng, 80, 10)
	m := mat.NewDense(80, 20, nil)
	for j := range 20 {
		m.SetCol(j, mat.Col(nil, j%10, base))
	}
	y := gaussianSignal(rng, 80)
	res, err := OrthogonalMatchingPursuitGram(mustNormal(t, m, y), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, j := range res.Atoms {
		if seen[j%10] {
			t.Fatalf("atoms %v: both copies of atom %d", res.Atoms, j%10)
		}
		seen[j%10] = true
	}
	if len(res.Atoms) != 10 || (res.Stop != StopDependentAtom && res.Stop != StopResidualOrthogonal) {
		t.Fatalf("atoms %v stop %v; want the 10 distinct atoms, then a dependent atom", res.Atoms, res.Stop)
	}
}

func TestOMPGramErrors(t *testing.T) {
	good := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	bad := mat.NewDense(3, 2, []float64{1, 0, math.NaN(), 1, 1, 1})
	huge := mat.NewDense(3, 2, []float64{1e200, 0, 0, 1, 1, 1})
	var nilDense *mat.Dense
	for _, tc := range []struct {
		name string
		m    mat.Matrix
		y    []float64
		want string
		kind error
	}{
		{"nil", nil, []float64{1, 2, 3}, "nil", nil},
		{"nil dense", nilDense, []float64{1, 2, 3}, "nil", nil},
		{"short y", good, []float64{1, 2}, "len(y)", laberr.ErrShape},
		{"NaN y", good, []float64{1, math.NaN(), 3}, "y[1]", laberr.ErrNonFinite},
		{"NaN D", bad, []float64{1, 2, 3}, "column 0", laberr.ErrNonFinite},
		{"overflow", huge, []float64{1, 2, 3}, "column 0", laberr.ErrNonFinite},
	} {
		_, err := NewNormalEquations(tc.m, tc.y)
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.kind != nil && !errors.Is(err, tc.kind)) {
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
	ne := mustNormal(t, good, []float64{1, 2, 3})
	if _, err := OrthogonalMatchingPursuitGram(nil, Options{}); err == nil {
		t.Error("nil normal equations accepted")
	}
	if _, err := OrthogonalMatchingPursuitGram(&NormalEquations{}, Options{}); err == nil {
		t.Error("zero normal equations accepted")
	}
	if _, err := OrthogonalMatchingPursuitGram(ne, Options{MaxAtoms: -1}); err == nil {
		t.Error("MaxAtoms −1 accepted")
	}
	//lint:ignore SA1012 a nil context is the case under test
	if _, err := OrthogonalMatchingPursuitGramContext(nil, ne, Options{}); err == nil { //nolint:staticcheck
		t.Error("nil context accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := OrthogonalMatchingPursuitGramContext(ctx, ne, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
	if d, n := ne.Dims(); d != 3 || n != 2 {
		t.Errorf("Dims = %d, %d; want 3, 2", d, n)
	}
}
