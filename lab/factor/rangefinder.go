package factor

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// AdaptiveRangeFinder returns an m×j matrix Q with orthonormal columns such that
// ‖(I − QQᵀ)A‖₂ ≤ eps with probability at least 1 − min(m, n)·10⁻ʳ, without knowing the rank in
// advance: the adaptive randomized range finder of Halko, Martinsson and Tropp (2011,
// Algorithm 4.2), step for step as the student slides print it:
//
//	draw r Gaussian vectors ω⁽ⁱ⁾ and set y⁽ⁱ⁾ = Aω⁽ⁱ⁾; j = 0; Q = [ ]
//	while max{‖y⁽ʲ⁺¹⁾‖, …, ‖y⁽ʲ⁺ʳ⁾‖} > eps/(10√(2/π)):
//	    j = j + 1; y⁽ʲ⁾ = (I − QQᵀ)y⁽ʲ⁾; q⁽ʲ⁾ = y⁽ʲ⁾/‖y⁽ʲ⁾‖; Q = [Q q⁽ʲ⁾]
//	    draw ω⁽ʲ⁺ʳ⁾ and set y⁽ʲ⁺ʳ⁾ = (I − QQᵀ)Aω⁽ʲ⁺ʳ⁾
//	    y⁽ⁱ⁾ = y⁽ⁱ⁾ − q⁽ʲ⁾⟨q⁽ʲ⁾, y⁽ⁱ⁾⟩ for i = j+1, …, j+r−1
//
// The r most recent residual norms bound the error: ‖(I − QQᵀ)A‖ ≤ 10√(2/π)·max‖y‖ with the
// probability above (HMT eq. 4.3). It returns Q and the number of Gaussian test vectors drawn
// (j + r); Q is nil when the first r samples already fall below the threshold (A is then
// negligible at this tolerance). Two guards the slide leaves implicit: the loop stops once Q has
// min(m, n) columns (it then spans the whole range, the residual is zero in exact arithmetic),
// and a sample whose projection is exactly zero adds no column (it cannot be normalised).
//
// A may be dense or a *[csr.Matrix] (one product with a single vector per step). ω are drawn from
// rng in order. Errors: nil/empty A, NaN or ±Inf, eps not a positive finite number, r < 1, nil
// rng, an overflowing product. Cost: j + r products of A with a vector and O(m·j²) for the
// projections; memory O(m·(j + r) + n).
func AdaptiveRangeFinder(rng *rand.Rand, a mat.Matrix, eps float64, r int) (*mat.Dense, int, error) {
	const op = "AdaptiveRangeFinder"
	o, err := newOperator(op, "A", a)
	if err != nil {
		return nil, 0, err
	}
	if !(eps > 0) || math.IsInf(eps, 1) {
		return nil, 0, fmt.Errorf("factor: %s: eps = %g, want a positive finite tolerance", op, eps)
	}
	if r < 1 {
		return nil, 0, fmt.Errorf("factor: %s: r = %d test vectors, want at least 1", op, r)
	}
	if rng == nil {
		return nil, 0, laberr.Errorf(laberr.ErrNilRand, "factor: %s: rng is nil", op)
	}
	// The r pending samples are held at once, each of A's length.
	if err := memlimit.Check("factor: "+op, fmt.Sprintf("the %d×%d pending samples", r, o.rows), 8, r, o.rows); err != nil {
		return nil, 0, err
	}
	threshold := eps / (10 * math.Sqrt(2/math.Pi))
	omega := mat.NewDense(o.cols, 1, nil)
	sample := func() ([]float64, error) {
		fillGaussian(rng, omega)
		y := mat.NewDense(o.rows, 1, nil)
		if err := o.mul(y, omega); err != nil {
			return nil, fmt.Errorf("factor: %s: %w", op, err)
		}
		if err := finiteResult(op, y); err != nil {
			return nil, err
		}
		return y.RawMatrix().Data, nil
	}
	ys := make([][]float64, r) // y⁽ʲ⁺¹⁾ … y⁽ʲ⁺ʳ⁾, oldest first
	for i := range ys {
		if ys[i], err = sample(); err != nil {
			return nil, 0, err
		}
	}
	drawn := r
	var qs [][]float64
	largest := func() float64 {
		var m float64
		for _, y := range ys {
			m = max(m, floats.Norm(y, 2))
		}
		return m
	}
	for len(qs) < min(o.rows, o.cols) && largest() > threshold {
		q := ys[0]
		project(q, qs)
		norm := floats.Norm(q, 2)
		if norm > 0 {
			floats.Scale(1/norm, q)
			qs = append(qs, q)
		}
		next, err := sample()
		if err != nil {
			return nil, 0, err
		}
		drawn++
		project(next, qs)
		if norm > 0 {
			for _, y := range ys[1:] {
				floats.AddScaled(y, -floats.Dot(q, y), q)
			}
		}
		ys = append(ys[1:], next)
	}
	if len(qs) == 0 {
		return nil, drawn, nil
	}
	basis := mat.NewDense(o.rows, len(qs), nil)
	for j, q := range qs {
		basis.SetCol(j, q)
	}
	return basis, drawn, nil
}

// project replaces y by (I − QQᵀ)y for the orthonormal columns qs of Q, one column after the
// other (modified Gram–Schmidt, steadier than subtracting QQᵀy at once).
func project(y []float64, qs [][]float64) {
	for _, q := range qs {
		floats.AddScaled(y, -floats.Dot(q, y), q)
	}
}
