package kernel

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

const eps = 0x1p-52

// randomMatrix returns an n×d matrix with entries offset + U(-1, 1); a non-zero offset makes
// ||x||² large next to ||x-z||², the hard case for the norms-and-product formula.
func randomMatrix(rng *rand.Rand, n, d int, offset float64) *mat.Dense {
	data := make([]float64, n*d)
	for i := range data {
		data[i] = offset + 2*rng.Float64() - 1
	}
	return mat.NewDense(n, d, data)
}

// intersection is a kernel defined outside the package (histogram intersection), to exercise
// the generic pair-by-pair path.
type intersection struct{}

func (intersection) Eval(x, z []float64) float64 {
	var s float64
	for i := range x {
		s += min(x[i], z[i])
	}
	return s
}
func (intersection) Name() string { return "intersection" }

// reference computes k(x, z) by the textbook pair formula, independently of the package, and
// the tolerance the package's blocked result must meet for that pair:
//   - Gaussian: ||x||² + ||z||² - 2<x,z> carries an absolute error below (2d+4)·ε·(||x||²+||z||²)
//     (each inner product of length d errs by at most d·ε times its sum of |terms|); exp(-γa) is
//     1-Lipschitz in γa ≥ 0, and both exps err by ≤ 2 ulp (< 4ε).
//   - Laplace: the same l1 sum, times 1/σ instead of divided by σ (2 roundings), plus the exps.
//   - Polynomial: the inner product from GEMM and from the pair loop differ by ≤ 2d·ε·Σ|x_l z_l|;
//     b^p moves by p·|b|^(p-1) times that (scaled), plus ~2p roundings of the powers.
//   - Linear: 2d·ε·Σ|x_l z_l|.
//   - other kernels: the package calls Eval itself, so the values must be identical.
func reference(k Kernel, x, z []float64) (value, tol float64) {
	d := float64(len(x))
	var sq, l1, dot, absDot, nx, nz float64
	for l := range x {
		sq += (x[l] - z[l]) * (x[l] - z[l])
		l1 += math.Abs(x[l] - z[l])
		dot += x[l] * z[l]
		absDot += math.Abs(x[l] * z[l])
		nx += x[l] * x[l]
		nz += z[l] * z[l]
	}
	switch kk := k.(type) {
	case Gaussian:
		gamma := 1 / (2 * kk.Sigma * kk.Sigma)
		return math.Exp(-gamma * sq), gamma*(2*d+4)*eps*(nx+nz) + 8*eps
	case Laplace:
		return math.Exp(-l1 / kk.Sigma), 2*eps*l1/kk.Sigma + 8*eps
	case Polynomial:
		base := kk.Scale*dot + kk.Offset
		v := 1.0
		for range kk.Degree {
			v *= base
		}
		p := float64(kk.Degree)
		return v, p*math.Pow(math.Abs(base), p-1)*kk.Scale*2*d*eps*absDot + 4*p*eps*math.Abs(v) + eps
	case Linear:
		return dot, 2*d*eps*absDot + eps
	}
	return k.Eval(x, z), 0
}

var testKernels = []Kernel{
	Gaussian{Sigma: 0.7}, Gaussian{Sigma: 3}, Laplace{Sigma: 1.3},
	Polynomial{Degree: 3, Scale: 0.5, Offset: 1}, Polynomial{Degree: 1, Scale: 2, Offset: 0},
	Linear{}, intersection{},
}

func checkCross(t *testing.T, k Kernel, X, Z *mat.Dense, got mat.Matrix) {
	t.Helper()
	n, _ := X.Dims()
	m, _ := Z.Dims()
	if r, c := got.Dims(); r != n || c != m {
		t.Fatalf("%s: result is %d×%d, want %d×%d", k.Name(), r, c, n, m)
	}
	bad := 0
	for i := range n {
		for j := range m {
			want, tol := reference(k, X.RawRowView(i), Z.RawRowView(j))
			if g := got.At(i, j); math.Abs(g-want) > tol || math.IsNaN(g) {
				if bad++; bad <= 3 {
					t.Errorf("%s: K[%d,%d] = %.17g, pair loop %.17g (tolerance %.2g)", k.Name(), i, j, g, want, tol)
				}
			}
		}
	}
}

func TestGramAndCrossAgainstPairLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	sizes := []struct {
		n, m, d int
		offset  float64
	}{
		{1, 1, 1, 0}, {5, 3, 2, 0}, {17, 9, 7, 3}, {40, 33, 54, 0}, {23, 31, 4, -5},
	}
	for _, s := range sizes {
		X := randomMatrix(rng, s.n, s.d, s.offset)
		Z := randomMatrix(rng, s.m, s.d, s.offset)
		for _, k := range testKernels {
			K, err := Cross(k, X, Z)
			if err != nil {
				t.Fatalf("Cross %s: %v", k.Name(), err)
			}
			checkCross(t, k, X, Z, K)
			G, err := Gram(k, X)
			if err != nil {
				t.Fatalf("Gram %s: %v", k.Name(), err)
			}
			checkCross(t, k, X, X, G)
		}
	}
}

// TestManyBlocks uses outputs larger than one block (2¹⁸ values): Gram with 700 points, Cross
// with 1000×300 (two blocks, the last one short) and 3×300000 (one row per block).
func TestManyBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	X := randomMatrix(rng, 700, 3, 0.5)
	for _, k := range []Kernel{Gaussian{Sigma: 0.4}, Laplace{Sigma: 0.5}, Polynomial{2, 1, 1}} {
		G, err := Gram(k, X)
		if err != nil {
			t.Fatal(err)
		}
		checkCross(t, k, X, X, G)
	}
	A, B := randomMatrix(rng, 1000, 4, 0), randomMatrix(rng, 300, 4, 0)
	K, err := Cross(Gaussian{Sigma: 0.8}, A, B)
	if err != nil {
		t.Fatal(err)
	}
	checkCross(t, Gaussian{Sigma: 0.8}, A, B, K)
	C, D := randomMatrix(rng, 3, 1, 0), randomMatrix(rng, 300000, 1, 0)
	K, err = Cross(Gaussian{Sigma: 0.3}, C, D)
	if err != nil {
		t.Fatal(err)
	}
	checkCross(t, Gaussian{Sigma: 0.3}, C, D, K)
}

func TestGaussianGramDiagonalAndSpectrum(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	X := randomMatrix(rng, 60, 5, 10) // far from the origin: the diagonal must still be 1 exactly
	G, err := Gram(Gaussian{Sigma: 0.9}, X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		if G.At(i, i) != 1 {
			t.Fatalf("K[%d,%d] = %.17g, want exactly 1", i, i, G.At(i, i))
		}
	}
	// A Gaussian Gram is positive semi-definite; computed values are within ~1e-14 of exact ones,
	// so by Weyl's inequality no eigenvalue may be below -n·1e-14.
	var eig mat.EigenSym
	if !eig.Factorize(G, false) {
		t.Fatal("eigen-decomposition failed")
	}
	if lo := eig.Values(nil)[0]; lo < -60*1e-14 {
		t.Fatalf("smallest eigenvalue %g: not positive semi-definite", lo)
	}
}

// TestCrossOfXWithItselfIsGram checks exact equality (and so exact symmetry of Cross(X, X)).
func TestCrossOfXWithItselfIsGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{9, 600} {
		X := randomMatrix(rng, n, 6, 1)
		for _, k := range testKernels {
			G, err := Gram(k, X)
			if err != nil {
				t.Fatal(err)
			}
			K, err := Cross(k, X, X)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				for j := range n {
					if K.At(i, j) != G.At(i, j) {
						t.Fatalf("%s n=%d: Cross[%d,%d] = %.17g, Gram %.17g", k.Name(), n, i, j, K.At(i, j), G.At(i, j))
					}
				}
			}
		}
	}
}

// TestIndependentOfGOMAXPROCS compares results computed with 1 and 4 threads bit for bit, on
// sizes with several blocks (and, for gonum's GEMM, several parallel sub-blocks).
func TestIndependentOfGOMAXPROCS(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	X, Z := randomMatrix(rng, 1200, 20, 0), randomMatrix(rng, 400, 20, 0)
	compute := func(procs int) []*mat.Dense {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []*mat.Dense
		for _, k := range []Kernel{Gaussian{Sigma: 2}, Laplace{Sigma: 3}, Polynomial{2, 0.1, 1}, intersection{}} {
			K, err := Cross(k, X, Z)
			if err != nil {
				t.Fatal(err)
			}
			G, err := Gram(k, Z)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, K, mat.DenseCopyOf(G))
		}
		return out
	}
	one, four := compute(1), compute(4)
	for i := range one {
		if !mat.Equal(one[i], four[i]) {
			t.Fatalf("result %d differs between GOMAXPROCS=1 and 4", i)
		}
	}
}

func TestCrossIntoReusesAndRespectsViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	X, Z := randomMatrix(rng, 8, 3, 0), randomMatrix(rng, 5, 3, 0)
	k := Gaussian{Sigma: 1}
	want, err := Cross(k, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	// Into a view of a larger matrix: the values land in the view, the rest is untouched.
	big := mat.NewDense(10, 9, nil)
	for i := range 10 {
		for j := range 9 {
			big.Set(i, j, -7)
		}
	}
	view := big.Slice(1, 9, 2, 7).(*mat.Dense)
	if err := CrossInto(view, k, X, Z); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		for j := range 9 {
			inside := i >= 1 && i < 9 && j >= 2 && j < 7
			if inside && big.At(i, j) != want.At(i-1, j-2) || !inside && big.At(i, j) != -7 {
				t.Fatalf("element %d,%d = %v after CrossInto into the view", i, j, big.At(i, j))
			}
		}
	}
	// An empty destination is sized; a wrong shape is an error and leaves dst alone.
	var empty mat.Dense
	if err := CrossInto(&empty, k, X, Z); err != nil || !mat.Equal(&empty, want) {
		t.Fatalf("CrossInto(empty): %v", err)
	}
	wrong := mat.NewDense(5, 8, nil)
	if err := CrossInto(wrong, k, X, Z); err == nil || !strings.Contains(err.Error(), "5×8") {
		t.Fatalf("CrossInto with a 5×8 destination: %v", err)
	}
	if mat.Norm(wrong, 1) != 0 {
		t.Fatal("the wrong-shape destination was written")
	}
}

func TestGramIntoReuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	X := randomMatrix(rng, 12, 3, 0)
	k := Laplace{Sigma: 2}
	want, err := Gram(k, X)
	if err != nil {
		t.Fatal(err)
	}
	dst := mat.NewSymDense(12, nil)
	for range 2 {
		if err := GramInto(dst, k, X); err != nil || !mat.Equal(dst, want) {
			t.Fatalf("GramInto into a 12×12 buffer: %v", err)
		}
	}
	var empty mat.SymDense
	if err := GramInto(&empty, k, X); err != nil || !mat.Equal(&empty, want) {
		t.Fatalf("GramInto(empty): %v", err)
	}
	small := mat.NewSymDense(4, nil)
	if err := GramInto(small, k, X); err == nil || !strings.Contains(err.Error(), "4×4") || mat.Norm(small, 1) != 0 {
		t.Fatalf("GramInto with a 4×4 destination: %v", err)
	}
	if err := GramInto(nil, k, X); err == nil {
		t.Fatal("GramInto(nil): no error")
	}
}

func TestNonDenseInputsAndPointerKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	X, Z := randomMatrix(rng, 6, 4, 0), randomMatrix(rng, 7, 4, 0)
	want, err := Cross(Gaussian{Sigma: 1.5}, X, Z)
	if err != nil {
		t.Fatal(err)
	}
	// Xᵀᵀ is a mat.Transpose, not a raw matrix, so it is copied first.
	got, err := Cross(&Gaussian{Sigma: 1.5}, X.T().T(), Z)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(got, want, 1e-15) {
		t.Fatal("Cross on a mat.Transpose differs from Cross on the Dense")
	}
}

func TestDiagonal(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	X := randomMatrix(rng, 9, 3, 0.5)
	for _, k := range testKernels {
		diag, err := Diagonal(k, X)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range diag {
			want, tol := reference(k, X.RawRowView(i), X.RawRowView(i))
			if math.Abs(v-want) > tol {
				t.Errorf("%s: diagonal %d = %v, want %v", k.Name(), i, v, want)
			}
		}
	}
}

func TestInputErrors(t *testing.T) {
	good := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	withNaN := mat.NewDense(3, 2, []float64{1, 2, 3, math.NaN(), 5, 6})
	withInf := mat.NewDense(2, 2, []float64{1, math.Inf(-1), 3, 4})
	threeCols := mat.NewDense(2, 3, nil)
	var nilDense *mat.Dense
	g := Gaussian{Sigma: 1}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"NaN in X", first(Gram(g, withNaN)), "X[1,1] = NaN"},
		{"Inf in Z", first(Cross(g, good, withInf)), "Z[0,1] = -Inf"},
		{"mismatch", first(Cross(g, good, threeCols)), "X has 2 columns but Z has 3"},
		{"σ = 0", first(Gram(Gaussian{}, good)), "sigma = 0"},
		{"σ < 0", first(Cross(Gaussian{Sigma: -1}, good, good)), "sigma = -1"},
		{"Laplace σ NaN", first(Gram(Laplace{Sigma: math.NaN()}, good)), "sigma = NaN"},
		{"polynomial degree 0", first(Gram(Polynomial{Scale: 1}, good)), "degree=0"},
		{"nil kernel", first(Gram(nil, good)), "nil kernel"},
		{"nil *Gaussian", first(Gram((*Gaussian)(nil), good)), "nil kernel"},
		{"nil X", first(Gram(g, nil)), "X is nil"},
		{"nil *mat.Dense", first(Cross(g, good, nilDense)), "Z is a nil *mat.Dense"},
		{"empty X", first(Gram(g, &mat.Dense{})), "X is empty"},
		{"Diagonal NaN", first(Diagonal(g, withNaN)), "NaN"},
		{"Diagonal σ", first(Diagonal(Gaussian{}, good)), "sigma"},
		{"CrossInto nil dst", CrossInto(nil, g, good, good), "nil destination"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, c.err, c.want)
		}
	}
}

// first returns the error of a (value, error) pair.
func first[T any](_ T, err error) error { return err }

func BenchmarkCrossGaussian(b *testing.B) {
	// The size of issue 3: 100000 points against 500 landmarks in 54 dimensions (covtype's
	// width). "new" allocates the 400 MB result each time (Cross), like scikit-learn's rbf_kernel
	// (bench/compare_sklearn.sh compares the two); "into" reuses it (CrossInto), as hot loops should.
	rng := rand.New(rand.NewPCG(1, 1))
	X, Z := randomMatrix(rng, 100000, 54, 0), randomMatrix(rng, 500, 54, 0)
	k := Gaussian{Sigma: 3}
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			if _, err := Cross(k, X, Z); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("into", func(b *testing.B) {
		dst := mat.NewDense(100000, 500, nil)
		if err := CrossInto(dst, k, X, Z); err != nil { // first touch of dst outside the timing
			b.Fatal(err)
		}
		for b.Loop() {
			if err := CrossInto(dst, k, X, Z); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCrossLinear(b *testing.B) {
	// The GEMM part alone (plus validation and the transpose) at the size of
	// BenchmarkCrossGaussian, reported in GFLOP/s (2·n·m·d flops).
	rng := rand.New(rand.NewPCG(1, 1))
	X, Z := randomMatrix(rng, 100000, 54, 0), randomMatrix(rng, 500, 54, 0)
	dst := mat.NewDense(100000, 500, nil)
	if err := CrossInto(dst, Linear{}, X, Z); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := CrossInto(dst, Linear{}, X, Z); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*100000*500*54*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkGram(b *testing.B) {
	// 5000 points in 54 dimensions: "new" allocates the 200 MB result each time (Gram), "into"
	// reuses it (GramInto), as a hot loop should.
	rng := rand.New(rand.NewPCG(1, 1))
	X := randomMatrix(rng, 5000, 54, 0)
	k := Gaussian{Sigma: 3}
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			if _, err := Gram(k, X); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("into", func(b *testing.B) {
		dst := mat.NewSymDense(5000, nil)
		for b.Loop() {
			if err := GramInto(dst, k, X); err != nil {
				b.Fatal(err)
			}
		}
	})
}
