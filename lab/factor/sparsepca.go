package factor

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// SparsePCAOptions sets the penalty and the work of [FitSparsePCA]. Iterations has no default, so
// the zero value is refused: set it.
type SparsePCAOptions struct {
	// Penalty λ ≥ 0 weighs the ℓ1 norms of both factors; 0 gives plain alternating least squares.
	Penalty float64
	// Iterations ≥ 1 is the number of alternations (one update of U, then one of V); 0 is an
	// error (the work a fit needs depends on the data and on λ).
	Iterations int
}

// SparsePCA is a fitted sparse factorisation A ≈ U·Vᵀ.
type SparsePCA struct {
	U *mat.Dense // m×k scores
	V *mat.Dense // n×k loadings (the sparse "basis images" of the slides' figure)
	// Objective holds ½‖A − UVᵀ‖²_F + λ(‖U‖₁ + ‖V‖₁) after each iteration; it never increases.
	Objective []float64
}

// FitSparsePCA factorises the m×n matrix A as U·Vᵀ with k columns by the student slides'
// Algorithm 2 (the student slides): from the rank-k randomized SVD (see "The start" below), alternate
//
//	U ← argmin_U ½‖A − UVᵀ‖²_F + λ‖U‖₁,  then  V ← argmin_V ½‖A − UVᵀ‖²_F + λ‖V‖₁,
//
// with ‖·‖₁ the sum of absolute entries. (The slide's text says ℓ0 but its formulas, which this
// follows, say ℓ1.) Each update splits into independent lasso problems, one per row of U (resp.
// V), min_u ½uᵀGu − cᵀu + λ‖u‖₁ with G = VᵀV and c = row i of A·V (resp. UᵀU and Aᵀ·U), solved by
// cyclic coordinate descent u_j = S(c_j − Σ_{l≠j} G_jl·u_l, λ)/G_jj (S the soft threshold),
// warm-started from the previous iterate, until no coordinate moves by more than 10⁻¹⁰ of the
// row's largest entry or after 500 sweeps. The rows are solved in parallel. Each coordinate step
// minimises the objective exactly, so it never increases; at λ = 0 the iteration is alternating
// least squares, whose UVᵀ tends to the best rank-k approximation (the span of V to the leading
// right singular vectors); as λ grows more entries are exactly zero, and for λ ≥ max|A·V₀| all are.
//
// The start. The slide draws U₀ and V₀ from N(0, I) and annotates the line "range sampler"; here
// the Gaussian draw feeds the range sampler: the start is [RandomizedSVD](rng, A, k, …) (oversampling 10,
// two power iterations, Ω from rng), each rank-one term split between the factors so that their
// ℓ1 norms are equal (the split that minimises the penalty). scikit-learn's
// dictionary learning starts from the SVD in the same way (_dict_learning.py in version 1.2.1).
// A Gaussian start is not usable at scale: a random direction carries only about ‖A‖_F/√n of A,
// so the first updates weigh correlations of that size against λ, and on LFW faces at 125×125
// pixels (5,499 × 15,625, k = 500, λ = 0.004·‖A‖_F) it zeroed all 500 components in the first
// iteration, while at 50×50 pixels 58 of 100 survived. From the SVD start a replicated matrix
// (rows repeated p times, columns q times) with λ·√(pq) gives the replicated solution and pq times
// the objective, so a penalty proportional to ‖A‖_F means the same at every size.
//
// A is not centred (as in the slides and in latent semantic analysis; centre dense data first for
// PCA proper), may be dense or a *[csr.Matrix], and is used only through one product with A and one
// with Aᵀ per iteration.
// Errors: nil/empty A, NaN or ±Inf, k outside [1, min(m, n)], a negative or non-finite penalty,
// Iterations < 1, nil rng, an overflowing product. Cost: the randomized SVD, then per iteration two
// products with k-column blocks (O(k·nnz(A))) and O((m + n)·k²) per coordinate sweep; memory
// O((m + n)·k) beside A.
func FitSparsePCA(rng *rand.Rand, a mat.Matrix, k int, opts SparsePCAOptions) (*SparsePCA, error) {
	return FitSparsePCAContext(context.Background(), rng, a, k, opts)
}

// FitSparsePCAContext is [FitSparsePCA] that gives up with ctx's error (wrapped) once ctx is done:
// it looks before each alternation, so it returns within about one iteration's time (on LFW faces
// at paper scale a fit takes minutes). When it returns a fit it is FitSparsePCA's, bit for bit.
// A nil ctx is an error.
func FitSparsePCAContext(ctx context.Context, rng *rand.Rand, a mat.Matrix, k int, opts SparsePCAOptions) (*SparsePCA, error) {
	const op = "FitSparsePCA"
	if err := ctxcheck.NotNil(ctx, "factor: "+op); err != nil {
		return nil, err
	}
	o, err := rankOperator(op, a, k)
	if err != nil {
		return nil, err
	}
	lambda := opts.Penalty
	if !(lambda >= 0) || math.IsInf(lambda, 1) {
		return nil, fmt.Errorf("factor: %s: Penalty = %g, want a finite λ ≥ 0", op, lambda)
	}
	if opts.Iterations < 1 {
		return nil, fmt.Errorf("factor: %s: Iterations = %d, want at least 1", op, opts.Iterations)
	}
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "factor: %s: rng is nil", op)
	}
	var squares float64 // ‖A‖²_F, for the objective
	o.eachRow(func(_ []int, vals []float64) {
		for _, v := range vals {
			squares += v * v
		}
	})
	start, err := randomizedSVD(ctx, op, rng, o, k, RandomizedSVDOptions{Oversample: sparseStartOversample, PowerIterations: sparseStartPowerIterations})
	if err != nil {
		return nil, err
	}
	// Split σ_j·u_j·v_jᵀ as (σ_j^½·t_j·u_j)(σ_j^½·v_j/t_j)ᵀ with t_j = (‖v_j‖₁/‖u_j‖₁)^½: equal ℓ1
	// norms, the split with the smallest penalty.
	su, sv := make([]float64, k), make([]float64, k)
	for j, s := range start.Values {
		t := math.Sqrt(mat.Norm(start.V.ColView(j), 1) / mat.Norm(start.U.ColView(j), 1))
		su[j], sv[j] = math.Sqrt(s)*t, math.Sqrt(s)/t
	}
	u, v := start.U, start.V // fresh copies: truncate's
	scaleColumns(u, su)
	scaleColumns(v, sv)
	av := mat.NewDense(o.rows, k, nil)  // A·V
	atu := mat.NewDense(o.cols, k, nil) // Aᵀ·U
	var gram mat.Dense
	res := &SparsePCA{U: u, V: v}
	for range opts.Iterations {
		if err := ctxcheck.Done(ctx, "factor: "+op); err != nil {
			return nil, err
		}
		if err := o.mul(av, v); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		gram.Mul(v.T(), v)
		lassoRows(u, av, &gram, lambda)
		if err := o.mulT(atu, u); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		gram.Mul(u.T(), u)
		lassoRows(v, atu, &gram, lambda)
		// ½‖A − UVᵀ‖² = ½(‖A‖² − 2⟨AᵀU, V⟩ + ⟨UᵀU, VᵀV⟩).
		var vtv mat.Dense
		vtv.Mul(v.T(), v)
		fit := 0.5 * (squares - 2*mat.Sum(elementwise(atu, v)) + mat.Sum(elementwise(&gram, &vtv)))
		objective := max(fit, 0) + lambda*(absSum(u)+absSum(v))
		if objective-objective != 0 {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "factor: %s: the objective is %g (‖A‖²_F = %g): the computation overflows on these values; rescale A", op, objective, squares)
		}
		res.Objective = append(res.Objective, objective)
	}
	if err := finiteResult(op, u); err != nil {
		return nil, err
	}
	if err := finiteResult(op, v); err != nil {
		return nil, err
	}
	return res, nil
}

// lassoRows solves, for each row x of x (warm start, overwritten), the lasso
// min ½xᵀGx − cᵀx + λ‖x‖₁ with c the same row of c, by cyclic coordinate descent as
// FitSparsePCA describes. Rows are independent and solved in parallel, each in a fixed order.
func lassoRows(x, c *mat.Dense, g *mat.Dense, lambda float64) {
	rows, k := x.Dims()
	const block = 64
	parallel.For(parallel.BlockCount(rows, block), func(_, b int) {
		for i := b * block; i < min(rows, (b+1)*block); i++ {
			row, ci := x.RawRowView(i), c.RawRowView(i)
			for range maxLassoSweeps {
				var moved, largest float64
				for j := range k {
					gj := g.RawRowView(j)
					var next float64
					if gj[j] > 0 {
						r := ci[j]
						for l, w := range row {
							if l != j {
								r -= gj[l] * w
							}
						}
						next = softThreshold(r, lambda) / gj[j]
					}
					moved = max(moved, math.Abs(next-row[j]))
					row[j] = next
					largest = max(largest, math.Abs(next))
				}
				if moved <= lassoTolerance*largest {
					break
				}
			}
		}
	})
}

// maxLassoSweeps and lassoTolerance bound the coordinate descent of one lasso problem: it stops
// when no coordinate moved by more than lassoTolerance times the largest one.
const (
	maxLassoSweeps = 500
	lassoTolerance = 1e-10
)

// softThreshold returns sign(x)·max(|x| − t, 0).
func softThreshold(x, t float64) float64 {
	switch {
	case x > t:
		return x - t
	case x < -t:
		return x + t
	}
	return 0
}

// elementwise returns the entrywise product of a and b.
func elementwise(a, b *mat.Dense) *mat.Dense {
	var p mat.Dense
	p.MulElem(a, b)
	return &p
}

// absSum returns Σ|m_ij|.
func absSum(m *mat.Dense) float64 {
	var s float64
	r, _ := m.Dims()
	for i := range r {
		for _, v := range m.RawRowView(i) {
			s += math.Abs(v)
		}
	}
	return s
}

// sparseStartOversample and sparseStartPowerIterations configure the randomized SVD that
// FitSparsePCA starts from (HMT's oversampling; two power iterations give the leading directions
// of a slowly decaying spectrum such as faces' well enough for a start that the alternation refines).
const (
	sparseStartOversample      = 10
	sparseStartPowerIterations = 2
)

// scaleColumns multiplies column j of m by s[j], in place.
func scaleColumns(m *mat.Dense, s []float64) {
	r, _ := m.Dims()
	for i := range r {
		row := m.RawRowView(i)
		for j := range row {
			row[j] *= s[j]
		}
	}
}
