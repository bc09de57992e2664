package slides

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// The student slides compare four factorisations before a learner: the classic SVD,
// the randomized SVD, sparse PCA by ℓ1-penalised alternating least squares and probabilistic
// ("Bayesian", "iterative") PCA by EM. Each keeps the components whose singular values make 70% of
// ‖Σ‖₁ (factor.ComponentsForMass). Experiment 1 (slides_table1, which runs the tasks of
// slides_fig1 and slides_fig2 too) feeds the projections of LFW faces to a KNN that tells the
// admitted people from the others; experiment 2 (slides_table2, whose results slides_table3 shows)
// fits the hard-EM topic model to each factorisation's rank-|Σ̃| reconstruction of a bag of words.

// The factorisations, by their registered plotting names, and the two references.
const (
	methodClassic    = "classic-svd"
	methodRandomized = "randomized-svd"
	methodSparse     = "sparse-pca"
	methodBayesian   = "bayesian-pca"
	methodRaw        = "raw-pixels" // experiment 1: KNN on the pixels, the score's denominator
	methodGuarantor  = "guarantor"  // experiment 2: the topic model on the original counts
)

// factorisation fits one factorisation of A (m×d, dense or *csr.Matrix) at the set-up's sizes.
type factorisation func(rng *rand.Rand, A mat.Matrix, cfg factorSetUp) (*fit, error)

// table is the slides' method table: the factorisations in the slides' row order, with the rows'
// names as the slides print them, then the two references, which fit nothing.
var table = kit.Methods[factorisation]{
	{ID: methodClassic, Label: "ClassicSVD", Run: func(_ *rand.Rand, A mat.Matrix, cfg factorSetUp) (*fit, error) {
		return svdFit(factor.TruncatedSVD(denseOf(A), cfg.components))
	}},
	{ID: methodRandomized, Label: "RandomizedSVD", Run: func(rng *rand.Rand, A mat.Matrix, cfg factorSetUp) (*fit, error) {
		return svdFit(factor.RandomizedSVD(rng, A, cfg.components, factor.RandomizedSVDOptions{Oversample: oversample, PowerIterations: cfg.powerIterations}))
	}},
	{ID: methodSparse, Label: "SparseSVD", Run: func(rng *rand.Rand, A mat.Matrix, cfg factorSetUp) (*fit, error) {
		sp, err := factor.FitSparsePCA(rng, A, cfg.components, factor.SparsePCAOptions{Penalty: cfg.sparsePenalty * frobenius(A), Iterations: cfg.sparseIterations})
		if err != nil {
			return nil, err
		}
		return sparseFit(sp), nil
	}},
	{ID: methodBayesian, Label: "BayesianSVD", Run: func(rng *rand.Rand, A mat.Matrix, cfg factorSetUp) (*fit, error) {
		p, err := factor.FitPPCA(rng, A, cfg.components, cfg.emIterations)
		if err != nil {
			return nil, err
		}
		return ppcaFit(p)
	}},
	{ID: methodRaw, Label: "KNN on raw pixels"},
	{ID: methodGuarantor, Label: "no factorisation (original counts)"},
}

// methodOrder are the factorisations in the slides' row order; labels the rows' names.
var (
	methodOrder = kit.Without(table.IDs(), methodRaw, methodGuarantor)
	labels      = table.Labels()
)

// Metrics shared by both experiments.
const (
	metricFactorTime = "factor_time" // seconds, as factorSetUp.time takes them
	metricComponents = "components"  // |Σ̃|
	metricScore      = "score"
)

// factorSetUp is how every factorisation of one experiment is configured at one scale.
type factorSetUp struct {
	// components is how many components each method computes (the classic SVD is computed in
	// full and truncated); the 70% rule then keeps |Σ̃| ≤ components of them.
	components int
	// powerIterations of the randomized SVD (oversampling is 10, as HMT and scikit-learn use).
	powerIterations int
	// sparsePenalty is λ of sparse PCA relative to ‖A‖_F (λ = sparsePenalty·‖A‖_F: a matrix with
	// its rows and columns repeated then has the repeated solution, see factor.FitSparsePCA);
	// sparseIterations its alternations.
	sparsePenalty    float64
	sparseIterations int
	// emIterations of probabilistic PCA (its number of components is components).
	emIterations int
	// timeCalls is the number of timed calls behind each time (after one untimed warm-up unless
	// cold).
	timeCalls int
	// cold times without the warm-up call (run.TimeMedianCold): at paper scale a factorisation or a
	// topic model with its restarts takes minutes, and a warm-up would double the task.
	cold bool
}

// time times f as the set-up says (run.TimeMedian, or run.TimeMedianCold when cold).
func (s factorSetUp) time(f func() error) (float64, error) {
	if s.cold {
		return run.TimeMedianCold(s.timeCalls, f)
	}
	return run.TimeMedian(s.timeCalls, f)
}

// timing says in a caption how times were taken.
func (s factorSetUp) timing() string {
	calls := fmt.Sprintf("median of %d timed calls", s.timeCalls)
	if s.timeCalls == 1 {
		calls = "one timed call"
	}
	if s.cold {
		return calls + " with no warm-up (run.TimeMedianCold: a call takes minutes at this scale)"
	}
	return calls + " after a warm-up (run.TimeMedian)"
}

// oversample is the randomized SVD's oversampling p (HMT recommend 10).
const oversample = 10

// fit is one fitted factorisation as both experiments use it: its spectrum (what the 70%
// rule reads) and, for its first k components, the projection of a row x to coordinates
// (x − mean)·proj(k) and the reconstruction mean + coordinates·basis(k)ᵀ.
type fit struct {
	values []float64  // decreasing
	mean   []float64  // nil: the method does not centre
	basis  *mat.Dense // d×components, columns in the order of values
	proj   func(k int) (*mat.Dense, error)
}

// kept is |Σ̃|: the components whose values make factor.SlidesSpectrumFraction of their sum.
func (f *fit) kept() (int, error) {
	return factor.ComponentsForMass(f.values, factor.SlidesSpectrumFraction)
}

// coordinates returns (X − 1·meanᵀ)·proj(k), X dense or *csr.Matrix.
func (f *fit) coordinates(X mat.Matrix, k int) (*mat.Dense, error) {
	p, err := f.proj(k)
	if err != nil {
		return nil, err
	}
	r, _ := X.Dims()
	z := mat.NewDense(r, k, nil)
	if s, ok := X.(*csr.Matrix); ok {
		if err := s.MulDense(z, p); err != nil {
			return nil, err
		}
	} else {
		z.Mul(X, p)
	}
	if f.mean != nil {
		shift := mat.NewVecDense(k, nil)
		shift.MulVec(p.T(), mat.NewVecDense(len(f.mean), f.mean))
		for i := range r {
			row := z.RawRowView(i)
			for j := range row {
				row[j] -= shift.AtVec(j)
			}
		}
	}
	return z, nil
}

// fitSlides runs one factorisation of A (m×d, dense or *csr.Matrix; A is used as it is, so centre
// dense data first for PCA proper).
func fitSlides(rng *rand.Rand, method string, A mat.Matrix, cfg factorSetUp) (*fit, error) {
	m, ok := table.Lookup(method)
	if !ok || m.Run == nil {
		return nil, fmt.Errorf("slides: unknown factorisation %q", method)
	}
	return m.Run(rng, A, cfg)
}

// svdFit is the fit of a truncated SVD: its singular values, and its right singular vectors as
// the basis, whose leading k columns project a row.
func svdFit(svd *factor.SVD, err error) (*fit, error) {
	if err != nil {
		return nil, err
	}
	return &fit{values: svd.Values, basis: svd.V, proj: func(k int) (*mat.Dense, error) { return leadingColumns(svd.V, k), nil }}, nil
}

// sparseFit orders sparse PCA's rank-one terms u_j·v_jᵀ by their scale ‖u_j‖·‖v_j‖ (its
// "singular values": there is no Σ, and the terms are not orthogonal) and projects a row on the
// first k loadings by least squares, (x·V_k)(V_kᵀV_k)⁻¹, since they are not orthonormal.
func sparseFit(sp *factor.SparsePCA) *fit {
	d, k := sp.V.Dims()
	scale := make([]float64, k)
	for j := range k {
		scale[j] = mat.Norm(sp.U.ColView(j), 2) * mat.Norm(sp.V.ColView(j), 2)
	}
	order := make([]int, k)
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return scale[order[a]] > scale[order[b]] })
	basis := mat.NewDense(d, k, nil)
	values := make([]float64, k)
	for j, o := range order {
		basis.SetCol(j, mat.Col(nil, o, sp.V))
		values[j] = scale[o]
	}
	return &fit{values: values, basis: basis, proj: func(k int) (*mat.Dense, error) {
		v := leadingColumns(basis, k)
		var gram mat.Dense
		gram.Mul(v.T(), v)
		var chol mat.Cholesky
		if !chol.Factorize(mat.NewSymDense(k, gram.RawMatrix().Data)) {
			return nil, fmt.Errorf("slides: the %d leading sparse loadings are linearly dependent (a zero loading is kept): lower the penalty", k)
		}
		var inv mat.Dense
		if err := chol.SolveTo(&inv, kit.Eye(k)); err != nil {
			return nil, err
		}
		var p mat.Dense
		p.Mul(v, &inv)
		return &p, nil
	}}
}

// ppcaFit turns probabilistic PCA into a spectrum and a projection: with the SVD W = U·S·Rᵀ of
// the loadings, its values are S (the scales of the principal directions the model keeps, whose
// squares are λ_j − σ²), its basis is U·S = W·R and the coordinates of x are the posterior means
// E[t | x] = M⁻¹Wᵀ(x − μ) rotated by R (Transform's, in the frame where the components are ordered),
// so that mean + coordinates·basisᵀ = μ + W·M⁻¹Wᵀ(x − μ) for all q components.
func ppcaFit(p *factor.PPCA) (*fit, error) {
	d, q := p.W.Dims()
	var svd mat.SVD
	if !svd.Factorize(p.W, mat.SVDThin) {
		return nil, fmt.Errorf("slides: the SVD of the %d×%d PPCA loadings did not converge", d, q)
	}
	var r mat.Dense
	svd.VTo(&r)
	values := svd.Values(nil)
	var basis mat.Dense
	basis.Mul(p.W, &r)
	var m mat.Dense
	m.Mul(p.W.T(), p.W)
	for i := range q {
		m.Set(i, i, m.At(i, i)+p.Sigma2)
	}
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(q, m.RawMatrix().Data)) {
		return nil, fmt.Errorf("slides: M = WᵀW + σ²I of the PPCA fit is not positive definite")
	}
	var minvR, proj mat.Dense
	if err := chol.SolveTo(&minvR, &r); err != nil {
		return nil, err
	}
	proj.Mul(p.W, &minvR) // W·M⁻¹·R: (x − μ)ᵀ·W·M⁻¹·R = (Rᵀ·M⁻¹Wᵀ(x − μ))ᵀ
	return &fit{values: values, mean: p.Mean, basis: &basis, proj: func(k int) (*mat.Dense, error) { return leadingColumns(&proj, k), nil }}, nil
}

// leadingColumns is a copy of the first k columns of m.
func leadingColumns(m *mat.Dense, k int) *mat.Dense {
	r, _ := m.Dims()
	return mat.DenseCopyOf(m.Slice(0, r, 0, k))
}

// denseOf is A as a dense matrix: the classic SVD works on dense storage, and densifying a bag of
// words here (rather than in factor.TruncatedSVD, which refuses more than 2²⁶ entries) lets the
// paper scale run it on the whole vocabulary, as the slides did.
func denseOf(A mat.Matrix) *mat.Dense {
	if d, ok := A.(*mat.Dense); ok {
		return d
	}
	r, c := A.Dims()
	d := mat.NewDense(r, c, nil)
	if s, ok := A.(*csr.Matrix); ok {
		for i := range r {
			idx, vals := s.Row(i)
			row := d.RawRowView(i)
			for p, j := range idx {
				row[j] = vals[p]
			}
		}
		return d
	}
	d.Copy(A)
	return d
}

// frobenius is ‖A‖_F for dense or *csr.Matrix A.
func frobenius(A mat.Matrix) float64 {
	if s, ok := A.(*csr.Matrix); ok {
		var ss float64
		r, _ := s.Dims()
		for i := range r {
			_, vals := s.Row(i)
			for _, v := range vals {
				ss += v * v
			}
		}
		return math.Sqrt(ss)
	}
	return mat.Norm(A, 2)
}

// timedFit fits a factorisation of A under cfg.time (one warm-up unless cold, then cfg.timeCalls
// timed calls, every call from a generator seeded alike, so that each call does the same work) and
// returns the last fit, its |Σ̃| and the records of both on dataset: the median time in seconds
// (metricFactorTime) and |Σ̃| (metricComponents).
func timedFit(ctx context.Context, rng *rand.Rand, method string, A mat.Matrix, cfg factorSetUp, dataset string) (*fit, int, []run.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, nil, err
	}
	seed := rng.Uint64()
	var fit *fit
	t, err := cfg.time(func() error {
		var err error
		fit, err = fitSlides(rand.New(rand.NewPCG(seed, 2)), method, A, cfg)
		return err
	})
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s: %w", method, err)
	}
	kept, err := fit.kept()
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s: %w", method, err)
	}
	return fit, kept, []run.Record{
		{Dataset: dataset, Method: method, Metric: metricFactorTime, Value: t},
		{Dataset: dataset, Method: method, Metric: metricComponents, Value: float64(kept)},
	}, nil
}

// values are the values of a metric for one method on one data set, by repetition order.
func values(res *run.Results, dataset, method, metric string) []float64 {
	rows := res.Where(dataset, method, metric)
	slices.SortFunc(rows, func(a, b run.Row) int { return a.Rep - b.Rep })
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = r.Value
	}
	return out
}

// paired returns the values of a metric for methods a and b on a data set, paired by
// repetition; an unpaired repetition, or none, is an error.
func paired(res *run.Results, dataset, metric, a, b string) ([]float64, []float64, error) {
	va, err := kit.PerRep(res.Where(dataset, a, metric))
	if err != nil {
		return nil, nil, err
	}
	vb, err := kit.PerRep(res.Where(dataset, b, metric))
	if err != nil {
		return nil, nil, err
	}
	if len(va) == 0 || len(va) != len(vb) {
		return nil, nil, fmt.Errorf("%s: %s on %s: %d repetitions of %s against %d of %s", res.ID, metric, dataset, len(va), a, len(vb), b)
	}
	reps := make([]int, 0, len(va))
	for r := range va {
		reps = append(reps, r)
	}
	slices.Sort(reps)
	xa, xb := make([]float64, len(reps)), make([]float64, len(reps))
	for i, r := range reps {
		y, ok := vb[r]
		if !ok {
			return nil, nil, fmt.Errorf("%s: %s on %s: repetition %d of %s has no %s to pair with", res.ID, metric, dataset, r, a, b)
		}
		xa[i], xb[i] = va[r], y
	}
	return xa, xb, nil
}

// diff is a − b per repetition (paired).
func diff(res *run.Results, dataset, metric, a, b string) ([]float64, error) {
	xa, xb, err := paired(res, dataset, metric, a, b)
	if err != nil {
		return nil, err
	}
	for i := range xa {
		xa[i] -= xb[i]
	}
	return xa, nil
}

// timeRatio is the test "the time of a over the time of b is below (or above) c", paired by
// repetition: the geometric-mean ratio, t test on log ratios. A claim that one method is faster or
// slower than another uses faster or slower, with the catalogue's margin; only a claim that names
// its own size of speed-up passes c.
func timeRatio(res *run.Results, dataset, metric, a, b string, c float64, below bool) (verdict.Test, error) {
	xa, xb, err := paired(res, dataset, metric, a, b)
	if err != nil {
		return verdict.Test{}, err
	}
	label := fmt.Sprintf("%s: %s time %s / %s", dataset, strings.TrimSuffix(metric, "_time"), labels[a], labels[b])
	if below {
		return verdict.RatioBelow(label, xa, xb, true, c), nil
	}
	return verdict.RatioAbove(label, xa, xb, true, c), nil
}

// faster tests "a is faster than b": the time ratio a/b shown below 1/verdict.TimeMargin,
// contradicted if shown above it.
func faster(res *run.Results, dataset, metric, a, b string) (verdict.Test, error) {
	return timeRatio(res, dataset, metric, a, b, 1/verdict.TimeMargin, true)
}

// slower tests "a is slower than b": the time ratio a/b shown above verdict.TimeMargin,
// contradicted if shown below it.
func slower(res *run.Results, dataset, metric, a, b string) (verdict.Test, error) {
	return timeRatio(res, dataset, metric, a, b, verdict.TimeMargin, false)
}

// Rule texts of "faster" and "slower" with the margin and where it comes from.
var (
	marginNote = fmt.Sprintf("verdict.TimeMargin = %g, the catalogue's one margin for faster, slower and about the same time, so that they cannot overlap; "+
		"a factor 1.25 is the smallest difference a reader sees on a logarithmic time axis", verdict.TimeMargin)
	fasterRule = fmt.Sprintf("geometric-mean ratio shown below 1/%g = %g (paired t test on log ratios), contradicted if shown above it (%s)", verdict.TimeMargin, 1/verdict.TimeMargin, marginNote)
	slowerRule = fmt.Sprintf("geometric-mean ratio shown above %g (paired t test on log ratios), contradicted if shown below it (%s)", verdict.TimeMargin, marginNote)
)

// cell prints the values of a metric over the repetitions: the median and, when they
// differ, the range ("4.1 (3.9–4.4)"); "not run" for none.
func cell(v []float64, format string) string {
	if len(v) == 0 {
		return "not run"
	}
	out := fmt.Sprintf(format, median(v))
	if lo, hi := slices.Min(v), slices.Max(v); lo != hi {
		out += fmt.Sprintf(" ("+format+"–"+format+")", lo, hi)
	}
	return out
}

// median is the median of v (the mean of the middle two for an even count); NaN for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}
