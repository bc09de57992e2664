package pursuit

import (
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// nnlsSolver solves min ‖b − Ax‖₂ subject to x ≥ 0 by the active-set method of Lawson & Hanson
// (1974, chapter 23) over columns that can be added one at a time, warm-starting from the
// previous solution (NN-OMP adds one atom per iteration). The passive set P (the columns free to
// be positive) is factored by an updatableQR, so each least-squares solve on P costs O(|P|²)
// after an O(d|P|) column update, never a fresh factorisation.
type nnlsSolver struct {
	d       int
	b       []float64
	cols    [][]float64 // the columns of A, in the order they were added
	norms   []float64
	x       []float64 // current feasible solution, one entry per column
	passive []int     // columns of P, in the order of the QR factorisation
	qr      *updatableQR
	z       []float64 // Qᵀb for the columns of P
	sol     []float64 // work: least-squares solution on P
	r       []float64 // residual b − Ax
	blocked []bool    // columns refused since x last changed (dependent, or entering at zero)
}

func newNNLSSolver(b []float64, capacity int) *nnlsSolver {
	return &nnlsSolver{d: len(b), b: b, qr: newUpdatableQR(len(b), max(1, capacity)), r: append([]float64(nil), b...)}
}

// addColumn appends a column (retained, not copied) with coefficient zero.
func (s *nnlsSolver) addColumn(a []float64) {
	s.cols = append(s.cols, a)
	s.norms = append(s.norms, norm2(a))
	s.x = append(s.x, 0)
	s.blocked = append(s.blocked, false)
}

// positivityTolerance is the correlation a column needs to enter: above rounding, which is
// about d·ε·‖a‖·‖r‖ for a dot product of length d.
func positivityTolerance(d int, aNorm, rNorm float64) float64 {
	return 10 * float64(d) * 0x1p-52 * aNorm * rNorm
}

// solve runs Lawson–Hanson from the current x until no column outside P has a positive
// correlation with the residual (the optimality conditions), and refreshes r.
func (s *nnlsSolver) solve() {
	clear(s.blocked)
	maxOuter := 3*len(s.cols) + 10 // Lawson–Hanson terminates; this only guards against cycling in rounding
	inPassive := make([]bool, len(s.cols))
	for _, j := range s.passive {
		inPassive[j] = true
	}
	for range maxOuter {
		rNorm := norm2(s.r)
		enter, bestValue := -1, 0.0
		for j, a := range s.cols {
			if inPassive[j] || s.blocked[j] || s.norms[j] == 0 {
				continue
			}
			w := dot(a, s.r)
			if w > positivityTolerance(s.d, s.norms[j], rNorm) && w/s.norms[j] > bestValue {
				enter, bestValue = j, w/s.norms[j]
			}
		}
		if enter < 0 {
			return
		}
		if !s.qr.append(s.cols[enter]) {
			s.blocked[enter] = true
			continue
		}
		s.z = append(s.z, dot(s.qr.row(s.qr.k-1), s.b))
		s.passive = append(s.passive, enter)
		inPassive[enter] = true
		if !s.innerLoop(enter, inPassive) {
			s.blocked[enter] = true
			continue
		}
		clear(s.blocked)
		s.refreshResidual()
	}
}

// innerLoop solves least squares on P and walks back towards feasibility (Lawson & Hanson's
// steps 6–11) until the solution on P is positive, then stores it in x. It returns false,
// restoring P, when the entering column would leave at once with x unchanged (a degenerate
// step that rounding can cause).
func (s *nnlsSolver) innerLoop(enter int, inPassive []bool) bool {
	for first := true; ; first = false {
		k := s.qr.k
		if cap(s.sol) < k {
			s.sol = make([]float64, k, 2*k)
		}
		sol := s.sol[:k]
		s.qr.solve(sol, s.z)
		alpha, worst := 1.0, -1
		for l, j := range s.passive {
			if sol[l] <= 0 {
				a := 0.0 // x_j = sol_l = 0: no step possible
				if gap := s.x[j] - sol[l]; gap > 0 {
					a = s.x[j] / gap
				}
				if a < alpha || worst < 0 {
					alpha, worst = a, l
				}
			}
		}
		if worst < 0 {
			for l, j := range s.passive {
				s.x[j] = sol[l]
			}
			return true
		}
		if first && alpha <= 0 && s.passive[worst] == enter {
			s.removePassive(len(s.passive)-1, inPassive)
			return false
		}
		for l, j := range s.passive {
			s.x[j] += alpha * (sol[l] - s.x[j])
		}
		s.x[s.passive[worst]] = 0
		for l := len(s.passive) - 1; l >= 0; l-- {
			if s.x[s.passive[l]] <= 0 {
				s.x[s.passive[l]] = 0
				s.removePassive(l, inPassive)
			}
		}
	}
}

// removePassive takes the column at position l of P out of the factorisation.
func (s *nnlsSolver) removePassive(l int, inPassive []bool) {
	inPassive[s.passive[l]] = false
	s.qr.remove(l, s.z)
	s.z = s.z[:s.qr.k]
	s.passive = append(s.passive[:l], s.passive[l+1:]...)
}

// refreshResidual sets r = b − Ax.
func (s *nnlsSolver) refreshResidual() {
	copy(s.r, s.b)
	for _, j := range s.passive {
		axpy(-s.x[j], s.cols[j], s.r)
	}
}

// NonNegativeLeastSquares returns x ≥ 0 minimising ‖b − Ax‖₂, by the active-set method of
// Lawson & Hanson (1974), the solver inside [NonNegativeOMP]. A is d×n, b has length d; entries
// must be finite. Columns that are zero or linearly dependent on the free columns stay at zero.
// Time O(d·n) per active-set change plus O(d·|P|) per factorisation update; memory O(dn) (a
// copy of A's columns) plus O(d·|P| + |P|²).
func NonNegativeLeastSquares(a mat.Matrix, b []float64) ([]float64, error) {
	const op = "NonNegativeLeastSquares"
	if a == nil {
		return nil, fmt.Errorf("pursuit: %s: matrix is nil", op)
	}
	if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("pursuit: %s: matrix is a nil %T", op, a)
	}
	d, n := a.Dims()
	if d == 0 || n == 0 {
		return nil, fmt.Errorf("pursuit: %s: matrix is empty (%d×%d)", op, d, n)
	}
	if len(b) != d {
		return nil, laberr.Errorf(laberr.ErrShape, "pursuit: %s: len(b) = %d, want the %d rows of the matrix", op, len(b), d)
	}
	if i := firstNonFinite(b); i >= 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: b[%d] = %g, want finite values", op, i, b[i])
	}
	s := newNNLSSolver(append([]float64(nil), b...), min(d, n))
	for j := range n {
		col := make([]float64, d)
		for i := range d {
			col[i] = a.At(i, j)
			if math.IsNaN(col[i]) || math.IsInf(col[i], 0) {
				return nil, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: entry [%d,%d] = %g, want finite values", op, i, j, col[i])
			}
		}
		s.addColumn(col)
	}
	s.solve()
	if i := firstNonFinite(s.x); i >= 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: x[%d] = %g: the solve overflowed (entries of the matrix or of b too small or too large; rescale them)", op, i, s.x[i])
	}
	return s.x, nil
}
