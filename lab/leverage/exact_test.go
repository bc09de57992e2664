package leverage

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/blocked"
	"github.com/fastkernels/kernellab/lab/kernel"
)

// Two points with k(x1, x2) = a: K = [[1, a], [a, 1]] has eigenvalues 1 ± a with eigenvectors
// (1, ±1)/√2, so both scores are ((1+a)/(1+a+λ) + (1−a)/(1−a+λ))/2 (eq. 2.2 by hand).
func TestExactTwoPointsClosedForm(t *testing.T) {
	const sigma, dist, lambda = 1.0, 0.8, 0.5
	x := mat.NewDense(2, 1, []float64{0, dist})
	a := math.Exp(-dist * dist / (2 * sigma * sigma))
	want := ((1+a)/(1+a+lambda) + (1-a)/(1-a+lambda)) / 2
	scores, deff, err := Exact(gaussian(t, sigma), x, lambda, ExactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range scores {
		if math.Abs(l-want) > 1e-14 {
			t.Errorf("l_%d = %.17g, want %.17g", i, l, want)
		}
	}
	if math.Abs(deff-2*want) > 1e-14 {
		t.Errorf("d_eff = %.17g, want %.17g", deff, 2*want)
	}
}

// For the linear kernel K = XXᵀ, the Woodbury identity gives l_i = x_iᵀ(XᵀX + λI)⁻¹x_i, a d×d
// solve that never touches K (the primal ridge leverage score).
func TestExactLinearKernelPrimalForm(t *testing.T) {
	x := randomPoints(3, 40, 5)
	const lambda = 0.3
	scores, deff, err := Exact(kernel.Linear{}, x, lambda, ExactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var xtx mat.SymDense
	xtx.SymOuterK(1, x.T())
	for i := range 5 {
		xtx.SetSym(i, i, xtx.At(i, i)+lambda)
	}
	var chol mat.Cholesky
	if !chol.Factorize(&xtx) {
		t.Fatal("XᵀX + λI not positive definite")
	}
	var want float64
	for i := range 40 {
		row := mat.NewVecDense(5, append([]float64(nil), x.RawRowView(i)...))
		var sol mat.VecDense
		if err := chol.SolveVecTo(&sol, row); err != nil {
			t.Fatal(err)
		}
		li := mat.Dot(row, &sol)
		want += li
		if math.Abs(scores[i]-li) > 1e-12 {
			t.Errorf("l_%d = %.15g, primal form %.15g", i, scores[i], li)
		}
	}
	if math.Abs(deff-want) > 1e-11 {
		t.Errorf("d_eff = %.15g, want %.15g", deff, want)
	}
}

// Exact matches eq. 2.2 (eigendecomposition) and eq. 2.3 (LU inverse) on a brute-force Gram
// matrix, and its d_eff is Σ_j ζ_j/(ζ_j + λ), over several bandwidths and ridges.
func TestExactMatchesEigenAndInverseForms(t *testing.T) {
	x := randomPoints(11, 70, 3)
	for _, sigma := range []float64{0.1, 0.4, 2} {
		k := gaussian(t, sigma)
		K := bruteGram(k, x)
		for _, lambda := range []float64{1e-3, 0.1, 5} {
			scores, deff, err := Exact(k, x, lambda, ExactOptions{})
			if err != nil {
				t.Fatal(err)
			}
			eig, eigDeff := eigenScores(t, K, lambda)
			inv := inverseScores(t, K, lambda)
			if d := maxAbsDiff(scores, eig); d > 1e-10 {
				t.Errorf("σ=%g λ=%g: max |Exact − eq. 2.2| = %.2g", sigma, lambda, d)
			}
			if d := maxAbsDiff(scores, inv); d > 1e-10 {
				t.Errorf("σ=%g λ=%g: max |Exact − eq. 2.3| = %.2g", sigma, lambda, d)
			}
			if math.Abs(deff-eigDeff) > 1e-9 || math.Abs(deff-sum(scores)) > 1e-12 {
				t.Errorf("σ=%g λ=%g: d_eff = %.12g, Σ ζ/(ζ+λ) = %.12g, Σ l_i = %.12g", sigma, lambda, deff, eigDeff, sum(scores))
			}
			for i, l := range scores {
				if l < 0 || l > 1 {
					t.Fatalf("σ=%g λ=%g: l_%d = %g outside [0, 1]", sigma, lambda, i, l)
				}
			}
		}
	}
}

// The route forms U₁₂ with the computed inverse X₁₁ instead of a triangular solve. On badly
// conditioned K + λI (cond up to 10¹¹) its scores must stay as close to eq. 2.2 as those of the
// textbook route, gonum's Cholesky and inverse, are (within a factor of 10).
func TestExactIllConditionedAsAccurateAsCholeskyInverse(t *testing.T) {
	const n = 3*baseOrder + 17
	x := randomPoints(5, n, 5)
	k := gaussian(t, 1)
	K := bruteGram(k, x)
	for _, lambda := range []float64{1e-2, 1e-5, 1e-8} {
		got, _, err := Exact(k, x, lambda, ExactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		eig, _ := eigenScores(t, K, lambda)
		a := mat.NewSymDense(n, nil)
		a.CopySym(K)
		for i := range n {
			a.SetSym(i, i, a.At(i, i)+lambda)
		}
		var chol mat.Cholesky
		var inv mat.SymDense
		if !chol.Factorize(a) || chol.InverseTo(&inv) != nil {
			t.Fatalf("λ=%g: reference Cholesky inverse failed", lambda)
		}
		textbook := make([]float64, n)
		for i := range n {
			textbook[i] = min(1, max(0, 1-lambda*inv.At(i, i)))
		}
		errGot, errTextbook := maxAbsDiff(got, eig), maxAbsDiff(textbook, eig)
		if errGot > 10*errTextbook+1e-13 {
			t.Errorf("λ=%g (cond %.2g): max |Exact − eq. 2.2| = %.2g, textbook Cholesky route %.2g",
				lambda, chol.Cond(), errGot, errTextbook)
		}
	}
}

func TestExactRefusesLargeInputUnlessForced(t *testing.T) {
	x := mat.NewDense(ExactLimit+1, 1, nil)
	_, _, err := Exact(gaussian(t, 1), x, 1, ExactOptions{})
	if err == nil || !strings.Contains(err.Error(), "ExactLimit") {
		t.Fatalf("err = %v, want the ExactLimit refusal", err)
	}
}

func TestExactErrors(t *testing.T) {
	x := randomPoints(1, 5, 2)
	nan := mat.NewDense(2, 1, []float64{0, math.NaN()})
	var nilDense *mat.Dense
	var nilKernel *kernel.Gaussian
	k := gaussian(t, 1)
	for _, tc := range []struct {
		name   string
		k      kernel.Kernel
		x      mat.Matrix
		lambda float64
		want   string
	}{
		{"nil kernel", nil, x, 1, "nil kernel"},
		{"nil kernel pointer", nilKernel, x, 1, "nil kernel"},
		{"nil X", k, nil, 1, "X is nil"},
		{"nil *Dense", k, nilDense, 1, "nil"},
		{"NaN", k, nan, 1, "X[1,0] = NaN"},
		{"zero λ", k, x, 0, "λ = 0"},
		{"negative λ", k, x, -1, "λ = -1"},
		{"infinite λ", k, x, math.Inf(1), "λ = +Inf"},
		{"NaN λ", k, x, math.NaN(), "λ = NaN"},
		{"tiny λ, duplicate points", kernel.Linear{}, mat.NewDense(3, 1, []float64{1, 1, 1}), 1e-300, "not numerically positive definite"},
	} {
		_, _, err := Exact(tc.k, tc.x, tc.lambda, ExactOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// Above baseOrder points the factor's inverse is built recursively, with products split into
// chunks run in parallel: check X = U⁻¹ against the inverse of gonum's Cholesky factor, and the
// scores against eq. 2.3 with an LU inverse, on a size whose halves and chunks are ragged, and
// check that the result does not depend on the number of goroutines.
func TestExactRecursiveMatchesReferences(t *testing.T) {
	const n, lambda = 5*baseOrder + 3*blocked.Align/2 + 7, 0.02
	x := randomPoints(12, n, 4)
	k := gaussian(t, 0.5)
	K := bruteGram(k, x)

	a := mat.NewSymDense(n, nil)
	a.CopySym(K)
	for i := range n {
		a.SetSym(i, i, a.At(i, i)+lambda)
	}
	var ref mat.Cholesky
	if !ref.Factorize(a) {
		t.Fatal("reference Cholesky failed")
	}
	var refX mat.TriDense
	ref.UTo(&refX)
	if err := refX.InverseTri(&refX); err != nil {
		t.Fatal(err)
	}
	raw := a.RawSymmetric()
	if !inverseCholeskyInPlace(square{n: n, stride: raw.Stride, data: raw.Data}) {
		t.Fatal("inverseCholeskyInPlace failed")
	}
	for i := range n {
		for j := i; j < n; j++ {
			got, want := raw.Data[i*raw.Stride+j], refX.At(i, j)
			if d := math.Abs(got - want); d > 1e-9*max(1, math.Abs(want)) {
				t.Fatalf("X[%d,%d] = %.15g, inverse of gonum's U %.15g", i, j, got, want)
			}
		}
	}

	want := inverseScores(t, K, lambda)
	procs := runtime.GOMAXPROCS(1)
	one, _, err := Exact(k, x, lambda, ExactOptions{})
	runtime.GOMAXPROCS(max(procs, 3))
	many, _, err2 := Exact(k, x, lambda, ExactOptions{})
	runtime.GOMAXPROCS(procs)
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	if d := maxAbsDiff(one, want); d > 1e-10 {
		t.Errorf("max |Exact − eq. 2.3| = %.2g", d)
	}
	if !slices.Equal(one, many) {
		t.Errorf("Exact differs between 1 and %d goroutines (max diff %.2g)", max(procs, 3), maxAbsDiff(one, many))
	}
}

// One point: K = [1] for the Gaussian kernel, so every method returns l = 1/(1 + λ).
func TestSinglePointAllMethods(t *testing.T) {
	x := mat.NewDense(1, 3, []float64{0.1, 0.2, 0.3})
	k := gaussian(t, 1)
	const lambda = 0.25
	want := 1 / (1 + lambda)
	rng := rand.New(rand.NewPCG(1, 1))
	exact, deff, err := Exact(k, x, lambda, ExactOptions{})
	if err != nil || math.Abs(exact[0]-want) > 1e-15 || math.Abs(deff-want) > 1e-15 {
		t.Errorf("Exact = %v, %v, %v; want [%v]", exact, deff, err, want)
	}
	dac, err := DAC(rng, k, x, lambda, DACOptions{})
	if err != nil || math.Abs(dac[0]-want) > 1e-15 {
		t.Errorf("DAC = %v, %v; want [%v]", dac, err, want)
	}
	uniform, err := Uniform(rng, k, x, lambda, UniformOptions{})
	if err != nil || math.Abs(uniform[0]-want) > 1e-15 {
		t.Errorf("Uniform = %v, %v; want [%v]", uniform, err, want)
	}
	recursive, _, err := Recursive(rng, k, x, lambda, RecursiveOptions{})
	if err != nil || math.Abs(recursive[0]-want) > 1e-15 {
		t.Errorf("Recursive = %v, %v; want [%v]", recursive, err, want)
	}
	if _, _, err := Recursive(rng, k, x, AdaptiveRidge, RecursiveOptions{Accelerated: true}); err != nil {
		t.Errorf("Recursive (adaptive, accelerated) on one point: %v", err)
	}
}

// Exact against eq. 2.3 with an LU inverse on fuzzed sizes, dimensions, bandwidths and ridges: sizes
// up to 2·baseOrder + 64 cross the recursion's split and its pieces at every offset. λ stays in
// [10⁻³, 10], so that cond(K + λI) ≤ 1 + n/λ and an error of 10⁻⁹ is far above rounding.
func FuzzExactMatchesInverseForm(f *testing.F) {
	f.Add(uint16(1), uint8(1), uint64(1), 1.0, 0.5)
	f.Add(uint16(baseOrder), uint8(3), uint64(2), 0.3, 1e-3)
	f.Add(uint16(baseOrder+1), uint8(2), uint64(3), 2.0, 0.01)
	f.Add(uint16(2*blocked.Align+1), uint8(5), uint64(4), 0.7, 0.1)
	f.Add(uint16(2*baseOrder+63), uint8(8), uint64(5), 1.5, 3.0)
	f.Fuzz(func(t *testing.T, size uint16, dim uint8, seed uint64, sigma, lambda float64) {
		n := 1 + int(size)%(2*baseOrder+64)
		d := 1 + int(dim)%8
		if !(sigma >= 0.05 && sigma <= 20) || !(lambda >= 1e-3 && lambda <= 10) {
			t.Skip("σ outside [0.05, 20] or λ outside [10⁻³, 10]")
		}
		x := randomPoints(seed, n, d)
		k := gaussian(t, sigma)
		got, deff, err := Exact(k, x, lambda, ExactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := inverseScores(t, bruteGram(k, x), lambda)
		if diff := maxAbsDiff(got, want); diff > 1e-9 {
			t.Fatalf("n=%d d=%d σ=%g λ=%g: max |Exact − eq. 2.3| = %.2g", n, d, sigma, lambda, diff)
		}
		if math.Abs(deff-sum(got)) > 1e-9*float64(n) {
			t.Fatalf("d_eff = %.12g, Σ l_i = %.12g", deff, sum(got))
		}
	})
}
