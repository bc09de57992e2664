package learn

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// SVMOptions tunes [FitSVM]; the zero value selects the defaults given for each field, which are
// LIBSVM's (svm-train -c 1 -e 0.001 -m 100).
type SVMOptions struct {
	// C is the soft-margin penalty, the upper bound on each dual variable: larger C fits the
	// training labels harder (C → ∞ is the hard margin). 0 selects 1.
	C float64
	// Tol is the stopping tolerance ε on the maximal KKT violation: SMO stops once
	// max_{i∈I_up} −y_i∇_i − min_{j∈I_low} −y_j∇_j < ε, so every margin condition of the
	// solution holds within ε. 0 selects 1e-3.
	Tol float64
	// MaxIter bounds the SMO iterations (two dual variables change per iteration); a fit that
	// reaches it is returned with Converged() false. 0 selects max(10⁷, 100n), LIBSVM's bound.
	MaxIter int
	// CacheMiB bounds the memory of the kernel-row cache in MiB (2²⁰ bytes); rows are float64 and
	// the least recently used one is evicted. The cache holds at least two rows whatever the
	// bound and never more than n. 0 selects 100.
	CacheMiB float64
}

const (
	defaultSVMC        = 1
	defaultSVMTol      = 1e-3
	defaultSVMCacheMiB = 100
	// minSVMMaxIter is LIBSVM's floor on the default iteration bound max(10⁷, 100n).
	minSVMMaxIter = 10_000_000
	// svmTau replaces a non-positive curvature K_ii + K_jj − 2K_ij in the two-variable step
	// (LIBSVM's TAU): an indefinite or duplicated pair still makes a finite, bounded move.
	svmTau = 1e-12
	// svmCancelCheck is how many SMO iterations run between two looks at the context.
	svmCancelCheck = 256
	// svmRowChunk is the number of kernel-row entries one goroutine computes: a constant, so the
	// rows (hence the fit) do not depend on the number of goroutines.
	svmRowChunk = 2048
)

// SVM is a fitted binary soft-margin support vector classifier with decision function
// f(x) = Σ_i y_i α_i k(x_i, x) + b over its support vectors x_i (the training points with
// α_i > 0). Predict gives the larger of the two training labels where f(x) > 0, the smaller
// elsewhere.
type SVM struct {
	kernel     kernel.Kernel
	support    *mat.Dense // support vectors, one per row, in training order; nil when there are none
	d          int        // number of input columns
	indices    []int      // rows of the training X that are support vectors, increasing
	coef       []float64  // y_i α_i for each support vector
	bias       float64
	negative   float64 // the training label coded −1 (the smaller value)
	positive   float64 // the training label coded +1 (the larger value)
	dual       float64
	iterations int
	converged  bool
}

// FitSVM trains the C-support vector classifier on the rows of X (n×d) with labels y, which must
// take exactly two distinct values (any two: the larger is coded +1, the smaller −1). It solves
// the dual problem
//
//	min_α ½ αᵀQα − Σ_i α_i  subject to  Σ_i y_i α_i = 0,  0 ≤ α_i ≤ C,  Q_ij = y_i y_j k(x_i, x_j),
//
// by sequential minimal optimisation (Platt 1998) with the second-order working-set selection of
// Fan, Chen & Lin (2005, JMLR 6), as LIBSVM does (without shrinking), and sets the bias as
// LIBSVM does: b = −ρ with ρ the mean of y_i∇_i over the free α_i, or the middle of the interval
// the bounded ones allow when none is free. The n×n Gram matrix is never formed: kernel rows are
// computed on demand and kept in a least-recently-used cache. Any [kernel.Kernel] works; the Gaussian and linear kernels of lab/kernel have
// their kernel rows computed by a matrix-vector product, others by Eval pair by pair (on all
// cores, so Eval must be safe for concurrent use, as [kernel.Gram] requires).
//
// Errors: nil or invalid kernel, nil/empty X, NaN or ±Inf in X or y, len(y) ≠ n, labels not
// taking exactly two values, invalid options, a kernel value that is NaN or ±Inf. A fit stopped
// by MaxIter is not an error: see Converged.
// Cost: O(n) time per iteration plus O(n·d) per kernel row not in the cache (two rows at most per
// iteration); memory O(n·d) for a copy of X plus the cache (opts.CacheMiB).
func FitSVM(k kernel.Kernel, X mat.Matrix, y []float64, opts SVMOptions) (*SVM, error) {
	return FitSVMContext(context.Background(), k, X, y, opts)
}

// FitSVMContext is [FitSVM] that gives up with ctx's error when ctx is cancelled, so that a long
// fit can be stopped (from a notebook, or at a deadline).
func FitSVMContext(ctx context.Context, k kernel.Kernel, X mat.Matrix, y []float64, opts SVMOptions) (*SVM, error) {
	const op = "FitSVM"
	if err := ctxcheck.NotNil(ctx, "learn: "+op); err != nil {
		return nil, err
	}
	train, err := trainingCopy(op, X, y)
	if err != nil {
		return nil, err
	}
	n, d := train.Dims()
	negative, positive, signs, err := binaryLabels(op, y)
	if err != nil {
		return nil, err
	}
	opts, err = opts.withDefaults(n)
	if err != nil {
		return nil, err
	}
	diag, err := kernel.Diagonal(k, train)
	if err != nil {
		return nil, fmt.Errorf("learn: %s: %w", op, err)
	}
	if err := checkFinite(op, "the kernel diagonal k(x_i, x_i)", diag); err != nil {
		return nil, err
	}
	rows := newKernelRows(k, train)
	cache := newRowCache(n, cacheRows(opts.CacheMiB, n), func(i int, dst []float64) error {
		rows.fill(i, dst)
		for j, v := range dst {
			if v-v != 0 {
				return laberr.Errorf(laberr.ErrNonFinite, "learn: %s: kernel %s gives k(x_%d, x_%d) = %g, want finite values", op, k.Name(), i, j, v)
			}
			dst[j] = signs[i] * signs[j] * v
		}
		return nil
	})
	s := &smo{y: signs, qd: diag, c: opts.C, tol: opts.Tol, q: cache,
		alpha: make([]float64, n), grad: make([]float64, n), up: make([]bool, n), low: make([]bool, n)}
	for i := range s.grad {
		s.grad[i] = -1 // ∇(½αᵀQα − Σα) at α = 0
		s.setBounds(i)
	}
	if err := s.solve(ctx, opts.MaxIter); err != nil {
		return nil, fmt.Errorf("learn: %s: %w", op, err)
	}

	m := &SVM{kernel: k, d: d, bias: -s.rho(), negative: negative, positive: positive,
		dual: s.dualObjective(), iterations: s.iterations, converged: s.converged}
	for i, a := range s.alpha {
		if a > 0 {
			m.indices = append(m.indices, i)
			m.coef = append(m.coef, signs[i]*a)
		}
	}
	if len(m.indices) > 0 {
		m.support = mat.NewDense(len(m.indices), d, nil)
		for r, i := range m.indices {
			m.support.SetRow(r, train.RawRowView(i))
		}
	}
	return m, nil
}

// withDefaults validates the options and fills in the zero fields; n is the number of points.
func (o SVMOptions) withDefaults(n int) (SVMOptions, error) {
	const op = "learn: FitSVM: options"
	switch {
	case !(o.C >= 0) || math.IsInf(o.C, 0):
		return o, fmt.Errorf("%s: C = %g, want a finite value > 0 (0 selects %g)", op, o.C, float64(defaultSVMC))
	case !(o.Tol >= 0) || math.IsInf(o.Tol, 0):
		return o, fmt.Errorf("%s: Tol = %g, want a finite value > 0 (0 selects %g)", op, o.Tol, defaultSVMTol)
	case o.MaxIter < 0:
		return o, fmt.Errorf("%s: MaxIter = %d, want ≥ 0 (0 selects max(10⁷, 100n))", op, o.MaxIter)
	case !(o.CacheMiB >= 0) || math.IsInf(o.CacheMiB, 0):
		return o, fmt.Errorf("%s: CacheMiB = %g, want a finite value ≥ 0 (0 selects %d)", op, o.CacheMiB, defaultSVMCacheMiB)
	}
	if o.C == 0 {
		o.C = defaultSVMC
	}
	if o.Tol == 0 {
		o.Tol = defaultSVMTol
	}
	if o.MaxIter == 0 {
		o.MaxIter = minSVMMaxIter
		if n <= math.MaxInt/100 {
			o.MaxIter = max(o.MaxIter, 100*n)
		}
	}
	if o.CacheMiB == 0 {
		o.CacheMiB = defaultSVMCacheMiB
	}
	return o, nil
}

// binaryLabels checks that y takes exactly two values and returns them (smaller first) with the
// ±1 code of every point (+1 for the larger value).
func binaryLabels(op string, y []float64) (negative, positive float64, signs []float64, err error) {
	negative, positive = y[0], y[0]
	for i, v := range y {
		switch {
		case v == negative || v == positive:
		case negative == positive:
			negative, positive = min(negative, v), max(positive, v)
		default:
			return 0, 0, nil, fmt.Errorf("learn: %s: y[%d] = %g is a third label after %g and %g; the SVM is binary",
				op, i, v, negative, positive)
		}
	}
	if negative == positive {
		return 0, 0, nil, fmt.Errorf("learn: %s: every label is %g, want two classes", op, negative)
	}
	signs = make([]float64, len(y))
	for i, v := range y {
		signs[i] = -1
		if v == positive {
			signs[i] = 1
		}
	}
	return negative, positive, signs, nil
}

// cacheRows returns how many kernel rows of length n fit in mib MiB, clamped to [2, n] (two rows
// are in use at once; n rows are the whole matrix).
func cacheRows(mib float64, n int) int {
	rows := mib * (1 << 20) / (8 * float64(n))
	if rows >= float64(n) {
		return max(n, 2)
	}
	return max(2, int(rows))
}

// smo holds the state of the SMO solver for min ½αᵀQα − Σα, yᵀα = 0, 0 ≤ α ≤ C.
type smo struct {
	y          []float64 // ±1
	qd         []float64 // Q_ii = k(x_i, x_i)
	c, tol     float64
	q          *rowCache // rows of Q
	alpha      []float64
	grad       []float64 // ∇ = Qα − 1, kept up to date
	up, low    []bool    // membership of I_up and I_low (see setBounds)
	iterations int
	converged  bool
}

// setBounds records whether α_t can move in the direction that raises y_t α_t (the set I_up of
// Fan, Chen & Lin) and whether it can lower it (I_low). Bounds are exact: the update clamps α to
// 0 and C.
func (s *smo) setBounds(t int) {
	belowC, aboveZero := s.alpha[t] < s.c, s.alpha[t] > 0
	if s.y[t] > 0 {
		s.up[t], s.low[t] = belowC, aboveZero
	} else {
		s.up[t], s.low[t] = aboveZero, belowC
	}
}

// solve runs SMO iterations until the maximal KKT violation is below tol (converged) or maxIter
// iterations were made.
func (s *smo) solve(ctx context.Context, maxIter int) error {
	for s.iterations < maxIter {
		if s.iterations%svmCancelCheck == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		i, j, err := s.selectWorkingSet()
		if err != nil {
			return err
		}
		if j < 0 {
			s.converged = true
			return nil
		}
		if err := s.update(i, j); err != nil {
			return err
		}
		s.iterations++
	}
	// The last iteration may have reached the tolerance.
	i, j, err := s.selectWorkingSet()
	s.converged = err == nil && (i < 0 || j < 0)
	return err
}

// selectWorkingSet returns the pair (i, j) of Fan, Chen & Lin's WSS 2 (LIBSVM's
// select_working_set): i maximises −y_i∇_i over I_up, j minimises the second-order decrease
// −b_ij²/a_ij over the t in I_low with b_it = −y_i∇_i + y_t∇_t > 0. j is −1 when the maximal
// violation −y_i∇_i + max_{t∈I_low} y_t∇_t is below tol (the solution is optimal within tol).
func (s *smo) selectWorkingSet() (i, j int, err error) {
	gmax := math.Inf(-1) // max_{t∈I_up} −y_t∇_t
	i = -1
	y, up, low := s.y[:len(s.grad)], s.up[:len(s.grad)], s.low[:len(s.grad)]
	for t, g := range s.grad {
		if up[t] && -y[t]*g >= gmax {
			gmax, i = -s.y[t]*g, t
		}
	}
	if i < 0 {
		return -1, -1, nil
	}
	qi, err := s.q.row(i)
	if err != nil {
		return -1, -1, err
	}
	qi, qd := qi[:len(s.grad)], s.qd[:len(s.grad)]
	gmax2 := math.Inf(-1) // max_{t∈I_low} y_t∇_t
	best := math.Inf(1)
	j = -1
	for t, g := range s.grad {
		if !low[t] {
			continue
		}
		yg := y[t] * g
		gmax2 = max(gmax2, yg)
		if diff := gmax + yg; diff > 0 {
			// a_it = K_ii + K_tt − 2K_it, and y_i Q_it = y_t K_it.
			curvature := qd[i] + qd[t] - 2*y[i]*y[t]*qi[t]
			if curvature <= 0 {
				curvature = svmTau
			}
			if obj := -diff * diff / curvature; obj <= best {
				best, j = obj, t
			}
		}
	}
	if gmax+gmax2 < s.tol {
		return i, -1, nil
	}
	return i, j, nil
}

// update solves the two-variable subproblem in (α_i, α_j) exactly, clips it to the box as LIBSVM
// does, and updates the gradient with rows i and j of Q.
func (s *smo) update(i, j int) error {
	qi, err := s.q.row(i)
	if err != nil {
		return err
	}
	qj, err := s.q.row(j) // the cache holds two rows or more: row i stays valid
	if err != nil {
		return err
	}
	c := s.c
	oldI, oldJ := s.alpha[i], s.alpha[j]
	ai, aj := oldI, oldJ
	if s.y[i] != s.y[j] {
		curvature := s.qd[i] + s.qd[j] + 2*qi[j]
		if curvature <= 0 {
			curvature = svmTau
		}
		delta := (-s.grad[i] - s.grad[j]) / curvature
		diff := ai - aj
		ai += delta
		aj += delta
		if diff > 0 {
			if aj < 0 {
				aj, ai = 0, diff
			}
		} else if ai < 0 {
			ai, aj = 0, -diff
		}
		if diff > 0 {
			if ai > c {
				ai, aj = c, c-diff
			}
		} else if aj > c {
			aj, ai = c, c+diff
		}
	} else {
		curvature := s.qd[i] + s.qd[j] - 2*qi[j]
		if curvature <= 0 {
			curvature = svmTau
		}
		delta := (s.grad[i] - s.grad[j]) / curvature
		sum := ai + aj
		ai -= delta
		aj += delta
		if sum > c {
			if ai > c {
				ai, aj = c, sum-c
			}
		} else if aj < 0 {
			aj, ai = 0, sum
		}
		if sum > c {
			if aj > c {
				aj, ai = c, sum-c
			}
		} else if ai < 0 {
			ai, aj = 0, sum
		}
	}
	s.alpha[i], s.alpha[j] = ai, aj
	s.setBounds(i)
	s.setBounds(j)
	di, dj := ai-oldI, aj-oldJ
	qi, qj = qi[:len(s.grad)], qj[:len(s.grad)]
	for t := range s.grad {
		s.grad[t] += qi[t]*di + qj[t]*dj
	}
	return nil
}

// rho returns LIBSVM's ρ (the bias is −ρ): the mean of y_t∇_t over the free α_t, or, when none
// is free, the middle of the interval [max lower bound, min upper bound] that the KKT conditions
// of the bounded α_t leave for it.
func (s *smo) rho() float64 {
	upper, lower := math.Inf(1), math.Inf(-1)
	var sumFree float64
	free := 0
	for t, g := range s.grad {
		yg := s.y[t] * g
		switch {
		case s.alpha[t] >= s.c:
			if s.y[t] < 0 {
				upper = min(upper, yg)
			} else {
				lower = max(lower, yg)
			}
		case s.alpha[t] <= 0:
			if s.y[t] > 0 {
				upper = min(upper, yg)
			} else {
				lower = max(lower, yg)
			}
		default:
			free++
			sumFree += yg
		}
	}
	if free > 0 {
		return sumFree / float64(free)
	}
	return (upper + lower) / 2
}

// dualObjective returns Σα − ½αᵀQα = −½ Σ_t α_t (∇_t − 1), from the maintained gradient.
func (s *smo) dualObjective() float64 {
	var v float64
	for t, a := range s.alpha {
		v += a * (s.grad[t] - 1)
	}
	return -v / 2
}

// kernelRows computes rows of the Gram matrix of the training points without forming it.
type kernelRows struct {
	k       kernel.Kernel
	x       []float64 // row-major n×d training inputs
	n, d    int
	gamma   float64   // Gaussian kernels: 1/(2σ²)
	sqNorms []float64 // Gaussian kernels: ||x_i||²
	product bool      // Gaussian and linear kernels: rows from X·x_i
}

func newKernelRows(k kernel.Kernel, train *mat.Dense) *kernelRows {
	n, d := train.Dims()
	r := &kernelRows{k: k, x: train.RawMatrix().Data, n: n, d: d}
	switch kk := k.(type) {
	case kernel.Gaussian:
		r.gamma = kk.Gamma()
	case *kernel.Gaussian:
		r.gamma = kk.Gamma()
	case kernel.Linear, *kernel.Linear:
		r.product = true
	}
	if r.gamma > 0 {
		r.product = true
		r.sqNorms = make([]float64, n)
		for i := range n {
			xi := r.row(i)
			r.sqNorms[i] = blas64.Dot(blas64.Vector{N: d, Inc: 1, Data: xi}, blas64.Vector{N: d, Inc: 1, Data: xi})
		}
	}
	return r
}

func (r *kernelRows) row(i int) []float64 { return r.x[i*r.d : (i+1)*r.d] }

// fill writes k(x_i, x_j) for j < n into dst, in chunks of svmRowChunk entries on all cores.
func (r *kernelRows) fill(i int, dst []float64) {
	xi := r.row(i)
	parallel.For(parallel.BlockCount(r.n, svmRowChunk), func(_, b int) {
		lo, hi := b*svmRowChunk, min(r.n, (b+1)*svmRowChunk)
		out := dst[lo:hi]
		if !r.product {
			for j := range out {
				out[j] = r.k.Eval(xi, r.row(lo+j))
			}
			return
		}
		blas64.Gemv(blas.NoTrans, 1,
			blas64.General{Rows: hi - lo, Cols: r.d, Stride: r.d, Data: r.x[lo*r.d : hi*r.d]},
			blas64.Vector{N: r.d, Inc: 1, Data: xi}, 0, blas64.Vector{N: hi - lo, Inc: 1, Data: out})
		if r.gamma == 0 {
			return // linear kernel: the product is the kernel
		}
		for j, g := range out {
			// ||x_i − x_j||² = ||x_i||² + ||x_j||² − 2<x_i, x_j>, clipped at 0 against cancellation.
			out[j] = -r.gamma * max(0, r.sqNorms[i]+r.sqNorms[lo+j]-2*g)
		}
		kernel.ExpNonPositive(out, out)
		if i >= lo && i < hi {
			out[i-lo] = 1 // exactly, whatever the rounding of the product
		}
	})
}

// rowCache keeps the most recently used rows of an n×n matrix, at most capacity of them,
// computing a missing row with fill and evicting the least recently used one.
type rowCache struct {
	fill       func(i int, dst []float64) error
	n          int
	slotOf     []int // row → slot holding it, or −1
	rowOf      []int // slot → row it holds
	data       [][]float64
	prev, next []int // recency list over the slots, most recent at head
	head, tail int
}

func newRowCache(n, capacity int, fill func(i int, dst []float64) error) *rowCache {
	c := &rowCache{fill: fill, n: n, slotOf: make([]int, n), head: -1, tail: -1,
		rowOf: make([]int, 0, capacity), data: make([][]float64, 0, capacity),
		prev: make([]int, 0, capacity), next: make([]int, 0, capacity)}
	for i := range c.slotOf {
		c.slotOf[i] = -1
	}
	return c
}

// row returns row i, valid until capacity other rows have been requested since. On a fill
// error the row is not cached.
func (c *rowCache) row(i int) ([]float64, error) {
	if s := c.slotOf[i]; s >= 0 {
		c.moveToHead(s)
		return c.data[s], nil
	}
	var s int
	if len(c.data) < cap(c.data) {
		s = len(c.data)
		c.data = append(c.data, make([]float64, c.n))
		c.rowOf = append(c.rowOf, -1)
		c.prev = append(c.prev, -1)
		c.next = append(c.next, -1)
		c.pushHead(s)
	} else {
		s = c.tail
		c.slotOf[c.rowOf[s]] = -1
		c.rowOf[s] = -1
		c.moveToHead(s)
	}
	if err := c.fill(i, c.data[s]); err != nil {
		return nil, err
	}
	c.rowOf[s], c.slotOf[i] = i, s
	return c.data[s], nil
}

func (c *rowCache) pushHead(s int) {
	c.prev[s], c.next[s] = -1, c.head
	if c.head >= 0 {
		c.prev[c.head] = s
	}
	c.head = s
	if c.tail < 0 {
		c.tail = s
	}
}

func (c *rowCache) moveToHead(s int) {
	if s == c.head {
		return
	}
	// Unlink s (it is not the head, so it has a predecessor).
	c.next[c.prev[s]] = c.next[s]
	if c.next[s] >= 0 {
		c.prev[c.next[s]] = c.prev[s]
	} else {
		c.tail = c.prev[s]
	}
	c.pushHead(s)
}

// Decision returns f(x) = Σ_i y_i α_i k(x_i, x) + b for each row x of X (m×d, d as in training):
// the signed score whose sign Predict turns into a label, positive for the larger training label.
// The cross-kernel with the support vectors is computed in blocks of rows ([kernel.CrossBlocks], all
// cores). Errors: nil/empty X, NaN or ±Inf, a column count other than the training one.
// Cost: O(m·s·d) time for s support vectors, O(m + s·d) memory plus one block of at most 2 MiB.
func (m *SVM) Decision(X mat.Matrix) ([]float64, error) {
	return m.decision("SVM.Decision", X)
}

func (m *SVM) decision(op string, X mat.Matrix) ([]float64, error) {
	if m == nil || m.d == 0 {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "learn: %s: the model is not fitted (make it with FitSVM)", op)
	}
	x, err := matcheck.PredictCopy("learn: "+op, X, m.d)
	if err != nil {
		return nil, err
	}
	rows, _ := x.Dims()
	out := make([]float64, rows)
	for i := range out {
		out[i] = m.bias
	}
	if m.support == nil {
		return out, nil
	}
	s, _ := m.support.Dims()
	err = kernel.CrossBlocks(m.kernel, x, m.support, func(lo, hi int, block *mat.Dense) {
		// out[lo:hi] = b + K·coef
		blas64.Gemv(blas.NoTrans, 1, block.RawMatrix(), blas64.Vector{N: s, Inc: 1, Data: m.coef}, 1,
			blas64.Vector{N: hi - lo, Inc: 1, Data: out[lo:hi]})
	})
	if err != nil {
		return nil, fmt.Errorf("learn: %s: %w", op, err)
	}
	if err := finiteOutput(op, "decision", out); err != nil {
		return nil, err
	}
	return out, nil
}

// Predict returns the label of each row of X: the larger training label where Decision is > 0,
// the smaller one elsewhere (as LIBSVM, a score of exactly 0 goes to the −1 class). Errors and
// cost as for Decision.
func (m *SVM) Predict(X mat.Matrix) ([]float64, error) {
	scores, err := m.decision("SVM.Predict", X)
	if err != nil {
		return nil, err
	}
	for i, f := range scores {
		scores[i] = m.negative
		if f > 0 {
			scores[i] = m.positive
		}
	}
	return scores, nil
}

// NumSupportVectors returns the number of training points with α_i > 0, the size of the model
// and the cost factor of Decision.
func (m *SVM) NumSupportVectors() int { return len(m.indices) }

// SupportIndices returns the rows of the training X that are support vectors (α_i > 0), in
// increasing order: which labelled points the classifier rests on.
func (m *SVM) SupportIndices() []int { return append([]int(nil), m.indices...) }

// DualCoefficients returns y_i α_i for each support vector, in the order of SupportIndices
// (scikit-learn's dual_coef_): the weights of the kernel sum in the decision function.
func (m *SVM) DualCoefficients() []float64 { return append([]float64(nil), m.coef...) }

// Bias returns b in f(x) = Σ_i y_i α_i k(x_i, x) + b (LIBSVM's −ρ, scikit-learn's intercept_).
func (m *SVM) Bias() float64 { return m.bias }

// Classes returns the two training labels: the one coded −1 (the smaller) and the one coded +1.
func (m *SVM) Classes() (negative, positive float64) { return m.negative, m.positive }

// DualObjective returns Σ_i α_i − ½αᵀQα at the solution found (the dual problem's value, which
// equals the primal optimum ½||w||² + C Σ ξ_i at convergence; LIBSVM prints its negative as obj).
func (m *SVM) DualObjective() float64 { return m.dual }

// Iterations returns the number of SMO iterations (pairs of dual variables updated) the fit made.
func (m *SVM) Iterations() int { return m.iterations }

// Converged reports whether the fit met the tolerance (SVMOptions.Tol) before MaxIter
// iterations; when false the model is usable but its margin conditions hold only approximately.
func (m *SVM) Converged() bool { return m.converged }
