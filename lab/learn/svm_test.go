package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// svmAlphas returns α (zero off the support) from the model's support indices and dual
// coefficients y_i α_i, with the ±1 codes y of the n training points.
func svmAlphas(m *SVM, n int) (alpha, signs []float64) {
	alpha, signs = make([]float64, n), make([]float64, n)
	for r, i := range m.SupportIndices() {
		alpha[i] = math.Abs(m.DualCoefficients()[r])
		signs[i] = math.Copysign(1, m.DualCoefficients()[r])
	}
	return alpha, signs
}

// svmBruteDecision returns Σ_s coef_s k(x, sv_s) + b for each row x of z, with k.Eval pair by
// pair over the training rows the model names as support vectors.
func svmBruteDecision(k kernel.Kernel, m *SVM, train, z *mat.Dense) []float64 {
	alpha := make([]float64, train.RawMatrix().Rows)
	for r, i := range m.SupportIndices() {
		alpha[i] = m.DualCoefficients()[r]
	}
	f := brutePredict(k, train, z, alpha)
	for i := range f {
		f[i] += m.Bias()
	}
	return f
}

// svmNoisyProblem draws n points in d dimensions, labelled by the sign of x_0 + x_1² − 1 with a
// fraction of labels flipped, so that the classes overlap and every kind of dual variable occurs.
func svmNoisyProblem(rng *rand.Rand, n, d int, flip float64) (*mat.Dense, []float64) {
	x := randomMatrix(rng, n, d)
	y := make([]float64, n)
	for i := range n {
		y[i] = 1
		if x.At(i, 0)+x.At(i, 1)*x.At(i, 1)-1 < 0 {
			y[i] = -1
		}
		if rng.Float64() < flip {
			y[i] = -y[i]
		}
	}
	return x, y
}

// TestSVMHardMarginClosedForm builds two point sets whose facing hull faces lie on the lines
// u·(x−c) = ±1 and overlap along them: the maximal-margin separator is then u·(x−c) = 0, so with
// the linear kernel and a large C the SVM must find w = Σ y_i α_i x_i = u, b = −u·c, margin 1
// (‖w‖ = 1) and the dual value ½‖w‖² = ½; only points on the two lines may be support vectors.
func TestSVMHardMarginClosedForm(t *testing.T) {
	u := [2]float64{0.6, 0.8}
	v := [2]float64{-0.8, 0.6}
	c := [2]float64{1, -2}
	type point struct{ extra, along float64 }
	positives := []point{{0, -1}, {0, 1}, {0.5, 3}, {2, 0}, {1, -2}}
	negatives := []point{{0, 0}, {0, 2}, {1, 1}, {3, -1}, {0.2, 4}}
	var data, y []float64
	var onMargin []bool
	add := func(p point, sign float64) {
		dist := sign * (1 + p.extra)
		data = append(data, c[0]+dist*u[0]+p.along*v[0], c[1]+dist*u[1]+p.along*v[1])
		y = append(y, sign)
		onMargin = append(onMargin, p.extra == 0)
	}
	for _, p := range positives {
		add(p, 1)
	}
	for _, p := range negatives {
		add(p, -1)
	}
	x := mat.NewDense(len(y), 2, data)
	for _, tol := range []float64{0, 1e-9} { // the default ε = 1e-3, then a tight one
		m, err := FitSVM(kernel.Linear{}, x, y, SVMOptions{C: 1000, Tol: tol})
		if err != nil {
			t.Fatal(err)
		}
		if !m.Converged() {
			t.Fatalf("tol %g: not converged after %d iterations", tol, m.Iterations())
		}
		var w [2]float64
		for r, i := range m.SupportIndices() {
			if !onMargin[i] {
				t.Errorf("tol %g: point %d, off the margin, is a support vector", tol, i)
			}
			w[0] += m.DualCoefficients()[r] * x.At(i, 0)
			w[1] += m.DualCoefficients()[r] * x.At(i, 1)
		}
		want := 1e-6 // the tight tolerance
		if tol == 0 {
			want = 2e-3 // violations of at most ε = 1e-3 move w and b by O(ε)
		}
		if d := math.Hypot(w[0]-u[0], w[1]-u[1]); d > want {
			t.Errorf("tol %g: w = %v, want %v (distance %g)", tol, w, u, d)
		}
		if b, wantB := m.Bias(), -(u[0]*c[0] + u[1]*c[1]); math.Abs(b-wantB) > want {
			t.Errorf("tol %g: b = %g, want %g", tol, b, wantB)
		}
		if obj := m.DualObjective(); math.Abs(obj-0.5) > want {
			t.Errorf("tol %g: dual objective %g, want ½‖w‖² = 0.5", tol, obj)
		}
	}
}

// TestSVMKKTConditions checks the optimality conditions of the dual on random overlapping
// problems, for several kernels (product and pair-by-pair rows), values of C and tolerances:
// 0 ≤ α ≤ C, Σ y_i α_i = 0, and with f recomputed by Eval, y_i f(x_i) ≥ 1 − ε where α_i = 0,
// |y_i f(x_i) − 1| ≤ ε where 0 < α_i < C, y_i f(x_i) ≤ 1 + ε where α_i = C.
func TestSVMKKTConditions(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	gauss, _ := kernel.NewGaussian(0.8)
	laplace, _ := kernel.NewLaplace(1.5)
	poly, _ := kernel.NewPolynomial(2, 0.5, 1)
	kernels := []kernel.Kernel{gauss, &gauss, laplace, kernel.Linear{}, poly}
	for trial, k := range kernels {
		x, y := svmNoisyProblem(rng, 80, 3, 0.1)
		for _, c := range []float64{0.1, 1, 30} {
			for _, tol := range []float64{1e-3, 1e-6} {
				m, err := FitSVM(k, x, y, SVMOptions{C: c, Tol: tol})
				if err != nil {
					t.Fatal(err)
				}
				if !m.Converged() {
					t.Errorf("%s C=%g tol=%g: not converged", k.Name(), c, tol)
					continue
				}
				alpha, _ := svmAlphas(m, len(y))
				var balance float64
				for i, a := range alpha {
					if a < 0 || a > c {
						t.Errorf("%s C=%g: α_%d = %g outside [0, C]", k.Name(), c, i, a)
					}
					balance += y[i] * a
				}
				if math.Abs(balance) > 1e-10*c*float64(len(y)) {
					t.Errorf("%s C=%g: Σ y_i α_i = %g, want 0", k.Name(), c, balance)
				}
				f := svmBruteDecision(k, m, x, x)
				got, err := m.Decision(x)
				if err != nil {
					t.Fatal(err)
				}
				if d := maxAbsDiff(got, f); d > 1e-9*(1+c) {
					t.Errorf("%s C=%g: Decision differs from the kernel sum by %g", k.Name(), c, d)
				}
				kinds := checkMargins(t, k.Name(), m, y, f, c, tol)
				if trial == 0 && c == 1 && (kinds[0] == 0 || kinds[1] == 0 || kinds[2] == 0) {
					t.Errorf("%s C=%g: α at 0, free, at C: %v; the test wants all three kinds", k.Name(), c, kinds)
				}
			}
		}
	}
}

// checkMargins checks the margin conditions of the KKT system with the decision values f:
// y_i f_i ≥ 1 − ε where α_i = 0, |y_i f_i − 1| ≤ ε where 0 < α_i < C, y_i f_i ≤ 1 + ε where
// α_i = C. It returns how many α_i are at 0, free and at C.
func checkMargins(t *testing.T, name string, m *SVM, y, f []float64, c, tol float64) [3]int {
	t.Helper()
	alpha, _ := svmAlphas(m, len(y))
	slack := tol * (1 + 1e-9)
	var kinds [3]int
	for i, a := range alpha {
		margin := y[i] * f[i]
		switch {
		case a == 0:
			kinds[0]++
			if margin < 1-slack {
				t.Errorf("%s C=%g tol=%g: α_%d = 0 but y f = %g < 1 − ε", name, c, tol, i, margin)
			}
		case a == c:
			kinds[2]++
			if margin > 1+slack {
				t.Errorf("%s C=%g tol=%g: α_%d = C but y f = %g > 1 + ε", name, c, tol, i, margin)
			}
		default:
			kinds[1]++
			if math.Abs(margin-1) > slack {
				t.Errorf("%s C=%g tol=%g: 0 < α_%d < C but y f = %g ≠ 1 ± ε", name, c, tol, i, margin)
			}
		}
	}
	return kinds
}

// TestSVMDegenerateData fits problems whose Q is singular: repeated points with both labels
// (curvature 0 in the two-variable step, replaced by τ), two points, and the linear kernel on
// collinear points. The solver must stay in the box, converge and satisfy the margin conditions.
func TestSVMDegenerateData(t *testing.T) {
	gauss, _ := kernel.NewGaussian(1)
	for _, c := range []struct {
		name string
		k    kernel.Kernel
		x    *mat.Dense
		y    []float64
	}{
		{"duplicates with both labels", gauss, mat.NewDense(6, 1, []float64{0, 0, 0, 1, 1, 2}), []float64{1, -1, 1, -1, 1, -1}},
		{"two points", gauss, mat.NewDense(2, 1, []float64{0, 1}), []float64{1, -1}},
		{"collinear, linear kernel", kernel.Linear{}, mat.NewDense(5, 2, []float64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}), []float64{-1, -1, 1, -1, 1}},
	} {
		for _, C := range []float64{0.5, 100} {
			m, err := FitSVM(c.k, c.x, c.y, SVMOptions{C: C})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if !m.Converged() {
				t.Errorf("%s C=%g: not converged", c.name, C)
				continue
			}
			checkMargins(t, c.name, m, c.y, svmBruteDecision(c.k, m, c.x, c.x), C, 1e-3)
		}
	}
}

// TestSVMIndependentOfWorkers fits a problem larger than one kernel-row chunk with one and with
// two goroutines: the fits must be identical.
func TestSVMIndependentOfWorkers(t *testing.T) {
	x, y := svmNoisyProblem(rand.New(rand.NewPCG(91, 92)), svmRowChunk+500, 2, 0.05)
	gauss, _ := kernel.NewGaussian(1)
	fit := func(procs int) *SVM {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		m, err := FitSVM(gauss, x, y, SVMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	one, two := fit(1), fit(2)
	if one.Bias() != two.Bias() || !slices.Equal(one.DualCoefficients(), two.DualCoefficients()) {
		t.Error("the fit depends on the number of goroutines")
	}
}

// bruteDualQP solves min ½αᵀQα − Σα, yᵀα = 0, 0 ≤ α ≤ C exactly by enumerating the 3ⁿ ways to
// put each α_i at 0, at C or free, solving the equality-constrained KKT system
// [Q_FF y_F; y_Fᵀ 0][α_F; ν] = [1 − C Q_FU 1; −C y_Uᵀ1] for each, and keeping the best feasible
// point. The problem is convex, so the best feasible stationary point of a face is the optimum. It
// returns α, the objective and ν (the bias b of the decision function when some α_i is free).
func bruteDualQP(q *mat.Dense, y []float64, c float64) (best []float64, bestObj, bias float64) {
	n := len(y)
	bestObj = math.Inf(1)
	state := make([]int, n) // 0: at 0, 1: free, 2: at C
	for {
		var free []int
		alpha := make([]float64, n)
		for i, s := range state {
			switch s {
			case 1:
				free = append(free, i)
			case 2:
				alpha[i] = c
			}
		}
		nu, feasible := 0.0, true
		if len(free) == 0 {
			var balance float64
			for i, a := range alpha {
				balance += y[i] * a
			}
			feasible = math.Abs(balance) < 1e-12
		} else {
			f := len(free)
			a := mat.NewDense(f+1, f+1, nil)
			rhs := mat.NewVecDense(f+1, nil)
			var atC float64
			for i, a := range alpha {
				atC += y[i] * a
			}
			for r, i := range free {
				for s, j := range free {
					a.Set(r, s, q.At(i, j))
				}
				a.Set(r, f, y[i])
				a.Set(f, r, y[i])
				v := 1.0
				for j := range n {
					v -= q.At(i, j) * alpha[j]
				}
				rhs.SetVec(r, v)
			}
			rhs.SetVec(f, -atC)
			var sol mat.VecDense
			if err := sol.SolveVec(a, rhs); err != nil {
				feasible = false
			} else {
				for r, i := range free {
					alpha[i] = sol.AtVec(r)
					if alpha[i] < 0 || alpha[i] > c {
						feasible = false
					}
				}
				nu = sol.AtVec(f)
			}
		}
		if feasible {
			obj := 0.0
			for i := range n {
				obj += alpha[i]
				for j := range n {
					obj -= 0.5 * alpha[i] * q.At(i, j) * alpha[j]
				}
			}
			// Maximising Σα − ½αᵀQα: keep the largest value.
			if -obj < bestObj {
				best, bestObj, bias = alpha, -obj, nu
			}
		}
		i := 0
		for i < n && state[i] == 2 {
			state[i] = 0
			i++
		}
		if i == n {
			return best, -bestObj, bias
		}
		state[i]++
	}
}

// TestSVMMatchesBruteForceDual compares the SMO solution with the exact dual optimum of tiny
// problems found by active-set enumeration: the dual value to 1e-6 relative, α (unique, Q being
// positive definite for the Gaussian kernel on distinct points) and b.
func TestSVMMatchesBruteForceDual(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	gauss, _ := kernel.NewGaussian(1)
	free := 0
	for trial := range 6 {
		n := 6 + trial%3
		x, y := svmNoisyProblem(rng, n, 2, 0.2)
		if !slices.Contains(y, 1) || !slices.Contains(y, -1) {
			y[0] = -y[1]
		}
		c := []float64{0.3, 1, 5}[trial%3]
		q := mat.NewDense(n, n, nil)
		for i := range n {
			for j := range n {
				q.Set(i, j, y[i]*y[j]*gauss.Eval(x.RawRowView(i), x.RawRowView(j)))
			}
		}
		wantAlpha, wantObj, wantBias := bruteDualQP(q, y, c)
		m, err := FitSVM(gauss, x, y, SVMOptions{C: c, Tol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(m.DualObjective()-wantObj) / math.Abs(wantObj); rel > 1e-6 {
			t.Errorf("trial %d: dual objective %.12g, brute force %.12g (relative %g)", trial, m.DualObjective(), wantObj, rel)
		}
		alpha, _ := svmAlphas(m, n)
		if d := maxAbsDiff(alpha, wantAlpha); d > 1e-6 {
			t.Errorf("trial %d: α = %v, brute force %v", trial, alpha, wantAlpha)
		}
		if slices.ContainsFunc(wantAlpha, func(a float64) bool { return a > 1e-6 && a < c-1e-6 }) {
			free++
			if d := math.Abs(m.Bias() - wantBias); d > 1e-6 {
				t.Errorf("trial %d: b = %g, brute force %g", trial, m.Bias(), wantBias)
			}
		}
	}
	if free < 3 {
		t.Errorf("only %d problems had a free α: the bias check needs more", free)
	}
}

// TestSVMXOR solves XOR on the corners (±1, ±1) with a Gaussian kernel. By symmetry every α is
// equal and b = 0, so y_i f(x_i) = α(1 − e^{−4γ})² (two neighbours at squared distance 4 with the
// other label, the opposite corner at 8 with the same one): α = 1/(1 − e^{−4γ})² when that is
// below C (all on the margin) and α = C otherwise.
func TestSVMXOR(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 1, -1, -1, 1, -1, -1, 1})
	y := []float64{1, 1, -1, -1}
	gauss, _ := kernel.NewGaussian(1)
	e := math.Exp(-4 * gauss.Gamma())
	hard := 1 / ((1 - e) * (1 - e))
	for _, c := range []float64{10, 1} {
		m, err := FitSVM(gauss, x, y, SVMOptions{C: c, Tol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		want := min(hard, c)
		alpha, _ := svmAlphas(m, 4)
		for i, a := range alpha {
			if math.Abs(a-want) > 1e-9 {
				t.Errorf("C=%g: α_%d = %.12g, want %.12g", c, i, a, want)
			}
		}
		if math.Abs(m.Bias()) > 1e-9 {
			t.Errorf("C=%g: b = %g, want 0", c, m.Bias())
		}
		pred, err := m.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pred, y) {
			t.Errorf("C=%g: predictions %v, want %v", c, pred, y)
		}
		if c == 1 {
			f, _ := m.Decision(x)
			for i := range f {
				if math.Abs(y[i]*f[i]-c*(1-e)*(1-e)) > 1e-9 {
					t.Errorf("C=1: y f(x_%d) = %g, want C(1 − e^{−4γ})² = %g", i, y[i]*f[i], c*(1-e)*(1-e))
				}
			}
		}
	}
}

// TestSVMNoisyXOR learns XOR from four Gaussian clouds (σ = 0.3 around the corners, labels 0/1)
// and classifies fresh draws: the Bayes error is below 0.1% (a point crosses an axis with
// probability Φ(−1/0.3) ≈ 4e-4), so the accuracy must be high.
func TestSVMNoisyXOR(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	draw := func(n int) (*mat.Dense, []float64) {
		x := mat.NewDense(n, 2, nil)
		y := make([]float64, n)
		for i := range n {
			a, b := float64(2*(i%2)-1), float64(2*((i/2)%2)-1)
			x.Set(i, 0, a+0.3*rng.NormFloat64())
			x.Set(i, 1, b+0.3*rng.NormFloat64())
			if a == b {
				y[i] = 1
			}
		}
		return x, y
	}
	xTrain, yTrain := draw(200)
	xTest, yTest := draw(1000)
	gauss, _ := kernel.NewGaussian(0.7)
	m, err := FitSVM(gauss, xTrain, yTrain, SVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if neg, pos := m.Classes(); neg != 0 || pos != 1 {
		t.Errorf("classes %g, %g, want 0, 1", neg, pos)
	}
	pred, err := m.Predict(xTest)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := Accuracy(yTest, pred)
	if err != nil {
		t.Fatal(err)
	}
	if acc < 0.99 {
		t.Errorf("test accuracy %g, want ≥ 0.99", acc)
	}
}

// TestSVMLabelCoding fits the same problem with labels ±1, {3, 7} and {7, 3} (roles swapped): the
// first two give the same model exactly; swapping the roles negates the decision function.
func TestSVMLabelCoding(t *testing.T) {
	x, y := svmNoisyProblem(rand.New(rand.NewPCG(41, 42)), 60, 2, 0.1)
	recode := func(neg, pos float64) []float64 {
		out := make([]float64, len(y))
		for i, v := range y {
			out[i] = neg
			if v > 0 {
				out[i] = pos
			}
		}
		return out
	}
	gauss, _ := kernel.NewGaussian(1)
	opts := SVMOptions{C: 2, Tol: 1e-8}
	base, err := FitSVM(gauss, x, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	f0, _ := base.Decision(x)
	same, err := FitSVM(gauss, x, recode(3, 7), opts)
	if err != nil {
		t.Fatal(err)
	}
	f1, _ := same.Decision(x)
	if !slices.Equal(f0, f1) || same.Bias() != base.Bias() {
		t.Error("labels {3, 7} give a different model from ±1")
	}
	pred, _ := same.Predict(x)
	predBase, _ := base.Predict(x)
	for i := range pred {
		if (pred[i] == 7) != (predBase[i] == 1) || (pred[i] != 3 && pred[i] != 7) {
			t.Fatalf("prediction %d: %g with labels {3, 7}, %g with ±1", i, pred[i], predBase[i])
		}
	}
	swapped, err := FitSVM(gauss, x, recode(7, 3), opts)
	if err != nil {
		t.Fatal(err)
	}
	f2, _ := swapped.Decision(x)
	for i := range f2 {
		if math.Abs(f2[i]+f0[i]) > 1e-6 {
			t.Fatalf("swapped labels: f(x_%d) = %g, want −%g", i, f2[i], f0[i])
		}
	}
}

// TestRowCacheLRU follows a request sequence through a cache of three rows: hits return the
// stored row, misses compute it, and the least recently used row is the one evicted.
func TestRowCacheLRU(t *testing.T) {
	var computed []int
	c := newRowCache(6, 3, func(i int, dst []float64) error {
		computed = append(computed, i)
		for j := range dst {
			dst[j] = float64(10*i + j)
		}
		return nil
	})
	requests := []int{0, 1, 2, 0, 3, 1, 0, 4, 2, 3}
	// LRU state after each request (most recent first) → misses: 0 1 2 (hit 0) 3 evicts 1, 1
	// evicts 2, (hit 0), 4 evicts 3, 2 evicts 1, 3 evicts 0.
	want := []int{0, 1, 2, 3, 1, 4, 2, 3}
	for _, i := range requests {
		row, err := c.row(i)
		if err != nil {
			t.Fatal(err)
		}
		if row[0] != float64(10*i) || row[5] != float64(10*i+5) {
			t.Fatalf("row %d = %v", i, row)
		}
	}
	if !slices.Equal(computed, want) {
		t.Errorf("computed rows %v, want %v", computed, want)
	}
	boom := errors.New("boom")
	failing := newRowCache(4, 2, func(int, []float64) error { return boom })
	if _, err := failing.row(1); !errors.Is(err, boom) {
		t.Errorf("fill error: got %v", err)
	}
	if failing.slotOf[1] != -1 {
		t.Error("a row whose fill failed is cached")
	}
}

func TestCacheRows(t *testing.T) {
	for _, c := range []struct {
		mib  float64
		n    int
		want int
	}{
		{100, 5000, 2621}, // 100·2²⁰ / (8·5000) = 2621.44
		{100, 10, 10},
		{1e-9, 10, 2},
		{1, 2, 2},
		{0.5, 65536, 2}, // 1 row of 512 KiB fits, but two are needed
	} {
		if got := cacheRows(c.mib, c.n); got != c.want {
			t.Errorf("cacheRows(%g, %d) = %d, want %d", c.mib, c.n, got, c.want)
		}
	}
}

// TestKernelRowsMatchEval compares the rows the solver uses with Eval pair by pair, over more
// than one chunk, for the product path (Gaussian, linear) and the pair-by-pair one (Laplace).
func TestKernelRowsMatchEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	n := svmRowChunk + 37
	x := randomMatrix(rng, n, 3)
	gauss, _ := kernel.NewGaussian(1.1)
	laplace, _ := kernel.NewLaplace(2)
	dst := make([]float64, n)
	for _, k := range []kernel.Kernel{gauss, &gauss, kernel.Linear{}, laplace} {
		rows := newKernelRows(k, x)
		for _, i := range []int{0, 5, n - 1} {
			rows.fill(i, dst)
			for j, v := range dst {
				want := k.Eval(x.RawRowView(i), x.RawRowView(j))
				if math.Abs(v-want) > 1e-13*(1+math.Abs(want)) {
					t.Fatalf("%s: row %d, column %d: %g, Eval %g", k.Name(), i, j, v, want)
				}
			}
		}
	}
}

// TestSVMCacheSizeDoesNotChangeFit fits with the whole Gram matrix cached and with a two-row
// cache that recomputes rows all the time: the arithmetic is the same, so the fits are identical.
func TestSVMCacheSizeDoesNotChangeFit(t *testing.T) {
	x, y := svmNoisyProblem(rand.New(rand.NewPCG(61, 62)), 150, 3, 0.1)
	gauss, _ := kernel.NewGaussian(1)
	big, err := FitSVM(gauss, x, y, SVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	small, err := FitSVM(gauss, x, y, SVMOptions{CacheMiB: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if big.Iterations() != small.Iterations() || big.Bias() != small.Bias() ||
		!slices.Equal(big.SupportIndices(), small.SupportIndices()) ||
		!slices.Equal(big.DualCoefficients(), small.DualCoefficients()) {
		t.Error("a two-row cache changes the fit")
	}
}

// TestSVMMaxIter stops a fit after one iteration: a model comes back, marked not converged.
func TestSVMMaxIter(t *testing.T) {
	x, y := svmNoisyProblem(rand.New(rand.NewPCG(71, 72)), 50, 2, 0.1)
	gauss, _ := kernel.NewGaussian(1)
	m, err := FitSVM(gauss, x, y, SVMOptions{MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Converged() || m.Iterations() != 1 || m.NumSupportVectors() != 2 {
		t.Errorf("MaxIter 1: converged %v after %d iterations with %d support vectors, want false, 1, 2",
			m.Converged(), m.Iterations(), m.NumSupportVectors())
	}
	full, err := FitSVM(gauss, x, y, SVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !full.Converged() || full.Iterations() < 2 {
		t.Errorf("default options: converged %v after %d iterations", full.Converged(), full.Iterations())
	}
}

// nanKernel is a kernel defined outside lab/kernel that breaks down off the diagonal.
type nanKernel struct{}

func (nanKernel) Eval(x, z []float64) float64 {
	if slices.Equal(x, z) {
		return 1
	}
	return math.NaN()
}
func (nanKernel) Name() string { return "nan" }

func TestSVMErrors(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := []float64{-1, -1, 1, 1}
	g, _ := kernel.NewGaussian(1)
	var nilDense *mat.Dense
	var nilGauss *kernel.Gaussian
	cases := []struct {
		name string
		k    kernel.Kernel
		x    mat.Matrix
		y    []float64
		opts SVMOptions
	}{
		{"nil kernel", nil, x, y, SVMOptions{}},
		{"nil *Gaussian", nilGauss, x, y, SVMOptions{}},
		{"bad kernel", kernel.Gaussian{Sigma: 0}, x, y, SVMOptions{}},
		{"NaN kernel values", nanKernel{}, x, y, SVMOptions{}},
		{"nil X", g, nil, y, SVMOptions{}},
		{"nil *Dense", g, nilDense, y, SVMOptions{}},
		{"empty X", g, &mat.Dense{}, y, SVMOptions{}},
		{"NaN in X", g, mat.NewDense(4, 1, []float64{0, math.NaN(), 2, 3}), y, SVMOptions{}},
		{"short y", g, x, y[:3], SVMOptions{}},
		{"NaN in y", g, x, []float64{-1, math.NaN(), 1, 1}, SVMOptions{}},
		{"Inf in y", g, x, []float64{-1, math.Inf(1), 1, 1}, SVMOptions{}},
		{"one class", g, x, []float64{2, 2, 2, 2}, SVMOptions{}},
		{"three classes", g, x, []float64{0, 1, 2, 1}, SVMOptions{}},
		{"C < 0", g, x, y, SVMOptions{C: -1}},
		{"C NaN", g, x, y, SVMOptions{C: math.NaN()}},
		{"C Inf", g, x, y, SVMOptions{C: math.Inf(1)}},
		{"Tol < 0", g, x, y, SVMOptions{Tol: -1e-3}},
		{"Tol NaN", g, x, y, SVMOptions{Tol: math.NaN()}},
		{"MaxIter < 0", g, x, y, SVMOptions{MaxIter: -1}},
		{"CacheMiB < 0", g, x, y, SVMOptions{CacheMiB: -1}},
		{"CacheMiB Inf", g, x, y, SVMOptions{CacheMiB: math.Inf(1)}},
	}
	for _, c := range cases {
		if _, err := FitSVM(c.k, c.x, c.y, c.opts); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitSVMContext(ctx, g, x, y, SVMOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: got %v", err)
	}
	var nilCtx context.Context
	if _, err := FitSVMContext(nilCtx, g, x, y, SVMOptions{}); err == nil {
		t.Error("nil context: no error")
	}
	m, err := FitSVM(g, x, y, SVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for name, z := range map[string]mat.Matrix{
		"wrong columns": mat.NewDense(2, 2, nil),
		"Inf":           mat.NewDense(1, 1, []float64{math.Inf(1)}),
		"empty":         &mat.Dense{},
		"nil":           nil,
	} {
		if _, err := m.Decision(z); err == nil {
			t.Errorf("Decision %s: no error", name)
		}
		if _, err := m.Predict(z); err == nil {
			t.Errorf("Predict %s: no error", name)
		}
	}
}

// TestSVMAccessorsAreCopies checks that the returned slices do not alias the model.
func TestSVMAccessorsAreCopies(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 1, -1, -1, 1, -1, -1, 1})
	gauss, _ := kernel.NewGaussian(1)
	m, err := FitSVM(gauss, x, []float64{1, 1, -1, -1}, SVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.SupportIndices()[0] = 99
	m.DualCoefficients()[0] = 99
	if m.SupportIndices()[0] == 99 || m.DualCoefficients()[0] == 99 {
		t.Error("accessors return the model's own slices")
	}
}

// svmBlobs draws n points in d dimensions from two unit-variance Gaussian blobs centred at ±0.5
// in every coordinate (Bayes error Φ(−√d/2), 5.7% for d = 10), half of them labelled +1.
func svmBlobs(rng *rand.Rand, n, d int) (*mat.Dense, []float64) {
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		y[i] = float64(2*(i%2) - 1)
		for j := range d {
			x.Set(i, j, 0.5*y[i]+rng.NormFloat64())
		}
	}
	return x, y
}

// BenchmarkFitSVM is the size of the performance goal: n = 5000 points in d = 10 dimensions from
// two overlapping Gaussian blobs, C = 1, Gaussian kernel σ = √d, default tolerance and cache (the
// whole Gram matrix would need 191 MiB; 100 MiB hold 2621 rows).
func BenchmarkFitSVM(b *testing.B) {
	const n, d = 5000, 10
	x, y := svmBlobs(rand.New(rand.NewPCG(81, 82)), n, d)
	gauss, err := kernel.NewGaussian(math.Sqrt(d))
	if err != nil {
		b.Fatal(err)
	}
	var m *SVM
	for b.Loop() {
		m, err = FitSVM(gauss, x, y, SVMOptions{C: 1})
		if err != nil {
			b.Fatal(err)
		}
	}
	if !m.Converged() {
		b.Fatalf("not converged after %d iterations", m.Iterations())
	}
	b.ReportMetric(float64(m.Iterations()), "iterations")
	b.ReportMetric(float64(m.NumSupportVectors()), "SVs")
}

// BenchmarkSVMPredict scores 5000 fresh points with the model of BenchmarkFitSVM and reports its
// accuracy (the Bayes accuracy is Φ(√10/2) = 94.3%).
func BenchmarkSVMPredict(b *testing.B) {
	const n, d = 5000, 10
	rng := rand.New(rand.NewPCG(81, 82))
	x, y := svmBlobs(rng, n, d)
	test, yTest := svmBlobs(rng, n, d)
	gauss, _ := kernel.NewGaussian(math.Sqrt(d))
	m, err := FitSVM(gauss, x, y, SVMOptions{C: 1})
	if err != nil {
		b.Fatal(err)
	}
	var pred []float64
	for b.Loop() {
		if pred, err = m.Predict(test); err != nil {
			b.Fatal(err)
		}
	}
	acc, err := Accuracy(yTest, pred)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(acc, "accuracy")
}
