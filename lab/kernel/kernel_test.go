package kernel

import (
	"math"
	"testing"
)

func TestEvalHandValues(t *testing.T) {
	x, z := []float64{1, 2}, []float64{3, -1}
	// ||x-z||² = 4 + 9 = 13, ||x-z||₁ = 2 + 3 = 5, <x,z> = 3 - 2 = 1.
	cases := []struct {
		k    Kernel
		want float64
	}{
		{Gaussian{Sigma: 2}, math.Exp(-13.0 / 8)},
		{&Gaussian{Sigma: 0.5}, math.Exp(-13.0 / 0.5)},
		{Laplace{Sigma: 2}, math.Exp(-2.5)},
		{Polynomial{Degree: 3, Scale: 2, Offset: 1}, 27},
		{Polynomial{Degree: 2, Scale: 0.5, Offset: 0}, 0.25},
		{Linear{}, 1},
	}
	for _, c := range cases {
		if got := c.k.Eval(x, z); math.Abs(got-c.want) > 1e-15*c.want {
			t.Errorf("%s: k(x, z) = %v, want %v", c.k.Name(), got, c.want)
		}
	}
	if g := (Gaussian{Sigma: 2}); g.Gamma() != 0.125 {
		t.Errorf("Gamma of σ=2 is %v, want 1/8", g.Gamma())
	}
}

func TestEvalInvalidGivesNaN(t *testing.T) {
	x, short := []float64{1, 2}, []float64{1}
	for _, k := range []Kernel{Gaussian{1}, Laplace{1}, Polynomial{1, 1, 0}, Linear{}} {
		if v := k.Eval(x, short); !math.IsNaN(v) {
			t.Errorf("%s on lengths 2 and 1 = %v, want NaN", k.Name(), v)
		}
	}
	for _, k := range []Kernel{Gaussian{0}, Gaussian{-1}, Laplace{math.Inf(1)}, Polynomial{0, 1, 0}, Polynomial{2, 1, -1}} {
		if v := k.Eval(x, x); !math.IsNaN(v) {
			t.Errorf("%s with invalid parameters = %v, want NaN", k.Name(), v)
		}
	}
}

func TestConstructorsValidate(t *testing.T) {
	for _, sigma := range []float64{0, -1, math.NaN(), math.Inf(1), 1e-200, 1e200} {
		if _, err := NewGaussian(sigma); err == nil {
			t.Errorf("NewGaussian(%v): no error", sigma)
		}
		if sigma != 1e-200 && sigma != 1e200 {
			if _, err := NewLaplace(sigma); err == nil {
				t.Errorf("NewLaplace(%v): no error", sigma)
			}
		}
	}
	if g, err := NewGaussian(1.5); err != nil || g.Sigma != 1.5 {
		t.Errorf("NewGaussian(1.5) = %v, %v", g, err)
	}
	if l, err := NewLaplace(1.5); err != nil || l.Sigma != 1.5 {
		t.Errorf("NewLaplace(1.5) = %v, %v", l, err)
	}
	bad := [][3]float64{{0, 1, 1}, {2, 0, 1}, {2, -1, 1}, {2, 1, -0.5}, {2, math.NaN(), 1}, {2, 1, math.Inf(1)}}
	for _, p := range bad {
		if _, err := NewPolynomial(int(p[0]), p[1], p[2]); err == nil {
			t.Errorf("NewPolynomial%v: no error", p)
		}
	}
	if _, err := NewPolynomial(2, 1, 0); err != nil {
		t.Errorf("NewPolynomial(2, 1, 0): %v", err)
	}
}

func TestNames(t *testing.T) {
	for k, want := range map[Kernel]string{
		Gaussian{0.5}:         "gaussian(sigma=0.5)",
		Laplace{2}:            "laplace(sigma=2)",
		Polynomial{3, 1, 0.5}: "polynomial(degree=3,scale=1,offset=0.5)",
		Linear{}:              "linear",
	} {
		if got := k.Name(); got != want {
			t.Errorf("Name() = %q, want %q", got, want)
		}
	}
}

func TestPowInt(t *testing.T) {
	for _, c := range []struct {
		b    float64
		e    int
		want float64
	}{{3, 1, 3}, {3, 2, 9}, {3, 5, 243}, {-2, 3, -8}, {0.5, 10, 1.0 / 1024}, {1.5, 4, 5.0625}} {
		if got := powInt(c.b, c.e); got != c.want {
			t.Errorf("powInt(%v, %d) = %v, want %v", c.b, c.e, got, c.want)
		}
	}
}
