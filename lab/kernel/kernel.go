package kernel

import (
	"errors"
	"fmt"
	"math"
)

// A Kernel evaluates k(x, z) on float64 vectors of equal length. Gram, Cross and Diagonal
// recognise the kernels of this package (by value or pointer) and use matrix products and the
// batched exp for them; any other Kernel is evaluated pair by pair, in parallel.
type Kernel interface {
	// Eval returns k(x, z); NaN if the lengths differ or the kernel's parameters are invalid
	// (Gram and Cross report those as errors).
	Eval(x, z []float64) float64
	// Name identifies the kernel and its parameters, for results tables and figure legends.
	Name() string
}

// Gaussian is the RBF kernel k(x, z) = exp(-||x-z||² / (2σ²)) with bandwidth Sigma = σ > 0.
type Gaussian struct{ Sigma float64 }

// NewGaussian returns the Gaussian kernel of bandwidth sigma, which must be > 0 and finite.
func NewGaussian(sigma float64) (Gaussian, error) {
	g := Gaussian{Sigma: sigma}
	return g, g.validate()
}

// Gamma returns γ = 1/(2σ²), the parametrisation scikit-learn and the RFF sampler use. Like Eval
// it does not validate σ: it is +Inf for the zero Gaussian and NaN for σ = NaN ([NewGaussian]
// refuses both).
func (g Gaussian) Gamma() float64 { return 1 / (2 * g.Sigma * g.Sigma) }

// Eval returns exp(-γ ||x-z||²).
func (g Gaussian) Eval(x, z []float64) float64 {
	if len(x) != len(z) || g.validate() != nil {
		return math.NaN()
	}
	var d2 float64
	for i, xi := range x {
		d := xi - z[i]
		d2 += d * d
	}
	return math.Exp(-g.Gamma() * d2)
}

// Name returns "gaussian(sigma=…)".
func (g Gaussian) Name() string { return fmt.Sprintf("gaussian(sigma=%g)", g.Sigma) }

func (g Gaussian) validate() error {
	if !(g.Sigma > 0) || math.IsInf(g.Sigma, 0) || math.IsInf(g.Gamma(), 0) || g.Gamma() == 0 {
		return fmt.Errorf("kernel: Gaussian bandwidth sigma = %g, want a finite value > 0 (with 1/(2σ²) finite and non-zero)", g.Sigma)
	}
	return nil
}

// Laplace is the kernel k(x, z) = exp(-||x-z||₁ / σ) with the l1 norm (the form of the lecture notes,
// whose random features are products of Cauchy variables), bandwidth Sigma = σ > 0.
type Laplace struct{ Sigma float64 }

// NewLaplace returns the Laplace kernel of bandwidth sigma, which must be > 0 and finite, with
// 1/σ finite (a subnormal σ would make 0·(1/σ) = NaN on the diagonal).
func NewLaplace(sigma float64) (Laplace, error) {
	l := Laplace{Sigma: sigma}
	return l, l.validate()
}

// Eval returns exp(-||x-z||₁ / σ).
func (l Laplace) Eval(x, z []float64) float64 {
	if len(x) != len(z) || l.validate() != nil {
		return math.NaN()
	}
	var d1 float64
	for i, xi := range x {
		d1 += math.Abs(xi - z[i])
	}
	return math.Exp(-d1 / l.Sigma)
}

// Name returns "laplace(sigma=…)".
func (l Laplace) Name() string { return fmt.Sprintf("laplace(sigma=%g)", l.Sigma) }

func (l Laplace) validate() error {
	if !(l.Sigma > 0) || math.IsInf(l.Sigma, 0) || math.IsInf(1/l.Sigma, 0) {
		return fmt.Errorf("kernel: Laplace bandwidth sigma = %g, want a finite value > 0 (with 1/σ finite)", l.Sigma)
	}
	return nil
}

// Polynomial is the kernel k(x, z) = (Scale·<x, z> + Offset)^Degree. It is positive
// semi-definite for Degree ≥ 1, Scale > 0 and Offset ≥ 0, which Gram and Cross require.
type Polynomial struct {
	Degree        int
	Scale, Offset float64
}

// NewPolynomial returns the polynomial kernel (scale·<x,z> + offset)^degree, checking
// degree ≥ 1, scale > 0 and offset ≥ 0, all finite.
func NewPolynomial(degree int, scale, offset float64) (Polynomial, error) {
	p := Polynomial{Degree: degree, Scale: scale, Offset: offset}
	return p, p.validate()
}

// Eval returns (Scale·<x,z> + Offset)^Degree.
func (p Polynomial) Eval(x, z []float64) float64 {
	if len(x) != len(z) || p.validate() != nil {
		return math.NaN()
	}
	var dot float64
	for i, xi := range x {
		dot += xi * z[i]
	}
	return powInt(p.Scale*dot+p.Offset, p.Degree)
}

// Name returns "polynomial(degree=…,scale=…,offset=…)".
func (p Polynomial) Name() string {
	return fmt.Sprintf("polynomial(degree=%d,scale=%g,offset=%g)", p.Degree, p.Scale, p.Offset)
}

func (p Polynomial) validate() error {
	if p.Degree < 1 || !(p.Scale > 0) || math.IsInf(p.Scale, 0) || !(p.Offset >= 0) || math.IsInf(p.Offset, 0) {
		return fmt.Errorf("kernel: polynomial kernel degree=%d scale=%g offset=%g, want degree ≥ 1, scale > 0, offset ≥ 0, finite",
			p.Degree, p.Scale, p.Offset)
	}
	return nil
}

// powInt returns b^e for e ≥ 1 by binary exponentiation (exact for small integers, and
// cheaper and more accurate than math.Pow for the small degrees kernels use).
func powInt(b float64, e int) float64 {
	result := 1.0
	for e > 0 {
		if e&1 == 1 {
			result *= b
		}
		b *= b
		e >>= 1
	}
	return result
}

// Linear is the kernel k(x, z) = <x, z>.
type Linear struct{}

// Eval returns <x, z>.
func (Linear) Eval(x, z []float64) float64 {
	if len(x) != len(z) {
		return math.NaN()
	}
	var dot float64
	for i, xi := range x {
		dot += xi * z[i]
	}
	return dot
}

// Name returns "linear".
func (Linear) Name() string { return "linear" }

// errNilKernel is returned when a nil Kernel (or nil pointer to one of ours) is passed.
var errNilKernel = errors.New("kernel: nil kernel")

// resolve validates k and returns the package's kernel by value (pointers are dereferenced), or
// k itself for kernels defined elsewhere.
func resolve(k Kernel) (Kernel, error) {
	switch kk := k.(type) {
	case nil:
		return nil, errNilKernel
	case *Gaussian:
		if kk == nil {
			return nil, errNilKernel
		}
		return *kk, kk.validate()
	case *Laplace:
		if kk == nil {
			return nil, errNilKernel
		}
		return *kk, kk.validate()
	case *Polynomial:
		if kk == nil {
			return nil, errNilKernel
		}
		return *kk, kk.validate()
	case *Linear:
		if kk == nil {
			return nil, errNilKernel
		}
		return *kk, nil
	case Gaussian:
		return kk, kk.validate()
	case Laplace:
		return kk, kk.validate()
	case Polynomial:
		return kk, kk.validate()
	}
	return k, nil
}
