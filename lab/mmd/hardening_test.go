package mmd

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// Regression tests for issue 16.

// estimators returns the five estimators of the package.
func allEstimators() []Estimator {
	return []Estimator{Exact{}, Linear{}, Block{}, RFF{}, Nystrom{}}
}

// TestZeroPoints: the zero Vectors and Precomputed made every estimator dereference nil.
func TestZeroPoints(t *testing.T) {
	ctx := context.Background()
	for _, p := range []Points{&Vectors{}, &Precomputed{}} {
		for _, est := range allEstimators() {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s on zero %T: panic %v", est.Name(), p, r)
					}
				}()
				if _, err := est.MMD2(ctx, rand.New(rand.NewPCG(1, 2)), p, []int{0}, []int{0}); err == nil {
					t.Errorf("%s on zero %T: nil error", est.Name(), p)
				}
			}()
		}
		if err := p.Block(mat.NewDense(1, 1, nil), []int{0}, []int{0}); err == nil {
			t.Errorf("zero %T: Block: nil error", p)
		}
	}
}

// nanPoints are Points whose kernel values are NaN.
type nanPoints struct{ n int }

func (p nanPoints) Len() int { return p.n }
func (p nanPoints) Block(dst *mat.Dense, rows, cols []int) error {
	r, c := dst.Dims()
	for i := range r {
		for j := range c {
			dst.Set(i, j, math.NaN())
		}
	}
	return nil
}

type nanKernel struct{}

func (nanKernel) Eval(x, z []float64) float64 { return math.NaN() }
func (nanKernel) Name() string                { return "nan" }

// TestNonFiniteKernel: a user kernel or Points returning NaN passed through Exact.
func TestNonFiniteKernel(t *testing.T) {
	ctx := context.Background()
	X := mat.NewDense(6, 1, []float64{1, 2, 3, 4, 5, 6})
	v, err := NewVectors(nanKernel{}, X)
	if err == nil {
		// NewVectors checks the diagonal, so this is reached only if it did not.
		if m, err := (Exact{}).MMD2(ctx, nil, v, []int{0, 1, 2}, []int{3, 4, 5}); err == nil {
			t.Errorf("Exact with a NaN kernel = %g with a nil error", m)
		}
	}
	for _, est := range []Estimator{Exact{}, Linear{}, Block{}, Nystrom{}} {
		if m, err := est.MMD2(ctx, rand.New(rand.NewPCG(1, 2)), nanPoints{6}, []int{0, 1, 2}, []int{3, 4, 5}); err == nil {
			t.Errorf("%s on NaN points = %g with a nil error", est.Name(), m)
		}
	}
	// Laplace with a subnormal bandwidth (accepted before, NaN on the diagonal).
	if v, err := NewVectors(kernel.Laplace{Sigma: 5e-324}, X); err == nil {
		if m, err := (Exact{}).MMD2(ctx, nil, v, []int{0, 1, 2}, []int{3, 4, 5}); err == nil {
			t.Errorf("Exact with Laplace{5e-324} = %g with a nil error", m)
		}
	}
}

// TestHugeRFF: 2⁴⁰ features killed the process.
func TestHugeRFF(t *testing.T) {
	v, err := NewVectors(kernel.Gaussian{Sigma: 1}, mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (RFF{Features: 1 << 40}).MMD2(context.Background(), rand.New(rand.NewPCG(1, 2)), v, []int{0, 1}, []int{2, 3}); err == nil {
		t.Error("RFF{Features: 2⁴⁰}: nil error, want the size refused")
	}
}
