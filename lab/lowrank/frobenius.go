package lowrank

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// FrobeniusError returns ||K − ΦΦᵀ||_F restricted to the rows and columns subset of X (all rows
// when subset is empty), where K = K(X, X) and features = Φ (n×r, e.g. from [Nystrom.Transform] or
// [RFF.Transform] on the same X). Both matrices are computed in 512×512 tiles of the upper triangle
// on all cores, so no n×n matrix is formed: memory O(m(d + r)) for m = |subset|, plus 4 MiB per
// core; time O(m²(d + r)).
//
// Errors: nil kernel, nil, empty or non-finite X or features, features with a row count other
// than X's, a subset index out of range or repeated, non-finite kernel values ([kernel.Cross]) and
// sums of squares that overflow.
func FrobeniusError(k kernel.Kernel, X mat.Matrix, features *mat.Dense, subset []int) (float64, error) {
	diff2, _, err := frobeniusSums("FrobeniusError", k, X, features, features, subset)
	if err != nil {
		return 0, err
	}
	return math.Sqrt(diff2), nil
}

// RelativeFrobeniusError returns ||K − ΦΦᵀ||_F / ||K||_F on the rows and columns subset of X,
// the error measure of the MEKA paper and of the thesis's figures, computed like [FrobeniusError] in
// one pass. Errors as for FrobeniusError, plus ||K||_F = 0 on the subset.
func RelativeFrobeniusError(k kernel.Kernel, X mat.Matrix, features *mat.Dense, subset []int) (float64, error) {
	return relativeFrobenius("RelativeFrobeniusError", k, X, features, features, subset)
}

func relativeFrobenius(op string, k kernel.Kernel, X mat.Matrix, left, right *mat.Dense, subset []int) (float64, error) {
	diff2, kernel2, err := frobeniusSums(op, k, X, left, right, subset)
	if err != nil {
		return 0, err
	}
	if math.IsInf(kernel2, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "lowrank: %s: ||K||²_F overflows on the subset; rescale the kernel", op)
	}
	if kernel2 == 0 {
		return 0, fmt.Errorf("lowrank: %s: the kernel matrix is zero on the subset, the relative error is undefined", op)
	}
	return math.Sqrt(diff2 / kernel2), nil
}

// frobeniusTile is the side of the tiles of FrobeniusError (2 MiB per matrix tile).
const frobeniusTile = 512

// frobeniusSums returns Σ (K_ij − K̂_ij)² and Σ K_ij² over i, j in subset, for K̂ = left·rightᵀ
// (which must be symmetric: the upper triangle is computed and the rest mirrored).
func frobeniusSums(op string, k kernel.Kernel, X mat.Matrix, left, right *mat.Dense, subset []int) (diff2, kernel2 float64, err error) {
	if k == nil {
		return 0, 0, fmt.Errorf("lowrank: %s: nil kernel", op)
	}
	x, err := finiteDense(op, "X", X)
	if err != nil {
		return 0, 0, err
	}
	if left, err = finiteDense(op, "features", left); err != nil {
		return 0, 0, err
	}
	if right != left { // finiteDense returns a *mat.Dense itself, so ΦΦᵀ keeps right == left
		if right, err = finiteDense(op, "features", right); err != nil {
			return 0, 0, err
		}
	}
	n, d := x.Dims()
	if fr, _ := left.Dims(); fr != n {
		return 0, 0, laberr.Errorf(laberr.ErrShape, "lowrank: %s: features have %d rows but X has %d", op, fr, n)
	}
	lr, lc := left.Dims()
	if rr, rc := right.Dims(); rr != lr || rc != lc {
		return 0, 0, laberr.Errorf(laberr.ErrShape, "lowrank: %s: factors of K̂ are %d×%d and %d×%d, want equal shapes", op, lr, lc, rr, rc)
	}
	if len(subset) == 0 {
		subset = make([]int, n)
		for i := range subset {
			subset[i] = i
		}
	} else if err := checkIndices(op, "subset", subset, n); err != nil {
		return 0, 0, err
	}
	m := len(subset)
	xs, ls := gatherRows(x, subset), gatherRows(left, subset)
	rs := ls // ΦΦᵀ: one copy of the features
	if right != left {
		rs = gatherRows(right, subset)
	}
	_, r := ls.Dims()

	tiles := (m + frobeniusTile - 1) / frobeniusTile
	type tile struct{ row, col int }
	var work []tile
	for I := range tiles {
		for J := I; J < tiles; J++ {
			work = append(work, tile{I, J})
		}
	}
	diffSums := make([]float64, len(work))
	kernelSums := make([]float64, len(work))
	workers := parallel.Workers(len(work))
	kBuf := make([][]float64, workers)
	aBuf := make([][]float64, workers)
	errs := make([]error, len(work))
	parallel.For(len(work), func(w, t int) {
		if kBuf[w] == nil {
			kBuf[w] = make([]float64, frobeniusTile*frobeniusTile)
			aBuf[w] = make([]float64, frobeniusTile*frobeniusTile)
		}
		i0, j0 := work[t].row*frobeniusTile, work[t].col*frobeniusTile
		i1, j1 := min(m, i0+frobeniusTile), min(m, j0+frobeniusTile)
		rows, cols := i1-i0, j1-j0
		kt := mat.NewDense(rows, cols, kBuf[w][:rows*cols])
		if err := kernel.CrossInto(kt, k, xs.Slice(i0, i1, 0, d), xs.Slice(j0, j1, 0, d)); err != nil {
			errs[t] = err
			return
		}
		at := blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: aBuf[w][:rows*cols]}
		lraw, rraw := ls.RawMatrix(), rs.RawMatrix()
		blas64.Gemm(blas.NoTrans, blas.Trans, 1,
			blas64.General{Rows: rows, Cols: r, Stride: lraw.Stride, Data: lraw.Data[i0*lraw.Stride:]},
			blas64.General{Rows: cols, Cols: r, Stride: rraw.Stride, Data: rraw.Data[j0*rraw.Stride:]},
			0, at)
		var diffSum, kernelSum float64
		for i := range rows {
			jStart, weight := 0, 2.0
			if i0 == j0 {
				// Diagonal tile: the strict upper triangle counts twice, the diagonal once.
				jStart = i + 1
				kv := kt.At(i, i)
				diffSum += (kv - at.Data[i*cols+i]) * (kv - at.Data[i*cols+i])
				kernelSum += kv * kv
			}
			var rowDiff, rowKernel float64
			for j, kv := range kt.RawRowView(i)[jStart:] {
				e := kv - at.Data[i*cols+jStart+j]
				rowDiff += e * e
				rowKernel += kv * kv
			}
			diffSum += weight * rowDiff
			kernelSum += weight * rowKernel
		}
		diffSums[t], kernelSums[t] = diffSum, kernelSum
	})
	for t := range work {
		if errs[t] != nil {
			return 0, 0, fmt.Errorf("lowrank: %s: %w", op, errs[t])
		}
		diff2 += diffSums[t]
		kernel2 += kernelSums[t]
	}
	if math.IsInf(diff2, 0) || math.IsNaN(diff2) {
		return 0, 0, laberr.Errorf(laberr.ErrNonFinite, "lowrank: %s: ||K − ΦΦᵀ||²_F overflows (%g); rescale the kernel or the features", op, diff2)
	}
	return diff2, kernel2, nil
}

// RelativeFrobenius returns ||K − approx||_F / ||K||_F for two explicit n×n symmetric matrices
// (for instance K and [BestRankK], BKA or [MEKA.Approximation] of it).
//
// Errors: nil, empty or non-finite matrices, different sizes, K = 0.
func RelativeFrobenius(K, approx mat.Symmetric) (float64, error) {
	const op = "RelativeFrobenius"
	n, err := finiteSymmetric(op, "K", K)
	if err != nil {
		return 0, err
	}
	m, err := finiteSymmetric(op, "approx", approx)
	if err != nil {
		return 0, err
	}
	if m != n {
		return 0, laberr.Errorf(laberr.ErrShape, "lowrank: %s: K is %d×%d but approx is %d×%d", op, n, n, m, m)
	}
	var diff2, kernel2 float64
	for i := range n {
		for j := i; j < n; j++ {
			weight := 2.0
			if i == j {
				weight = 1
			}
			kv := K.At(i, j)
			e := kv - approx.At(i, j)
			diff2 += weight * e * e
			kernel2 += weight * kv * kv
		}
	}
	if kernel2 == 0 {
		return 0, fmt.Errorf("lowrank: %s: K is zero, the relative error is undefined", op)
	}
	if math.IsInf(diff2, 0) || math.IsInf(kernel2, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "lowrank: %s: the squared Frobenius norms overflow; rescale K and approx", op)
	}
	return math.Sqrt(diff2 / kernel2), nil
}
