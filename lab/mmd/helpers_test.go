package mmd

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// gaussianRows returns n points of N(shift, scale²I) in d dimensions, one per row.
func gaussianRows(rng *rand.Rand, n, d int, shift, scale float64) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, shift+scale*rng.NormFloat64())
		}
	}
	return x
}

// stack returns the rows of a followed by the rows of b.
func stack(a, b *mat.Dense) *mat.Dense {
	var s mat.Dense
	s.Stack(a, b)
	return &s
}

// span returns lo, lo+1, ..., hi-1.
func span(lo, hi int) []int {
	idx := make([]int, hi-lo)
	for i := range idx {
		idx[i] = lo + i
	}
	return idx
}

// evalFunc returns the kernel value between points i and j: the reference the brute-force sums
// use, independent of Points.Block.
type evalFunc func(i, j int) float64

// rowKernel evaluates k pair by pair on the rows of X with kernel.Kernel.Eval.
func rowKernel(k kernel.Kernel, X *mat.Dense) evalFunc {
	return func(i, j int) float64 { return k.Eval(X.RawRowView(i), X.RawRowView(j)) }
}

// bruteMMD2 is eq. (4.2) as three plain double sums.
func bruteMMD2(k evalFunc, x, z []int) float64 {
	var sxx, szz, sxz float64
	for _, i := range x {
		for _, j := range x {
			sxx += k(i, j)
		}
		for _, j := range z {
			sxz += k(i, j)
		}
	}
	for _, i := range z {
		for _, j := range z {
			szz += k(i, j)
		}
	}
	n, m := float64(len(x)), float64(len(z))
	return sxx/(n*n) + szz/(m*m) - 2*sxz/(n*m)
}

// bruteUnbiasedMMD2 is the U-statistic: the double sums within a sample skip i = j (by position).
func bruteUnbiasedMMD2(k evalFunc, x, z []int) float64 {
	var sxx, szz, sxz float64
	for a, i := range x {
		for b, j := range x {
			if a != b {
				sxx += k(i, j)
			}
		}
		for _, j := range z {
			sxz += k(i, j)
		}
	}
	for a, i := range z {
		for b, j := range z {
			if a != b {
				szz += k(i, j)
			}
		}
	}
	n, m := float64(len(x)), float64(len(z))
	return sxx/(n*(n-1)) + szz/(m*(m-1)) - 2*sxz/(n*m)
}

// near reports whether got is within tol·max(1, |want|) of want.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}

func mustVectors(t testing.TB, k kernel.Kernel, X mat.Matrix) *Vectors {
	t.Helper()
	v, err := NewVectors(k, X)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustGaussian(t testing.TB, sigma float64) kernel.Gaussian {
	t.Helper()
	k, err := kernel.NewGaussian(sigma)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
