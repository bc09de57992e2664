package ch5

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/pursuit"
)

// liveSeed is the seed of the live figure in the tests and the benchmark.
const liveSeed = 2019

// testLive is the live figure of liveSeed, made once: its Gram matrix is most of its cost.
var testLive = sync.OnceValues(func() (*FrankWolfeLive, error) { return NewFrankWolfeLive(liveSeed) })

// At the default m = m* Render gives a PNG of the figure's size and an alt text that names m and
// m*; every m of the slider draws, the bound's status in the alt text following m against m*.
func TestFrankWolfeLiveRender(t *testing.T) {
	l, err := testLive()
	if err != nil {
		t.Fatal(err)
	}
	controls := l.Controls()
	c := controls[0]
	if c.Min != 1 || c.Max != 3*l.mStar || c.Value != l.mStar || l.mStar < 2 {
		t.Fatalf("slider [%d, %d] at %d with m* = %d, want [1, 3m*] at m* ≥ 2", c.Min, c.Max, c.Value, l.mStar)
	}
	for m := c.Min; m <= c.Max; m++ {
		f, err := l.Render([]int{m})
		if err != nil {
			t.Fatalf("m = %d: %v", m, err)
		}
		if m == l.mStar {
			kittest.CheckFrame(t, f, 600, 400)
		}
		wants := []string{notebook.AltText(controls, []int{m}), fmt.Sprintf("sparsity m = %d (m* = %d)", m, l.mStar), "‖r_K‖/‖y‖"}
		if m <= l.mStar {
			wants = append(wants, "Theorem 5 bounds it")
		} else {
			wants = append(wants, "not guaranteed")
		}
		for _, want := range wants {
			if !strings.Contains(f.Alt, want) {
				t.Errorf("m = %d: alt text %q lacks %q", m, f.Alt, want)
			}
		}
	}
}

// A value list of another length or an m outside [1, 3m*] is an error, not a panic.
func TestFrankWolfeLiveRejectsBadValues(t *testing.T) {
	l, err := testLive()
	if err != nil {
		t.Fatal(err)
	}
	for _, values := range [][]int{nil, {}, {1, 1}, {0}, {-3}, {3*l.mStar + 1}} {
		if _, err := l.Render(values); err == nil {
			t.Errorf("Render(%v) gave no error", values)
		}
	}
}

// For every m ≤ m* the residual norms the figure plots are those of Frank-Wolfe run here with
// pursuit directly (on the dense dictionary redrawn from the seed, without the Gram matrix, on the
// signal redrawn from the seed and m), and they lie below Theorem 5's bound computed here from
// μ₁(D, m − 1), ‖y‖ and ‖α*‖₁.
func TestFrankWolfeLiveBelowTheorem5(t *testing.T) {
	l, err := testLive()
	if err != nil {
		t.Fatal(err)
	}
	dict, err := pursuit.NewGaussianDictionary(rand.New(rand.NewPCG(liveSeed, 0)), l.sz.d, l.sz.n)
	if err != nil {
		t.Fatal(err)
	}
	inc, err := pursuit.MeasureIncoherence(dict, l.mStar)
	if err != nil {
		t.Fatal(err)
	}
	for m := 1; m <= l.mStar; m++ {
		c, err := l.solve(m)
		if err != nil {
			t.Fatal(err)
		}
		if !c.guaranteed || c.bound == nil {
			t.Fatalf("m = %d ≤ m* = %d: the figure draws no guaranteed bound", m, l.mStar)
		}
		rng := rand.New(rand.NewPCG(liveSeed, uint64(m)))
		coef := make([]float64, l.sz.n)
		for _, j := range rng.Perm(l.sz.n)[:m] {
			coef[j] = rng.NormFloat64()
		}
		y := make([]float64, l.sz.d)
		if err := dict.Apply(y, coef); err != nil {
			t.Fatal(err)
		}
		l1, yNorm := floats.Norm(coef, 1), floats.Norm(y, 2)
		res, err := pursuit.FrankWolfe(dict, y, radiusFactor*l1, pursuit.StepLineSearch, pursuit.Options{MaxIterations: l.sz.iterations, Tolerance: stopRelative * yNorm})
		if err != nil {
			t.Fatal(err)
		}
		babel, _ := inc.Babel(m - 1)
		theta, err := pursuit.FrankWolfeRate(babel, m, l1, radiusFactor*l1)
		if err != nil {
			t.Fatal(err)
		}
		norms := res.ResidualNorms()
		for k, plotted := range c.norms {
			want := norms[min(k, len(norms)-1)]
			if math.Abs(plotted-want) > 1e-9*yNorm {
				t.Fatalf("m = %d, k = %d: plotted ‖r_k‖ = %g, Frank-Wolfe here %g", m, k, plotted, want)
			}
			bound := yNorm * math.Pow(1-theta, float64(k)/2)
			if math.Abs(c.bound[k]-bound) > 1e-9*bound {
				t.Fatalf("m = %d, k = %d: plotted bound %g, here %g", m, k, c.bound[k], bound)
			}
			if want > bound*(1+1e-12) {
				t.Errorf("m = %d, k = %d: ‖r_k‖ = %g above Theorem 5's bound %g", m, k, want, bound)
			}
		}
	}
}

// BenchmarkFrankWolfeLiveRender times one redraw at the default m = m* (the signal, Frank-Wolfe
// for up to K = 60m* iterations on the Gram matrix, the bound and the PNG).
func BenchmarkFrankWolfeLiveRender(b *testing.B) {
	l, err := testLive()
	if err != nil {
		b.Fatal(err)
	}
	values := []int{l.Controls()[0].Value}
	for b.Loop() {
		if _, err := l.Render(values); err != nil {
			b.Fatal(err)
		}
	}
}
