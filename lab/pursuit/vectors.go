package pursuit

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
)

// norm2 returns the Euclidean norm of x (gonum's scaled sum of squares: no overflow).
func norm2(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return blas64.Nrm2(blas64.Vector{N: len(x), Inc: 1, Data: x})
}

// dot returns ⟨x, y⟩ for slices of equal length.
func dot(x, y []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return blas64.Dot(blas64.Vector{N: len(x), Inc: 1, Data: x}, blas64.Vector{N: len(y), Inc: 1, Data: y})
}

// axpy sets y += a·x.
func axpy(a float64, x, y []float64) {
	if len(x) == 0 {
		return
	}
	blas64.Axpy(a, blas64.Vector{N: len(x), Inc: 1, Data: x}, blas64.Vector{N: len(y), Inc: 1, Data: y})
}

// firstNonFinite returns the index of the first NaN or infinite value of x, or −1.
func firstNonFinite(x []float64) int {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i
		}
	}
	return -1
}
