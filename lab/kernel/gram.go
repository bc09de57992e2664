package kernel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"

	// OpenBLAS replaces gonum's pure-Go BLAS when built with -tags openblas.
	_ "github.com/fastkernels/kernellab/lab/blasbackend"
)

// Gram returns K(X, X), the n×n matrix of k(x_i, x_j) over the rows of X (n×d). Only the upper
// triangle is computed (k is assumed symmetric), in row blocks spread over GOMAXPROCS
// goroutines; the Gaussian, polynomial and linear kernels go through one matrix product per block
// (GEMM, so OpenBLAS when lab/blasbackend is built with it) and the exp through [ExpNonPositive]. The
// result does not depend on the number of goroutines, and Cross(k, X, X) equals it exactly.
//
// Errors: nil or empty X, NaN or ±Inf in X, invalid kernel parameters, rows whose squared norms
// exceed MaxFloat64/4 for the Gaussian kernel (the expansion ||x||² + ||z||² − 2<x,z> would
// overflow), and a non-finite kernel value (a polynomial or linear kernel that overflows, a
// user kernel that returns NaN), found by one pass over the result. Memory: the n×n result
// (8n² bytes, so prefer Cross on blocks of rows above a few thousand points) plus O(nd).
func Gram(k Kernel, X mat.Matrix) (*mat.SymDense, error) {
	var dst mat.SymDense
	if err := gramInto("Gram", &dst, k, X); err != nil {
		return nil, err
	}
	return &dst, nil
}

// GramInto writes K(X, X) into dst, which must be n×n or empty (then it is resized), so that
// repeated Gram matrices of one size reuse one buffer. Errors as for Gram, plus a dst of the
// wrong size; on an error of the arguments dst is left unchanged, on a non-finite kernel value
// its contents are unspecified.
func GramInto(dst *mat.SymDense, k Kernel, X mat.Matrix) error {
	return gramInto("GramInto", dst, k, X)
}

func gramInto(op string, dst *mat.SymDense, k Kernel, X mat.Matrix) error {
	if dst == nil {
		return fmt.Errorf("kernel: %s: nil destination", op)
	}
	k, x, err := kernelAndRows(op, k, X)
	if err != nil {
		return err
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(x.n)
	} else if n := dst.SymmetricDim(); n != x.n {
		return laberr.Errorf(laberr.ErrShape, "kernel: %s: destination is %d×%d, want %d×%d", op, n, n, x.n, x.n)
	}
	if err := checkGaussianNorms(op, k, x, x); err != nil {
		return err
	}
	raw := dst.RawSymmetric()
	fillBlocks(k, x, x, raw.Data, raw.Stride, true)
	return checkFiniteOutput(op, k, raw.Data, raw.Stride, x.n, x.n, true)
}

// Cross returns K(X, Z), the n×m matrix of k(x_i, z_j) between the rows of X (n×d) and of Z
// (m×d), computed like Gram (row blocks on all cores, GEMM and batched exp for the package's
// kernels, results independent of the number of goroutines). When Z is the same matrix as X
// (same storage) the result is Gram's, made full: exactly symmetric, with half the work.
//
// Errors: nil or empty inputs, NaN or ±Inf, different column counts, invalid kernel parameters,
// and the overflows of Gram. Memory: the n×m result plus O((n+m)d).
func Cross(k Kernel, X, Z mat.Matrix) (*mat.Dense, error) {
	var dst mat.Dense
	if err := crossInto("Cross", &dst, k, X, Z); err != nil {
		return nil, err
	}
	return &dst, nil
}

// CrossInto writes K(X, Z) into dst, which must be n×m or empty (then it is resized), so hot
// loops can reuse one buffer: allocating and first touching large matrices is slow. dst must not
// share memory with X or Z. Errors as for Cross, plus a dst of the wrong shape; on an error of
// the arguments dst is left unchanged, on a non-finite kernel value its contents are unspecified.
func CrossInto(dst *mat.Dense, k Kernel, X, Z mat.Matrix) error {
	return crossInto("CrossInto", dst, k, X, Z)
}

func crossInto(op string, dst *mat.Dense, k Kernel, X, Z mat.Matrix) error {
	if dst == nil {
		return fmt.Errorf("kernel: %s: nil destination", op)
	}
	k, x, err := kernelAndRows(op, k, X)
	if err != nil {
		return err
	}
	z, err := rowsOf(op, "Z", Z)
	if err != nil {
		return err
	}
	if x.d != z.d {
		return laberr.Errorf(laberr.ErrShape, "kernel: %s: X has %d columns but Z has %d", op, x.d, z.d)
	}
	sameInput := x.n == z.n && x.stride == z.stride && &x.data[0] == &z.data[0]
	if dst.IsEmpty() {
		dst.ReuseAs(x.n, z.n)
	} else if r, c := dst.Dims(); r != x.n || c != z.n {
		return laberr.Errorf(laberr.ErrShape, "kernel: %s: destination is %d×%d, want %d×%d", op, r, c, x.n, z.n)
	}
	if err := checkGaussianNorms(op, k, x, z); err != nil {
		return err
	}
	raw := dst.RawMatrix()
	if sameInput {
		// Cross(k, X, X) is Gram(k, X): computed as such and mirrored, so that it is exactly
		// symmetric and equal to Gram whatever the BLAS does with the order of its sums.
		fillBlocks(k, x, x, raw.Data, raw.Stride, true)
		if err := checkFiniteOutput(op, k, raw.Data, raw.Stride, x.n, x.n, true); err != nil {
			return err
		}
		mirrorUpper(raw.Data, raw.Stride, x.n)
		return nil
	}
	fillBlocks(k, x, z, raw.Data, raw.Stride, false)
	return checkFiniteOutput(op, k, raw.Data, raw.Stride, x.n, z.n, false)
}

// maxGaussianSqNorm is the largest squared row norm the Gaussian kernel accepts: below it,
// ||x||² + ||z||² − 2<x,z> cannot overflow (|<x,z>| ≤ ||x||·||z||), so every value is in [0, 1].
const maxGaussianSqNorm = math.MaxFloat64 / 4

// checkGaussianNorms refuses, for the Gaussian kernel, rows whose squared norm overflows the
// expansion of the squared distance (Inf − Inf gave NaN). O(n d), and the norms are needed anyway.
func checkGaussianNorms(op string, k Kernel, x, z *rows) error {
	if _, ok := k.(Gaussian); !ok {
		return nil
	}
	for _, r := range []*rows{x, z} {
		r.needSqNorms()
		for i, v := range r.sqNorms {
			if !(v <= maxGaussianSqNorm) {
				return laberr.Errorf(laberr.ErrNonFinite, "kernel: %s: row %d has squared norm %g, above MaxFloat64/4 = %g, where the Gaussian kernel's ||x||² + ||z||² − 2<x,z> overflows; centre or rescale the data",
					op, i, v, maxGaussianSqNorm)
			}
		}
	}
	return nil
}

// checkFiniteOutput scans the n×m result (row-major, stride ld; its upper triangle when upper)
// for a NaN or ±Inf, which only the polynomial and linear kernels (overflow) and kernels defined
// elsewhere can produce from finite inputs: the Gaussian and Laplace values are in [0, 1]. The
// scan costs O(nm), against O(nmd) for computing the result.
func checkFiniteOutput(op string, k Kernel, data []float64, ld, n, m int, upper bool) error {
	switch k.(type) {
	case Gaussian, Laplace:
		return nil
	}
	for i := range n {
		j0 := 0
		if upper {
			j0 = i
		}
		for j, v := range data[i*ld+j0 : i*ld+m] {
			if v-v != 0 { // NaN or ±Inf
				return laberr.Errorf(laberr.ErrNonFinite, "kernel: %s: k(x_%d, z_%d) = %g with kernel %s: the kernel is not finite on these inputs (overflow or an invalid value); rescale the data or change the kernel's parameters",
					op, i, j0+j, v, k.Name())
			}
		}
	}
	return nil
}

// mirrorUpper copies the upper triangle of the n×n matrix in data (row-major, stride ld) onto
// its lower triangle, in square tiles so that the column reads stay in cache.
func mirrorUpper(data []float64, ld, n int) {
	const tile = 64
	tiles := (n + tile - 1) / tile
	parallel.For(tiles, func(_, ti int) {
		for tj := 0; tj <= ti; tj++ {
			for i := ti * tile; i < min(n, (ti+1)*tile); i++ {
				for j := tj * tile; j < min(i, (tj+1)*tile); j++ {
					data[i*ld+j] = data[j*ld+i]
				}
			}
		}
	})
}

// Diagonal returns k(x_i, x_i) for the rows of X: the diagonal of Gram without forming it (1 for
// the Gaussian and Laplace kernels). Errors as for Gram (a non-finite k(x_i, x_i) included).
// Memory: O(n).
func Diagonal(k Kernel, X mat.Matrix) ([]float64, error) {
	k, x, err := kernelAndRows("Diagonal", k, X)
	if err != nil {
		return nil, err
	}
	diag := make([]float64, x.n)
	for i := range diag {
		xi := x.row(i)
		switch kk := k.(type) {
		case Gaussian, Laplace:
			diag[i] = 1
		case Polynomial:
			diag[i] = powInt(kk.Scale*dot(xi, xi)+kk.Offset, kk.Degree)
		case Linear:
			diag[i] = dot(xi, xi)
		default:
			diag[i] = k.Eval(xi, xi)
		}
	}
	if err := checkFiniteOutput("Diagonal", k, diag, 1, len(diag), 1, false); err != nil {
		return nil, err
	}
	return diag, nil
}

// rows is a row-major n×d view of an input matrix.
type rows struct {
	data      []float64
	stride    int
	n, d      int
	sqNorms   []float64 // ||x_i||², filled by needSqNorms
	transpose []float64 // d×n row-major copy, filled by needTranspose
}

func (r *rows) row(i int) []float64 { return r.data[i*r.stride : i*r.stride+r.d] }

// kernelAndRows validates the kernel (resolve) and the input X (rowsOf) of a kernel matrix.
func kernelAndRows(op string, k Kernel, X mat.Matrix) (Kernel, *rows, error) {
	k, err := resolve(k)
	if err != nil {
		return nil, nil, fmt.Errorf("kernel: %s: %w", op, err)
	}
	x, err := rowsOf(op, "X", X)
	return k, x, err
}

// rowsOf checks that m is a non-empty matrix of finite values and returns a view of it (no copy
// for *mat.Dense and other blas64 raw matrices).
func rowsOf(op, name string, m mat.Matrix) (*rows, error) {
	g, err := matcheck.Rows("kernel: "+op, name, m)
	if err != nil {
		return nil, err
	}
	return &rows{data: g.Data, stride: g.Stride, n: g.Rows, d: g.Cols}, nil
}

func (r *rows) needSqNorms() {
	if r.sqNorms != nil {
		return
	}
	r.sqNorms = make([]float64, r.n)
	for i := range r.sqNorms {
		xi := r.row(i)
		r.sqNorms[i] = dot(xi, xi)
	}
}

func (r *rows) needTranspose() {
	if r.transpose != nil {
		return
	}
	r.transpose = make([]float64, r.d*r.n)
	for i := range r.n {
		for l, v := range r.row(i) {
			r.transpose[l*r.n+i] = v
		}
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// blockElements is the target size of one row block of the output (2 MiB): small enough to stay
// in cache between the matrix product and the elementwise pass, large enough that each GEMM call
// is efficient. It depends only on the output width, so results never depend on the number of
// goroutines.
const blockElements = 1 << 18

// fillBlocks writes k(x_i, z_j) into out (row-major, stride ld) for all i, j, or for j ≥ i only
// when upper is set (then z is x).
func fillBlocks(k Kernel, x, z *rows, out []float64, ld int, upper bool) {
	usesProduct := false
	switch k.(type) {
	case Gaussian:
		x.needSqNorms()
		z.needSqNorms()
		usesProduct = true
	case Polynomial, Linear:
		usesProduct = true
	}
	if usesProduct {
		z.needTranspose()
	}
	blockRows := max(1, min(x.n, blockElements/z.n))
	nBlocks := (x.n + blockRows - 1) / blockRows
	parallel.For(nBlocks, func(_, b int) {
		i0 := b * blockRows
		i1 := min(x.n, i0+blockRows)
		c0 := 0 // first column computed for this block
		if upper {
			c0 = i0
		}
		if usesProduct {
			// out[i0:i1, c0:] = X[i0:i1] · Z[c0:]ᵀ
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: i1 - i0, Cols: x.d, Stride: x.stride, Data: x.data[i0*x.stride : (i1-1)*x.stride+x.d]},
				blas64.General{Rows: z.d, Cols: z.n - c0, Stride: z.n, Data: z.transpose[c0 : (z.d-1)*z.n+z.n]},
				0,
				blas64.General{Rows: i1 - i0, Cols: z.n - c0, Stride: ld, Data: out[i0*ld+c0 : (i1-1)*ld+z.n]})
		}
		for i := i0; i < i1; i++ {
			j0 := 0
			if upper {
				j0 = i
			}
			fillRow(k, x, z, i, j0, out[i*ld+j0:i*ld+z.n])
		}
	})
}

// fillRow turns row i of the output, columns j0.. (dst, holding <x_i, z_j> for the kernels that
// use the product), into kernel values.
func fillRow(k Kernel, x, z *rows, i, j0 int, dst []float64) {
	xi := x.row(i)
	switch kk := k.(type) {
	case Gaussian:
		gamma := kk.Gamma()
		xn := x.sqNorms[i]
		zn := z.sqNorms[j0 : j0+len(dst)]
		if !gaussianVector(dst, zn, xn, gamma) {
			for j, g := range dst {
				// ||x-z||² = ||x||² + ||z||² - 2<x,z>, clipped at 0 against cancellation.
				dst[j] = -gamma * max(0, (xn+zn[j])-2*g)
			}
			ExpNonPositive(dst, dst)
		}
		if x == z && i >= j0 && i < j0+len(dst) {
			dst[i-j0] = 1 // exactly, whatever the rounding of the product
		}
	case Laplace:
		invSigma := 1 / kk.Sigma
		for j := range dst {
			zj := z.row(j0 + j)
			var d1 float64
			for l, v := range xi {
				d1 += math.Abs(v - zj[l])
			}
			dst[j] = -d1 * invSigma
		}
		ExpNonPositive(dst, dst)
	case Polynomial:
		for j, g := range dst {
			dst[j] = powInt(kk.Scale*g+kk.Offset, kk.Degree)
		}
	case Linear:
		// The product is the kernel.
	default:
		for j := range dst {
			dst[j] = k.Eval(xi, z.row(j0+j))
		}
	}
}
