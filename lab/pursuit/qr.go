package pursuit

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// dependenceTolerance is the relative distance below which an atom counts as lying in the span
// of the atoms already factored: the orthogonal pursuits stop rather than add it (the
// triangular factor's condition number would exceed about 10¹²).
const dependenceTolerance = 1e-12

// updatableQR is a thin QR factorisation A = QR of a d×k matrix A whose columns are appended and
// deleted one at a time, so that the orthogonal pursuits never re-solve a least-squares problem
// from scratch: appending costs O(dk) (classical Gram–Schmidt applied twice, which keeps Q
// orthonormal to working precision), deleting a column O(dk) (Givens rotations restore the
// triangle). Memory: d·c + c² values for capacity c.
type updatableQR struct {
	d, k int
	q    []float64 // k orthonormal rows of length d: q_l = q[l*d : (l+1)*d]
	r    []float64 // k×k upper triangle, row-major with stride cap
	cap  int
	h    []float64 // work: the new column of R, length cap
	proj []float64 // work: one pass's projections, length cap
	w    []float64 // work: the new direction, length d
}

func newUpdatableQR(d, capacity int) *updatableQR {
	return &updatableQR{d: d, cap: capacity, q: make([]float64, d*capacity), r: make([]float64, capacity*capacity),
		h: make([]float64, capacity), proj: make([]float64, capacity), w: make([]float64, d)}
}

// row returns q_l.
func (f *updatableQR) row(l int) []float64 { return f.q[l*f.d : (l+1)*f.d] }

// grow doubles the capacity when it is reached.
func (f *updatableQR) grow() {
	if f.k < f.cap {
		return
	}
	c := max(4, 2*f.cap)
	q := make([]float64, f.d*c)
	copy(q, f.q[:f.k*f.d])
	r := make([]float64, c*c)
	for i := range f.k {
		copy(r[i*c:i*c+f.k], f.r[i*f.cap:i*f.cap+f.k])
	}
	f.q, f.r, f.cap, f.h, f.proj = q, r, c, make([]float64, c), make([]float64, c)
}

// append adds column a (length d, not retained) and returns false, leaving the factorisation
// unchanged, when a's distance to the span of the current columns is at most
// dependenceTolerance·‖a‖ (or a is zero).
func (f *updatableQR) append(a []float64) bool {
	f.grow()
	k, d := f.k, f.d
	copy(f.w, a)
	h := f.h[:k]
	clear(h)
	if k > 0 {
		qm := blas64.General{Rows: k, Cols: d, Stride: d, Data: f.q[:k*d]}
		w := blas64.Vector{N: d, Inc: 1, Data: f.w}
		hv := blas64.Vector{N: k, Inc: 1, Data: h}
		// Two passes of classical Gram–Schmidt: h = Qa, w = a − Qᵀh, then the same on w.
		proj := blas64.Vector{N: k, Inc: 1, Data: f.proj[:k]}
		for range 2 {
			blas64.Gemv(blas.NoTrans, 1, qm, w, 0, proj)
			blas64.Gemv(blas.Trans, -1, qm, proj, 1, w)
			blas64.Axpy(1, proj, hv)
		}
	}
	rho := norm2(f.w)
	if !(rho > dependenceTolerance*norm2(a)) {
		return false
	}
	copy(f.row(k), f.w)
	blas64.Scal(1/rho, blas64.Vector{N: d, Inc: 1, Data: f.row(k)})
	for i := range k {
		f.r[i*f.cap+k] = h[i]
	}
	f.r[k*f.cap+k] = rho
	f.k++
	return true
}

// remove deletes column p, applying the same rotations to z (length ≥ k), which holds Qᵀb for
// some right-hand side b, so that it stays Qᵀb for the new Q.
func (f *updatableQR) remove(p int, z []float64) {
	k, c := f.k, f.cap
	// Shift columns p+1..k−1 of R left: R becomes upper Hessenberg from column p on.
	for i := range k {
		row := f.r[i*c : i*c+k]
		copy(row[p:], row[p+1:])
		row[k-1] = 0
	}
	for l := p; l < k-1; l++ {
		a, b := f.r[l*c+l], f.r[(l+1)*c+l]
		rho := math.Hypot(a, b)
		cs, sn := 1.0, 0.0
		if rho != 0 {
			cs, sn = a/rho, b/rho
		}
		// Rotate rows l and l+1 of R (columns l..k−2), of Q, and of z.
		for j := l; j < k-1; j++ {
			x, y := f.r[l*c+j], f.r[(l+1)*c+j]
			f.r[l*c+j], f.r[(l+1)*c+j] = cs*x+sn*y, -sn*x+cs*y
		}
		f.r[(l+1)*c+l] = 0
		f.r[l*c+l] = rho
		blas64.Rot(blas64.Vector{N: f.d, Inc: 1, Data: f.row(l)}, blas64.Vector{N: f.d, Inc: 1, Data: f.row(l + 1)}, cs, sn)
		z[l], z[l+1] = cs*z[l]+sn*z[l+1], -sn*z[l]+cs*z[l+1]
	}
	f.k--
}

// solve sets x (length k) to R⁻¹z: the least-squares coefficients when z = Qᵀb.
func (f *updatableQR) solve(x, z []float64) {
	k := f.k
	copy(x, z[:k])
	if k == 0 {
		return
	}
	blas64.Trsv(blas.NoTrans, blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: k, Stride: f.cap, Data: f.r}, blas64.Vector{N: k, Inc: 1, Data: x})
}
