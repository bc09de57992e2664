package lowrank

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Nystrom is a fitted Nyström approximation: with landmarks S, W = K(S, S) = V Σ Vᵀ (eigenvalues
// in decreasing order), the approximation K̂ = C W_k⁺ Cᵀ of K(X, X), C = K(X, S), is ΦΦᵀ for the
// feature map Φ(x) = k(x, S) V_k Σ_k^{-1/2} (the lecture notes). The pseudo-inverse keeps the Rank largest
// eigenvalues that exceed Cutoff·λ_max, so Components may be smaller than Rank when W is
// numerically singular (duplicate points, a too large bandwidth).
//
// Set Kernel, Rank and Cutoff and call Fit, or use [FitNystrom]; changing them afterwards has no
// effect until the next Fit. Memory: the s×d landmark points and the s×k normalisation matrix;
// Transform adds only its n×k result and a 2 MiB block buffer per core.
type Nystrom struct {
	// Kernel is the kernel to approximate.
	Kernel kernel.Kernel
	// Rank is k, the number of eigenpairs of W kept; 0 keeps all |S| of them.
	Rank int
	// Cutoff is the relative eigenvalue cut-off; 0 selects DefaultCutoff.
	Cutoff float64

	kernel        kernel.Kernel // Kernel as of the last Fit
	landmarks     []int
	points        *mat.Dense // the landmark rows of X, s×d
	normalization *mat.Dense // V_k Σ_k^{-1/2}, s×Components
}

// FitNystrom fits the rank-k Nyström approximation of k on the rows of X (n×d) with the given
// landmark indices (rank 0 keeps all of them) and the default cut-off.
func FitNystrom(k kernel.Kernel, X mat.Matrix, landmarks []int, rank int) (*Nystrom, error) {
	m := &Nystrom{Kernel: k, Rank: rank}
	if err := m.Fit(X, landmarks); err != nil {
		return nil, err
	}
	return m, nil
}

// Fit computes W = K(S, S) on the landmark rows of X and its rank-k eigendecomposition.
//
// Errors: nil kernel, nil or empty X, NaN or ±Inf in X, no landmarks, a landmark out of range or
// repeated, Rank < 0 or Rank > |S|, a negative or NaN Cutoff, or a W without any positive
// eigenvalue. Cost: O(s²d + s³) time, O(s² + sd) memory.
func (m *Nystrom) Fit(X mat.Matrix, landmarks []int) error {
	const op = "Nystrom.Fit"
	if m.Kernel == nil {
		return fmt.Errorf("lowrank: %s: nil kernel", op)
	}
	x, err := finiteDense(op, "X", X)
	if err != nil {
		return err
	}
	n, _ := x.Dims()
	s := len(landmarks)
	if s == 0 {
		return fmt.Errorf("lowrank: %s: no landmarks", op)
	}
	if err := checkIndices(op, "landmarks", landmarks, n); err != nil {
		return err
	}
	if m.Rank < 0 || m.Rank > s {
		return fmt.Errorf("lowrank: %s: rank %d with %d landmarks, want 0 ≤ rank ≤ |S| (0 = |S|)", op, m.Rank, s)
	}
	cutoff, err := cutoffOrDefault(op, m.Cutoff)
	if err != nil {
		return err
	}
	rank := m.Rank
	if rank == 0 {
		rank = s
	}
	points := gatherRows(x, landmarks)
	w, err := kernel.Gram(m.Kernel, points)
	if err != nil {
		return fmt.Errorf("lowrank: %s: %w", op, err)
	}
	normalization, err := nystromNormalization(w, rank, cutoff)
	if err != nil {
		return fmt.Errorf("lowrank: %s: %w", op, err)
	}
	m.kernel = m.Kernel
	m.landmarks = append([]int(nil), landmarks...)
	m.points = points
	m.normalization = normalization
	return nil
}

// cutoffOrDefault validates a relative cut-off, replacing 0 by DefaultCutoff.
func cutoffOrDefault(op string, cutoff float64) (float64, error) {
	switch {
	case cutoff == 0:
		return DefaultCutoff, nil
	case !(cutoff > 0) || cutoff >= 1:
		return 0, fmt.Errorf("lowrank: %s: cutoff %g, want 0 (default %g) or a value in (0, 1)", op, cutoff, DefaultCutoff)
	}
	return cutoff, nil
}

// nystromNormalization returns V_k Σ_k^{-1/2} for the symmetric w, keeping at most rank
// eigenvalues above cutoff·λ_max.
func nystromNormalization(w *mat.SymDense, rank int, cutoff float64) (*mat.Dense, error) {
	values, vectors, err := eigenDescending(w)
	if err != nil {
		return nil, err
	}
	kept := keptCount(values, cutoff, rank)
	if kept == 0 {
		return nil, errors.New("the landmarks' kernel matrix has no positive eigenvalue")
	}
	s := len(values)
	out := mat.NewDense(s, kept, nil)
	for j := range kept {
		scale := 1 / math.Sqrt(values[j])
		for i := range s {
			out.Set(i, j, vectors.At(i, j)*scale)
		}
	}
	return out, nil
}

// Landmarks returns a copy of the landmark indices (rows of the X given to Fit).
func (m *Nystrom) Landmarks() []int { return append([]int(nil), m.landmarks...) }

// Components returns the number of features Transform produces: Rank (or |S|), less the
// eigenvalues dropped by the cut-off. It is 0 before Fit.
func (m *Nystrom) Components() int {
	if m.normalization == nil {
		return 0
	}
	_, c := m.normalization.Dims()
	return c
}

// Transform returns Φ(X) = K(X, S) V_k Σ_k^{-1/2}, n×Components, for training or new points:
// Φ(X)Φ(X)ᵀ = C W_k⁺ Cᵀ. Errors as for TransformInto. Memory: the result plus a 2 MiB block buffer per core.
func (m *Nystrom) Transform(X mat.Matrix) (*mat.Dense, error) {
	var dst mat.Dense
	if err := m.transformInto("Nystrom.Transform", &dst, X); err != nil {
		return nil, err
	}
	return &dst, nil
}

// TransformInto writes Φ(X) into dst, which must be n×Components or empty (then it is resized),
// so that loops can reuse one large buffer. Rows are computed in blocks on all cores: each
// goroutine computes the cross-kernel K(X_block, S) into its own buffer (about 2 MiB, so it stays
// in cache) and multiplies it by the normalisation (GEMM) straight into the block's rows of dst;
// K(X, S) is never held whole, and the result does not depend on the number of goroutines.
// Errors: Transform before Fit, nil dst, nil or empty X, NaN or ±Inf, a column count other than
// the landmarks', a dst of the wrong shape (left unchanged then).
func (m *Nystrom) TransformInto(dst *mat.Dense, X mat.Matrix) error {
	return m.transformInto("Nystrom.TransformInto", dst, X)
}

// nystromBlockElements bounds each goroutine's cross-kernel block (2 MiB): it is the block size of
// kernel.Cross, so the cross-kernel of a block is one GEMM and one pass of exp.
const nystromBlockElements = 1 << 18

// nystromBlockRows is the number of rows of the blocks of Transform for n rows and s landmarks.
func nystromBlockRows(n, s int) int { return max(1, min(n, nystromBlockElements/s)) }

func (m *Nystrom) transformInto(op string, dst *mat.Dense, X mat.Matrix) error {
	if m.normalization == nil {
		return laberr.Errorf(laberr.ErrNotFitted, "lowrank: %s: the approximation is not fitted", op)
	}
	s, d := m.points.Dims()
	x, err := featureMapArgs(op, dst, X, d, "the landmarks", m.Components())
	if err != nil {
		return err
	}
	n, _ := x.Dims()
	out := dst.RawMatrix()
	blockRows := nystromBlockRows(n, s)
	buffers := make([][]float64, parallel.Workers(parallel.BlockCount(n, blockRows)))
	return parallel.Blocks(n, blockRows, func(worker, i0, i1 int) error {
		if buffers[worker] == nil {
			buffers[worker] = make([]float64, blockRows*s)
		}
		block := mat.NewDense(i1-i0, s, buffers[worker][:(i1-i0)*s])
		if err := kernel.CrossInto(block, m.kernel, x.Slice(i0, i1, 0, d), m.points); err != nil {
			return fmt.Errorf("lowrank: %s: %w", op, err)
		}
		m.project(rowBlock(out, i0, i1), block.RawMatrix())
		return nil
	})
}

// project sets dst = cross · V_k Σ_k^{-1/2}, the GEMM that turns a block of the cross-kernel
// K(X, S) into features.
func (m *Nystrom) project(dst, cross blas64.General) {
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, cross, m.normalization.RawMatrix(), 0, dst)
}
