package pursuit

import (
	"context"
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/blocked"
	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// NormalEquations holds a least-squares problem min_α ‖y − Dα‖₂ over a d×n dictionary D by what
// its normal equations need: the Gram matrix G = DᵀD, the correlations b = Dᵀy and ‖y‖. When
// the signal dimension d is much larger than the number of atoms n (the tree-prediction matrices
// of forest pruning: thousands of rows, hundreds of trees), forming G once costs about as much as
// n/2 of the passes over D that [OrthogonalMatchingPursuit] makes (one per selected atom) and runs
// at matrix-product speed, after which every step of [OrthogonalMatchingPursuitGram] works on
// n-vectors only. It is read-only after construction, so any number of solvers may use it at
// the same time.
type NormalEquations struct {
	d, n int
	// gram is G, n×n row-major, both triangles (exactly symmetric); b is Dᵀy.
	gram, b []float64
	// yNorm is ‖y‖₂; norms are the atom norms √G_jj.
	yNorm float64
	norms []float64
}

// NewNormalEquations forms G = DᵀD and b = Dᵀy for the d×n matrix D, whose columns are the atoms,
// and the signal y (length d). G is one symmetric rank-d update split into pieces of rows of
// equal area that run on all cores (lab/internal/blocked; the split depends on n alone, so the
// result does not depend on the number of cores), b one matrix-vector product per piece of
// columns. A *mat.Dense is read in place; any other matrix is copied first (8dn bytes). Neither
// D nor y is retained.
//
// Errors: a nil or empty D, len(y) ≠ d, a non-finite entry of y, of D (found through the
// diagonal of G, which holds the squares of every entry) or of G and b (entries so large that
// their products overflow), and allocations beyond the memory limit (lab/internal/memlimit).
//
// Cost: d·n² multiply-adds for G (half a general product) and d·n for b; memory 8n² bytes.
func NewNormalEquations(D mat.Matrix, y []float64) (*NormalEquations, error) {
	const op = "pursuit: NewNormalEquations"
	if D == nil {
		return nil, fmt.Errorf("%s: matrix is nil", op)
	}
	if v := reflect.ValueOf(D); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("%s: matrix is a nil %T", op, D)
	}
	d, n := D.Dims()
	if d == 0 || n == 0 {
		return nil, fmt.Errorf("%s: matrix is empty (%d×%d)", op, d, n)
	}
	if len(y) != d {
		return nil, laberr.Errorf(laberr.ErrShape, "%s: len(y) = %d, want the signal dimension d = %d", op, len(y), d)
	}
	if i := firstNonFinite(y); i >= 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: y[%d] = %g, want finite values", op, i, y[i])
	}
	yNorm := norm2(y)
	if math.IsInf(yNorm, 0) {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: ‖y‖ overflows (entries near MaxFloat64); rescale y", op)
	}
	if err := memlimit.Check(op, fmt.Sprintf("the %d×%d Gram matrix", n, n), 8, n, n); err != nil {
		return nil, err
	}
	dense, ok := D.(*mat.Dense)
	if !ok {
		if err := memlimit.Check(op, fmt.Sprintf("a copy of the %d×%d matrix", d, n), 8, d, n); err != nil {
			return nil, err
		}
		dense = mat.DenseCopyOf(D)
	}
	raw := dense.RawMatrix()
	ne := &NormalEquations{d: d, n: n, gram: make([]float64, n*n), b: make([]float64, n), yNorm: yNorm, norms: make([]float64, n)}
	blocked.SyrkUpper(1, raw, 0, blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: ne.gram})
	mirrorUpper(ne.gram, n)
	parts := blocked.Pieces(n)
	parallel.For(parts, func(_, p int) {
		lo, hi := blocked.Even(n, parts, p), blocked.Even(n, parts, p+1)
		if lo < hi {
			blas64.Gemv(blas.Trans, 1, blas64.General{Rows: d, Cols: hi - lo, Stride: raw.Stride, Data: raw.Data[lo:]},
				blas64.Vector{N: d, Inc: 1, Data: y}, 0, blas64.Vector{N: hi - lo, Inc: 1, Data: ne.b[lo:hi]})
		}
	})
	for j := range n {
		if g := ne.gram[j*n+j]; math.IsNaN(g) || math.IsInf(g, 0) {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: column %d holds a NaN or ±Inf, or entries whose squares overflow; want finite values (rescale D)", op, j)
		}
		ne.norms[j] = math.Sqrt(ne.gram[j*n+j])
	}
	if i := firstNonFinite(ne.gram); i >= 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: ⟨d_%d, d_%d⟩ overflows; rescale D", op, i/n, i%n)
	}
	if i := firstNonFinite(ne.b); i >= 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "%s: ⟨d_%d, y⟩ overflows; rescale D or y", op, i)
	}
	return ne, nil
}

// Dims returns the signal dimension d and the number of atoms n.
func (ne *NormalEquations) Dims() (d, n int) { return ne.d, ne.n }

// gramDependence bounds, in units of (k + 2)·u·G_jj, the squared distance of atom j to the span
// of k selected atoms below which OrthogonalMatchingPursuitGram counts it as dependent: that
// distance is computed as G_jj − ‖w‖², whose rounding error is about (k + 2)·u·G_jj, so a smaller
// value carries no information.
const gramDependence = 16

// OrthogonalMatchingPursuitGram runs orthogonal matching pursuit ([OrthogonalMatchingPursuit]: the
// same selection rule, argmax |⟨d_j, r⟩|/‖d_j‖ with ties to the smallest index, and least-squares
// coefficients on the selected atoms after every step) on the normal equations: the correlations
// are Dᵀr = b − G_S·α (G_S the rows of G of the selected atoms), and the least-squares problem is
// solved by a Cholesky factorisation of G_SS = LLᵀ that gains one row per step (a triangular
// solve), with z = L⁻¹b_S kept so that α = L⁻ᵀz and ‖r‖² = ‖y‖² − ‖z‖². This is scikit-learn's
// Gram route (orthogonal_mp_gram); no step reads D.
//
// It stops on Options (MaxAtoms defaults to min(d, n)), when the best atom is already selected
// ([StopResidualOrthogonal]), or when the best atom's squared distance to the span of the selected
// atoms, G_jj − ‖L⁻¹G_Sj‖², is within a small multiple of its rounding error (16(k + 2)u·G_jj,
// a relative distance of about 10⁻⁷ at k = 300: [StopDependentAtom]).
//
// Accuracy. The normal equations square the condition number: the coefficients carry a relative
// error of about u·cond(D_S)², against u·cond(D_S) for OrthogonalMatchingPursuit's QR
// factorisation, and nearly dependent atoms are told apart only down to a relative distance of
// about √u. Use OrthogonalMatchingPursuit for ill-conditioned dictionaries. Step.ResidualNorm is
// √(‖y‖² − ‖z‖²), accurate to about u·‖y‖²/‖r‖ in absolute terms, and 0 once ‖y‖² − ‖z‖² falls
// within a small multiple of its rounding error (16(k + 2)u‖y‖², a residual below about 2·10⁻⁶‖y‖
// at k = 300): y then lies in the span of the selected atoms to working precision, and the
// pursuit stops there ([StopTolerance]) instead of selecting atoms by their rounding noise.
//
// The Result has no Residual (Result.ResidualNorm reads the last step's); everything else is as
// for OrthogonalMatchingPursuit.
//
// Cost per step: O(nk) for the correlations and O(k²) for the factor and the coefficients, with k
// atoms selected; memory O(mn + m²) for m = MaxAtoms plus the iterates.
func OrthogonalMatchingPursuitGram(ne *NormalEquations, opts Options) (*Result, error) {
	return OrthogonalMatchingPursuitGramContext(context.Background(), ne, opts)
}

// OrthogonalMatchingPursuitGramContext is [OrthogonalMatchingPursuitGram] with a context: it looks
// at ctx before each step, never inside one, so a result it returns is
// OrthogonalMatchingPursuitGram's, bit for bit.
// Errors: OrthogonalMatchingPursuitGram's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: OrthogonalMatchingPursuitGram's; once ctx is done it returns within one step, O(nk).
func OrthogonalMatchingPursuitGramContext(ctx context.Context, ne *NormalEquations, opts Options) (*Result, error) {
	const op = "OrthogonalMatchingPursuitGram"
	if err := ctxcheck.NotNil(ctx, "pursuit: "+op); err != nil {
		return nil, err
	}
	if err := opts.validate(op, false); err != nil {
		return nil, err
	}
	if ne == nil || ne.n == 0 {
		return nil, fmt.Errorf("pursuit: %s: the normal equations are nil or empty (make them with NewNormalEquations)", op)
	}
	n := ne.n
	limit := min(ne.d, n)
	if opts.MaxAtoms > 0 {
		limit = min(limit, opts.MaxAtoms)
	}
	capped := opts
	capped.MaxAtoms = limit
	if err := memlimit.Check("pursuit: "+op, fmt.Sprintf("the rows of G of %d atoms", limit), 8, limit, n); err != nil {
		return nil, err
	}
	rows := make([]float64, 0, limit*n) // G_S: row l is G's row of Atoms[l]
	chol := make([]float64, limit*limit)
	// chol holds L, lower triangular, row-major with stride limit.
	z := make([]float64, 0, limit)
	coef := make([]float64, 0, limit)
	corr := append([]float64(nil), ne.b...)
	w := make([]float64, limit)
	selected := make([]bool, n)
	res := &Result{SignalNorm: ne.yNorm, numAtoms: n}
	yy := ne.yNorm * ne.yNorm
	zz := 0.0 // ‖z‖²
	rNorm := ne.yNorm
	for {
		if err := ctxcheck.Done(ctx, "pursuit: "+op); err != nil {
			return nil, err
		}
		if stop, ok := commonStop(capped, rNorm, len(res.Steps), len(res.Atoms)); ok {
			res.Stop = stop
			break
		}
		top := newBestAtom(false)
		for j, c := range corr {
			if ne.norms[j] > 0 {
				top.offer(j, 1/ne.norms[j], c)
			}
		}
		j, c := top.result()
		if j < 0 || selected[j] {
			res.Stop = StopResidualOrthogonal
			break
		}
		// The new row of L: w = L⁻¹G_Sj, then L_kk = √(G_jj − ‖w‖²).
		k := len(res.Atoms)
		gjj := ne.gram[j*n+j]
		wk := w[:k]
		for l := range k {
			wk[l] = rows[l*n+j]
		}
		if k > 0 {
			blas64.Trsv(blas.NoTrans, blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: k, Stride: limit, Data: chol},
				blas64.Vector{N: k, Inc: 1, Data: wk})
		}
		delta2 := gjj - dot(wk, wk)
		if !(delta2 > gramDependence*float64(k+2)*unitRoundoff*gjj) {
			res.Stop = StopDependentAtom
			break
		}
		delta := math.Sqrt(delta2)
		copy(chol[k*limit:], wk)
		chol[k*limit+k] = delta
		zk := (ne.b[j] - dot(wk, z)) / delta
		z = append(z, zk)
		zz += zk * zk
		rows = append(rows, ne.gram[j*n:(j+1)*n]...)
		selected[j] = true
		res.Atoms = append(res.Atoms, j)
		// ‖r‖² = ‖y‖² − ‖z‖² carries a rounding error of about (k + 2)u‖y‖²: below a small
		// multiple of it the fit is exact to working precision and the residual counts as zero
		// (Tolerance 0 then stops the pursuit, as an exactly zero residual stops the QR route;
		// the correlations left are rounding noise).
		if rr := yy - zz; rr > gramDependence*float64(k+2)*unitRoundoff*yy {
			rNorm = math.Sqrt(rr)
		} else {
			rNorm = 0
		}
		// α = L⁻ᵀz, then Dᵀr = b − G_Sᵀα.
		coef = append(coef[:0], z...)
		blas64.Trsv(blas.Trans, blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: k + 1, Stride: limit, Data: chol},
			blas64.Vector{N: k + 1, Inc: 1, Data: coef})
		copy(corr, ne.b)
		blas64.Gemv(blas.Trans, -1, blas64.General{Rows: k + 1, Cols: n, Stride: n, Data: rows},
			blas64.Vector{N: k + 1, Inc: 1, Data: coef}, 1, blas64.Vector{N: n, Inc: 1, Data: corr})
		res.Steps = append(res.Steps, Step{Atom: j, Correlation: c, ResidualNorm: rNorm, Coefficients: iterateCopy(opts, coef)})
	}
	res.Coefficients = append([]float64(nil), coef...)
	return res.finished(op)
}
