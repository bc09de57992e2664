package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

func randomMatrix(rng *rand.Rand, r, c int) *mat.Dense {
	x := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

func randomVector(rng *rand.Rand, n int) []float64 {
	y := make([]float64, n)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	return y
}

// brutePredict returns Σ_i α_i k(x, x_i) for each row x of z, with k.Eval pair by pair.
func brutePredict(k kernel.Kernel, train, z *mat.Dense, alpha []float64) []float64 {
	m, _ := z.Dims()
	n, _ := train.Dims()
	out := make([]float64, m)
	for a := range m {
		for i := range n {
			out[a] += alpha[i] * k.Eval(z.RawRowView(a), train.RawRowView(i))
		}
	}
	return out
}

func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// TestKRRClosedForm compares α with (K + ridge·I)⁻¹ y from a dense LU solve of a Gram matrix
// built with Eval, for both ridge scalings, and the predictions with the representer sum.
func TestKRRClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 6
	x, y, z := randomMatrix(rng, n, 2), randomVector(rng, n), randomMatrix(rng, 4, 2)
	g, err := kernel.NewGaussian(1.3)
	if err != nil {
		t.Fatal(err)
	}
	const lambda = 0.1
	for _, c := range []struct {
		scaling RidgeScaling
		ridge   float64
	}{{RidgeAbsolute, lambda}, {RidgePerSample, lambda * n}} {
		a := mat.NewDense(n, n, nil)
		for i := range n {
			for j := range n {
				a.Set(i, j, g.Eval(x.RawRowView(i), x.RawRowView(j)))
			}
			a.Set(i, i, a.At(i, i)+c.ridge)
		}
		var want mat.VecDense
		if err := want.SolveVec(a, mat.NewVecDense(n, y)); err != nil {
			t.Fatal(err)
		}
		m, err := FitKRRScaled(g, x, y, lambda, c.scaling)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(m.Coefficients(), want.RawVector().Data); d > 1e-10 {
			t.Errorf("%v: α differs from the dense solve by %g", c.scaling, d)
		}
		got, err := m.Predict(z)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(got, brutePredict(g, x, z, want.RawVector().Data)); d > 1e-10 {
			t.Errorf("%v: predictions differ from Σ α_i k(x, x_i) by %g", c.scaling, d)
		}
	}
}

// TestKRRSmallRidgeInterpolates uses the identity K α = y - λα: training residuals are λα and
// vanish as λ → 0, and λ = 0 interpolates exactly (to rounding) on a well-conditioned Gram.
func TestKRRSmallRidgeInterpolates(t *testing.T) {
	const n = 10
	x := mat.NewDense(n, 1, nil)
	for i := range n {
		x.Set(i, 0, float64(i)) // spacing 1, σ = 0.5: K is diagonally dominant
	}
	y := randomVector(rand.New(rand.NewPCG(3, 4)), n)
	g, _ := kernel.NewGaussian(0.5)
	prev := math.Inf(1)
	for _, lambda := range []float64{1e-1, 1e-3, 1e-6, 0} {
		m, err := FitKRR(g, x, y, lambda)
		if err != nil {
			t.Fatal(err)
		}
		fit, err := m.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		alpha := m.Coefficients()
		var worst float64
		for i := range n {
			residual := y[i] - fit[i]
			if d := math.Abs(residual - lambda*alpha[i]); d > 1e-12 {
				t.Errorf("λ=%g: residual %d = %g, want λα_i = %g", lambda, i, residual, lambda*alpha[i])
			}
			worst = max(worst, math.Abs(residual))
		}
		if worst >= prev {
			t.Errorf("λ=%g: max residual %g did not shrink from %g", lambda, worst, prev)
		}
		prev = worst
	}
	if prev > 1e-12 {
		t.Errorf("λ=0: max training residual %g, want interpolation", prev)
	}
}

// TestKRRLinearKernelIsRidgeRegression: with k(x, z) = <x, z>, Xα with α = (XXᵀ + λI)⁻¹y gives
// the primal ridge weights w = (XᵀX + λI)⁻¹Xᵀy.
func TestKRRLinearKernelIsRidgeRegression(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d, lambda = 20, 3, 0.5
	x, y, z := randomMatrix(rng, n, d), randomVector(rng, n), randomMatrix(rng, 7, d)
	var a mat.Dense
	a.Mul(x.T(), x)
	for j := range d {
		a.Set(j, j, a.At(j, j)+lambda)
	}
	var xty, w, want mat.VecDense
	xty.MulVec(x.T(), mat.NewVecDense(n, y))
	if err := w.SolveVec(&a, &xty); err != nil {
		t.Fatal(err)
	}
	want.MulVec(z, &w)
	m, err := FitKRR(kernel.Linear{}, x, y, lambda)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Predict(z)
	if err != nil {
		t.Fatal(err)
	}
	if diff := maxAbsDiff(got, want.RawVector().Data); diff > 1e-10 {
		t.Errorf("linear-kernel KRR differs from primal ridge regression by %g", diff)
	}
}

// TestKRRPredictInBlocks predicts more rows than one cross-kernel block holds.
func TestKRRPredictInBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 64
	x, y := randomMatrix(rng, n, 2), randomVector(rng, n)
	const crossBlockElements = 1 << 18 // the largest block of kernel.CrossBlocks
	rows := 2*(crossBlockElements/n) + 3
	z := randomMatrix(rng, rows, 2)
	l, _ := kernel.NewLaplace(2)
	m, err := FitKRR(l, x, y, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Predict(z)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(got, brutePredict(l, x, z, m.Coefficients())); d > 1e-10 {
		t.Errorf("blocked predictions differ from the representer sum by %g", d)
	}
}

func TestKRRCoefficientsIsACopy(t *testing.T) {
	m, err := FitKRR(kernel.Linear{}, mat.NewDense(2, 1, []float64{1, 2}), []float64{1, 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Coefficients()
	c[0] = 1e9
	if m.Coefficients()[0] == 1e9 {
		t.Error("Coefficients exposes the model's storage")
	}
}

func TestKRRErrors(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	y := []float64{1, 2, 3}
	g, _ := kernel.NewGaussian(1)
	fits := []struct {
		name    string
		k       kernel.Kernel
		x       mat.Matrix
		y       []float64
		lambda  float64
		scaling RidgeScaling
	}{
		{"λ < 0", g, x, y, -1, RidgeAbsolute},
		{"λ NaN", g, x, y, math.NaN(), RidgeAbsolute},
		{"λ Inf", g, x, y, math.Inf(1), RidgeAbsolute},
		{"short y", g, x, y[:2], 1, RidgeAbsolute},
		{"NaN in y", g, x, []float64{1, math.NaN(), 3}, 1, RidgeAbsolute},
		{"NaN in X", g, mat.NewDense(3, 1, []float64{0, math.NaN(), 2}), y, 1, RidgeAbsolute},
		{"nil X", g, nil, y, 1, RidgeAbsolute},
		{"nil kernel", nil, x, y, 1, RidgeAbsolute},
		{"bad kernel", kernel.Gaussian{Sigma: -1}, x, y, 1, RidgeAbsolute},
		{"unknown scaling", g, x, y, 1, RidgeScaling(7)},
		{"singular K, λ = 0", kernel.Linear{}, x, y, 0, RidgeAbsolute},
	}
	for _, c := range fits {
		if _, err := FitKRRScaled(c.k, c.x, c.y, c.lambda, c.scaling); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	m, err := FitKRR(g, x, y, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for name, z := range map[string]mat.Matrix{
		"wrong columns": mat.NewDense(2, 2, nil),
		"Inf":           mat.NewDense(1, 1, []float64{math.Inf(1)}),
		"empty":         &mat.Dense{},
	} {
		if _, err := m.Predict(z); err == nil {
			t.Errorf("Predict %s: no error", name)
		}
	}
}
