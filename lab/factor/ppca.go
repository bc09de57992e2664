package factor

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// PPCA is a fitted probabilistic PCA model x = μ + W·t + noise, t ~ N(0, I_q), noise ~ N(0, σ²I_d).
type PPCA struct {
	Mean   []float64  // d column means μ of the training data (the ML estimate)
	W      *mat.Dense // d×q loading matrix
	Sigma2 float64    // noise variance σ²
	// LogLikelihood holds the log-likelihood of the training data, −N/2·(d·ln 2π + ln|C| +
	// tr(C⁻¹S)) with C = WWᵀ + σ²I, at the starting point and after each EM iteration: it never
	// decreases.
	LogLikelihood []float64
}

// FitPPCA fits probabilistic PCA with q components to the N rows of X (N×d) by the EM algorithm
// of Tipping and Bishop (1999, eqs. 27–28 in terms of the sample covariance S):
//
//	M = WᵀW + σ²I,  W' = SW·(σ²I + M⁻¹WᵀSW)⁻¹,  σ²' = tr(S − SW·M⁻¹W'ᵀ)/d,
//
// the "iterative" or "Bayesian" PCA of the student slides: q is fixed, not inferred.
// EM converges to the maximum-likelihood solution W = U_q(Λ_q − σ²I)^{1/2}R (U_q, Λ_q the
// leading eigenvectors and eigenvalues of S, R an arbitrary rotation) with σ² the mean of the
// d − q discarded eigenvalues; convergence is linear, at a rate set by the eigengap around λ_q.
// W starts Gaussian (from rng, scaled by √(tr S/d)) and σ² at tr S/d.
//
// S is never formed: SW = Xᵀ(XW − 1·μᵀW)/N costs one product with X and one with Xᵀ, so X may be
// a *[csr.Matrix] that is never densified nor centred. σ² is kept at least 10⁻¹² tr S/d, so data
// lying in a q-dimensional subspace do not make M singular.
// Errors: nil/empty X, NaN or ±Inf, N < 2, q outside [1, d−1], iterations < 0, nil rng, data with
// no variance, a computation that overflows. Cost per iteration: O(q·nnz(X) + (N + d)·q²) time;
// memory O((N + d)·q) beside X.
func FitPPCA(rng *rand.Rand, X mat.Matrix, q, iterations int) (*PPCA, error) {
	return FitPPCAContext(context.Background(), rng, X, q, iterations)
}

// FitPPCAContext is [FitPPCA] that gives up with ctx's error (wrapped) once ctx is done: it looks
// before each EM iteration, so it returns within about one iteration's time. When it returns a
// model it is FitPPCA's, bit for bit. A nil ctx is an error.
func FitPPCAContext(ctx context.Context, rng *rand.Rand, X mat.Matrix, q, iterations int) (*PPCA, error) {
	const op = "FitPPCA"
	if err := ctxcheck.NotNil(ctx, "factor: "+op); err != nil {
		return nil, err
	}
	o, err := newOperator(op, "X", X)
	if err != nil {
		return nil, err
	}
	n, d := o.rows, o.cols
	switch {
	case n < 2:
		return nil, fmt.Errorf("factor: %s: X has %d row, want at least 2", op, n)
	case q < 1 || q >= d:
		return nil, fmt.Errorf("factor: %s: q = %d, want 1 ≤ q < d = %d (σ² is the variance left outside q dimensions)", op, q, d)
	case iterations < 0:
		return nil, fmt.Errorf("factor: %s: iterations = %d, want ≥ 0", op, iterations)
	case rng == nil:
		return nil, laberr.Errorf(laberr.ErrNilRand, "factor: %s: rng is nil", op)
	}
	if err := o.checkWork(op, q); err != nil {
		return nil, err
	}
	mean, centred := o.columnStats()
	traceS := centred / float64(n)
	if !(traceS > 0) || math.IsInf(traceS, 0) {
		return nil, fmt.Errorf("factor: %s: the total variance of X is %g, want a positive finite one", op, traceS)
	}
	floor := 1e-12 * traceS / float64(d)
	w := mat.NewDense(d, q, nil)
	fillGaussian(rng, w)
	w.Scale(math.Sqrt(traceS/float64(d)), w)
	sigma2 := traceS / float64(d)
	model := &PPCA{Mean: mean, W: w}
	xw := mat.NewDense(n, q, nil)
	sw := mat.NewDense(d, q, nil)
	for it := 0; ; it++ {
		if err := ctxcheck.Done(ctx, "factor: "+op); err != nil {
			return nil, err
		}
		if err := o.mul(xw, w); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		centreProducts(xw, mean, w)
		if err := o.mulT(sw, xw); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		sw.Scale(1/float64(n), sw)
		var m, wsw, minvWSW mat.Dense
		m.Mul(w.T(), w)
		addDiagonal(&m, sigma2)
		var chol mat.Cholesky
		if !chol.Factorize(mat.NewSymDense(q, m.RawMatrix().Data)) {
			return nil, fmt.Errorf("factor: %s: M = WᵀW + σ²I is not positive definite at iteration %d", op, it)
		}
		wsw.Mul(w.T(), sw)
		if err := chol.SolveTo(&minvWSW, &wsw); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		// ln|C| = (d − q)·ln σ² + ln|M| and tr(C⁻¹S) = (tr S − tr(M⁻¹WᵀSW))/σ².
		ll := -0.5 * float64(n) * (float64(d)*math.Log(2*math.Pi) + float64(d-q)*math.Log(sigma2) +
			chol.LogDet() + (traceS-mat.Trace(&minvWSW))/sigma2)
		model.LogLikelihood = append(model.LogLikelihood, ll)
		if math.IsNaN(ll) || math.IsInf(ll, 0) {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "factor: %s: the log-likelihood is %g at iteration %d: the computation overflows; rescale X", op, ll, it)
		}
		if it == iterations {
			break
		}
		// W' = SW·(σ²I + M⁻¹WᵀSW)⁻¹, solved as (σ²I + M⁻¹WᵀSW)ᵀ·W'ᵀ = SWᵀ.
		inner := mat.DenseCopyOf(&minvWSW)
		addDiagonal(inner, sigma2)
		var next mat.Dense
		if err := next.Solve(inner.T(), sw.T()); err != nil {
			return nil, fmt.Errorf("factor: %s: the M-step system is singular at iteration %d: %w", op, it, err)
		}
		w.Copy(next.T())
		// σ²' = (tr S − tr(M⁻¹W'ᵀSW))/d.
		var wtsw, minv mat.Dense
		wtsw.Mul(w.T(), sw)
		if err := chol.SolveTo(&minv, &wtsw); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		sigma2 = max((traceS-mat.Trace(&minv))/float64(d), floor)
	}
	model.Sigma2 = sigma2
	return model, finiteResult(op, w)
}

// Transform returns the posterior means E[t | x] = M⁻¹Wᵀ(x − μ) of the latent coordinates of the
// rows of X (m×d, dense or a *[csr.Matrix], not centred in memory), an m×q matrix.
// Errors: an unfitted model, nil/empty X, NaN or ±Inf, a column count other than the training
// one. Cost: O(q·nnz(X) + m·q²) time, O(m·q) memory.
func (p *PPCA) Transform(X mat.Matrix) (*mat.Dense, error) {
	const op = "PPCA.Transform"
	if p == nil || p.W == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "factor: %s: the model is not fitted (make it with FitPPCA)", op)
	}
	o, err := newOperator(op, "X", X)
	if err != nil {
		return nil, err
	}
	d, q := p.W.Dims()
	if o.cols != d {
		return nil, laberr.Errorf(laberr.ErrShape, "factor: %s: X has %d columns but the model was fitted on %d", op, o.cols, d)
	}
	if err := o.checkWork(op, q); err != nil {
		return nil, err
	}
	xw := mat.NewDense(o.rows, q, nil)
	if err := o.mul(xw, p.W); err != nil {
		return nil, fmt.Errorf("factor: %s: %w", op, err)
	}
	centreProducts(xw, p.Mean, p.W)
	var m mat.Dense
	m.Mul(p.W.T(), p.W)
	addDiagonal(&m, p.Sigma2)
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(q, m.RawMatrix().Data)) {
		return nil, fmt.Errorf("factor: %s: M = WᵀW + σ²I is not positive definite", op)
	}
	// (M⁻¹WᵀXcᵀ)ᵀ = Xc·W·M⁻¹ (M symmetric).
	var out mat.Dense
	if err := chol.SolveTo(&out, xw.T()); err != nil {
		return nil, fmt.Errorf("factor: %s: %w", op, err)
	}
	res := mat.DenseCopyOf(out.T())
	return res, finiteResult(op, res)
}

// centreProducts turns X·W into (X − 1μᵀ)·W by subtracting μᵀW from every row.
func centreProducts(xw *mat.Dense, mean []float64, w *mat.Dense) {
	_, q := w.Dims()
	shift := make([]float64, q)
	for j := range shift {
		shift[j] = floats.Dot(mean, mat.Col(nil, j, w))
	}
	r, _ := xw.Dims()
	for i := range r {
		floats.Sub(xw.RawRowView(i), shift)
	}
}

// addDiagonal adds s to the diagonal of the square matrix m.
func addDiagonal(m *mat.Dense, s float64) {
	r, _ := m.Dims()
	for i := range r {
		m.Set(i, i, m.At(i, i)+s)
	}
}
