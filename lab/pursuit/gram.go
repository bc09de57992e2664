package pursuit

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
)

// GramDictionary is a [DenseDictionary] together with its Gram matrix G = DᵀD, G_ij = ⟨d_i, d_j⟩,
// computed once and kept whole (n×n, 8n² bytes: 3.2 GB for the §5.4 dictionaries of 20,000 atoms,
// on top of the dictionary's own memory). Its methods are the DenseDictionary's; what the matrix
// buys is in two places:
//
//   - [MeasureIncoherence] reads the coherence and the Babel function off its rows, so the one
//     pass over the Gram matrix is a symmetric rank-d update (half the multiplications of the
//     general product that a DenseDictionary's streamed pass makes, and one BLAS call).
//   - [FrankWolfe] finds the atom most correlated with each residual from the Gram matrix:
//     Dᵀr_k = Dᵀy − Gα_k, kept up to date in O(n) per iteration (the iterate gains one vertex per
//     step), instead of a pass over all d·n entries of the dictionary. Rigorous per-atom bounds on
//     the rounding of that difference leave a few candidates, whose correlations are then computed
//     directly as the plain search computes them; the result is the plain search's, bit for bit,
//     only cheaper (see gramSearch). Near the rounding floor, where the bounds no longer
//     separate the atoms, an iteration falls back to the plain search.
//
// The other solvers use it as the DenseDictionary it holds. It is read-only after construction,
// so any number of solvers may use it at the same time.
type GramDictionary struct {
	// DenseDictionary is the dictionary (sharing the storage of the one given to
	// NewGramDictionary); the zero GramDictionary holds the zero DenseDictionary, which every
	// function refuses.
	DenseDictionary
	// gram is G, n×n row-major, both triangles (exactly symmetric).
	gram []float64
}

// NewGramDictionary computes the Gram matrix of dd by one symmetric rank-d update, G = DᵀD (BLAS
// dsyrk on the atoms, which computes one triangle: d·n² multiply-adds, half those of a general
// product), then mirrors the triangle so that every row is contiguous. dd is shared, not copied.
// The allocation of 8n² bytes is checked against the memory limit first (lab/internal/memlimit).
//
// Time: the dsyrk call, on one core with the lab's single-threaded OpenBLAS (run several tasks at
// once to use every core): about a minute at d = 10⁴, n = 2·10⁴ on a 2.8 GHz Xeon VM core beside
// other jobs, with OpenBLAS's SkylakeX kernels (gonum's pure-Go dsyrk is slower); plus O(n²) on
// all cores to mirror.
func NewGramDictionary(dd *DenseDictionary) (*GramDictionary, error) {
	const op = "pursuit: NewGramDictionary"
	if dd == nil || dd.n == 0 || dd.d == 0 {
		return nil, fmt.Errorf("%s: the dictionary is nil or empty (make it with NewDenseDictionary or NewGaussianDictionary)", op)
	}
	n, d := dd.n, dd.d
	if err := memlimit.Check(op, fmt.Sprintf("the %d×%d Gram matrix", n, n), 8, n, n); err != nil {
		return nil, err
	}
	gram := make([]float64, n*n)
	// The atoms are the rows of an n×d row-major matrix A, so G = A·Aᵀ.
	blas64.Syrk(blas.NoTrans, 1, blas64.General{Rows: n, Cols: d, Stride: d, Data: dd.atoms},
		0, blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: gram})
	mirrorUpper(gram, n)
	return &GramDictionary{DenseDictionary: *dd, gram: gram}, nil
}

// mirrorBlock is the tile side of mirrorUpper: a 64×64 tile of doubles (32 KiB) is read by
// columns while it stays in cache.
const mirrorBlock = 64

// mirrorUpper copies the upper triangle of the n×n row-major matrix g into its lower triangle,
// tile by tile, on all cores (each worker writes only the rows of its block).
func mirrorUpper(g []float64, n int) {
	parallel.For((n+mirrorBlock-1)/mirrorBlock, func(_, b int) {
		j0, j1 := b*mirrorBlock, min(n, (b+1)*mirrorBlock)
		for i0 := 0; i0 < j1; i0 += mirrorBlock {
			for j := j0; j < j1; j++ {
				row := g[j*n : (j+1)*n]
				for i := i0; i < min(i0+mirrorBlock, j); i++ {
					row[i] = g[i*n+j]
				}
			}
		}
	})
}

// row returns row i of G, ⟨d_i, d_j⟩ for every j (shared storage, not to be modified).
func (gd *GramDictionary) row(i int) []float64 { return gd.gram[i*gd.n : (i+1)*gd.n] }

// gramSlack is the relative slack added to the bounds of the Gram search: it covers the roundings
// of their own computation, and the difference between the computed and the true atom norms,
// residual norm and ‖y‖ (relative errors of at most about d·2⁻⁵³), for any d below 2³⁰.
const gramSlack = 1 + 0x1p-20

// unitRoundoff is u = 2⁻⁵³, the unit roundoff of double precision.
const unitRoundoff = 0x1p-53

// gammaN is Higham's γ_n = n·u/(1 − n·u), the relative error bound of a sum or dot product of n terms
// (in any order, with or without fused multiply-adds).
func gammaN(n int) float64 {
	nu := float64(n) * unitRoundoff
	return nu / (1 - nu)
}

// underflowSlack bounds the absolute error that gradual underflow adds to one floating-point
// operation (half the smallest subnormal, rounded up).
const underflowSlack = 0x1p-1074

// gramSearch finds Frank-Wolfe's atom argmax_j |⟨d_j, r_k⟩| for one solve on a GramDictionary
// (exactly the atom, and the correlation, that the plain search returns). It keeps
//
//	b = fl(Dᵀy), computed once with the plain search's dot products,
//	z ≈ Ĝα_k, updated with each step α_{k+1} = (1 − γ)α_k + γ·v·e_i (Ĝ the computed Gram matrix),
//
// and at each iteration estimates c̃_j = b_j − z_j. Its distance to the correlation ĉ_j = fl(⟨d_j, r̂⟩)
// that the plain search computes from FrankWolfe's residual r̂ = fl(y − fl(D_S α)) (recomputed from
// the s selected atoms) is at most
//
//	B_j = ‖d_j‖·[γ_d‖y‖ + (γ_d + γ_s)·A + (γ_d + 1.01u)‖r̂‖] + E + 1.01u|c̃_j|,   A = Σ_l |α_l|·‖d_l‖,
//
// where the terms are, in order: the rounding of b_j (γ_d‖d_j‖‖y‖, a dot product of d terms),
// that of the Gram entries (γ_d‖d_j‖‖d_l‖ each), that of FrankWolfe's D_S α (γ_s, a sum of s
// terms) and of its subtraction from y (u‖r̂‖ relative), that of the plain search's own dot
// product (γ_d‖d_j‖‖r̂‖), the drift E of z (below), and the subtraction b_j − z_j. E bounds
// max_j |z_j − (Ĝα)_j| for the coefficients α as FrankWolfe stores them; each step adds the
// roundings of the update of z and of the coefficients (see update). Every bound is inflated by
// gramSlack, plus an absolute term for underflow.
//
// Candidates are the atoms with |c̃_j| + B_j ≥ max_l (|c̃_l| − B_l): any other atom's |ĉ_j| is
// below the best candidate's, so it can be neither the plain search's answer nor tied with it.
// Their ĉ_j are computed with the plain search's dot product and the best is kept by its rule
// (the smallest index on ties). When the bounds leave more than a quarter of the atoms, or a
// quantity is not finite, the iteration asks the plain search instead.
type gramSearch struct {
	gd    *GramDictionary
	sel   *selector
	b, z  []float64
	est   []float64 // |c̃| (scratch)
	bound []float64 // B (scratch)
	// drift is E; weight is A at the last search (the coefficients before the step).
	drift, weight float64
	// maxNorm is max_j ‖d_j‖; yNorm is ‖y‖; gammaD is γ_d.
	maxNorm, yNorm, gammaD float64
	cand                   []int
	candCorr               []float64
	// screened and plain count the searches decided by the bounds and those handed to the plain
	// search (for tests and benchmarks).
	screened, plain int
}

// newGramSearch prepares the search for the signal y (of norm yNorm) on gd, whose selector is sel.
func newGramSearch(gd *GramDictionary, sel *selector, y []float64, yNorm float64) *gramSearch {
	n := gd.n
	g := &gramSearch{gd: gd, sel: sel, b: make([]float64, n), z: make([]float64, n),
		est: make([]float64, n), bound: make([]float64, n), yNorm: yNorm, gammaD: gammaN(gd.d)}
	gd.correlations(g.b, y)
	for _, v := range sel.norms {
		g.maxNorm = max(g.maxNorm, v)
	}
	return g
}

// best returns the atom maximising |⟨d_j, r⟩| (−1 when every correlation is zero) and its
// correlation, as selector.best(r, rawCorrelation, false) does, for FrankWolfe's residual r of
// computed norm rNorm and its current coefficients coef of the selected atoms.
func (g *gramSearch) best(r []float64, rNorm float64, atoms []int, coef []float64) (int, float64, error) {
	norms := g.sel.norms
	g.weight = 0
	for l, a := range atoms {
		g.weight += math.Abs(coef[l]) * norms[a]
	}
	if atom, c, ok := g.screen(r, rNorm, len(atoms)); ok {
		g.screened++
		return atom, c, nil
	}
	g.plain++
	return g.sel.best(r, rawCorrelation, false)
}

// screen is best's screened search; ok is false when the iteration must ask the plain search.
func (g *gramSearch) screen(r []float64, rNorm float64, selected int) (atom int, corr float64, ok bool) {
	n := g.gd.n
	if !(g.maxNorm*rNorm < math.MaxFloat64/4) {
		return -1, 0, false // the plain dot products could overflow: let the plain search decide (and report)
	}
	gammaS := gammaN(max(selected, 1))
	perNorm := gramSlack * (g.gammaD*g.yNorm + (g.gammaD+gammaS)*g.weight + (g.gammaD+1.01*unitRoundoff)*rNorm)
	absolute := gramSlack*g.drift + float64(4*g.gd.d+4*selected+16)*underflowSlack
	lower, top := math.Inf(-1), 0.0
	norms := g.sel.norms
	for j := range n {
		c := g.b[j] - g.z[j]
		v := math.Abs(c)
		bj := norms[j]*perNorm + absolute + gramSlack*1.01*unitRoundoff*v
		g.est[j], g.bound[j] = v, bj
		lower = max(lower, v-bj)
		top = max(top, v+bj)
	}
	if math.IsNaN(lower) || math.IsInf(lower, 0) || math.IsNaN(top) || math.IsInf(top, 0) {
		return -1, 0, false
	}
	if observeGramSearch != nil {
		observeGramSearch(g, r, rNorm)
	}
	lower -= 0x1p-49 * top // the roundings of v − B and v + B, on both sides of the comparison
	g.cand = g.cand[:0]
	for j := range n {
		if g.est[j]+g.bound[j] >= lower {
			g.cand = append(g.cand, j)
		}
	}
	if len(g.cand) > n/4 {
		return -1, 0, false
	}
	if cap(g.candCorr) < len(g.cand) {
		g.candCorr = make([]float64, len(g.cand))
	}
	cc := g.candCorr[:len(g.cand)]
	dd := &g.gd.DenseDictionary
	parallel.For((len(g.cand)+correlationBlock-1)/correlationBlock, func(_, b int) {
		for k := b * correlationBlock; k < min(len(g.cand), (b+1)*correlationBlock); k++ {
			cc[k] = dot(dd.atom(g.cand[k]), r)
		}
	})
	top2 := newBestAtom(false)
	for k, j := range g.cand {
		if math.IsNaN(cc[k]) || math.IsInf(cc[k], 0) {
			return -1, 0, false // the plain search reports it
		}
		top2.offer(j, 1, cc[k])
	}
	atom, corr = top2.result()
	return atom, corr, true
}

// observeGramSearch, when set (by tests only), sees every screened search once its estimates and
// bounds are computed, with the residual searched and its norm: the tests check the bounds
// against the plain search's correlations and see which searches the bounds decide.
var observeGramSearch func(g *gramSearch, r []float64, rNorm float64)

// update follows FrankWolfe's step α ← (1 − γ)α + γ·vertex·e_i: z ← (1 − γ)z + (γ·vertex)·G_i, and
// the drift bound E with it. coefPos is the new coefficient of atom i as FrankWolfe stored it.
//
// With s = fl(1 − γ) and t = fl(γ·vertex), FrankWolfe's coefficients become fl(α_l·s), and
// fl(fl(α_i·s) + t) for atom i (with or without a fused multiply-add), while z_j becomes
// fl(fl(s·z_j) + fl(t·Ĝ_ji)). The true Ĝα' then differs from s·(Ĝα)_j + t·Ĝ_ji by at most
// u·s·Σ_l|Ĝ_jl||α_l| + 1.01u·|Ĝ_ji||α'_i| + 2u|t||Ĝ_ji| (the last for a product γ·vertex rounded
// differently in the two places), and the computed z_j from s·z_j + t·Ĝ_ji by 2.01u(s|z_j| + |t||Ĝ_ji|);
// with |Ĝ_jl| ≤ 1.01·‖d_j‖‖d_l‖ ≤ 1.01·N‖d_l‖ (N the largest atom norm),
//
//	E' = s·E + 2.01u·(s·max|z| + 3|t|·1.01N‖d_i‖) + 1.01u·1.01N·(s·A + 1.01‖d_i‖|α'_i|) + 4·underflow,
//
// inflated by gramSlack; A is the weight of the coefficients before the step (kept by best).
func (g *gramSearch) update(i int, gamma, vertex, coefPos float64) {
	s, t := 1-gamma, gamma*vertex
	row := g.gd.row(i)
	zMax := 0.0
	for j, v := range g.z {
		zMax = max(zMax, math.Abs(v))
		g.z[j] = s*v + t*row[j]
	}
	u, ni := unitRoundoff, g.sel.norms[i]
	gMax := 1.01 * g.maxNorm * ni
	g.drift = gramSlack*(s*g.drift+2.01*u*(s*zMax+3*math.Abs(t)*gMax)+
		1.01*u*1.01*g.maxNorm*(s*g.weight+1.01*ni*math.Abs(coefPos))) + 4*underflowSlack
}
