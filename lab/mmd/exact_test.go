package mmd

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// inverseQuadratic is k(x, z) = 1/(1 + ||x − z||²), a kernel the kernel package does not know, so
// that Vectors.Block goes through its pair-by-pair path.
type inverseQuadratic struct{}

func (inverseQuadratic) Eval(x, z []float64) float64 {
	var d2 float64
	for i, v := range x {
		d2 += (v - z[i]) * (v - z[i])
	}
	return 1 / (1 + d2)
}

func (inverseQuadratic) Name() string { return "inverse-quadratic" }

// TestExactMatchesBruteForce compares the tiled estimate with the three double sums of eq. (4.2)
// on samples that cross tile boundaries (700 and 560 points, tiles of 512), mixing consecutive
// indices (used in place) with shuffled, repeated and shared ones (gathered).
func TestExactMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	X := gaussianRows(rng, 900, 3, 0, 1)
	x := span(100, 800)
	z := make([]int, 560)
	for i := range z {
		z[i] = rng.IntN(900) // repeats and indices shared with x
	}
	gauss := mustGaussian(t, 1.5)
	laplace, _ := kernel.NewLaplace(2)
	poly, _ := kernel.NewPolynomial(2, 0.5, 1)
	for _, k := range []kernel.Kernel{gauss, laplace, poly, inverseQuadratic{}} {
		p := mustVectors(t, k, X)
		got, err := Exact{}.MMD2(context.Background(), nil, p, x, z)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteMMD2(rowKernel(k, X), x, z)
		if !near(got, want, 1e-12) {
			t.Errorf("%s: exact MMD² = %.15g, brute force %.15g", k.Name(), got, want)
		}
	}
	// The same from a precomputed Gram matrix.
	gram, err := kernel.Gram(gauss, X)
	if err != nil {
		t.Fatal(err)
	}
	pre, err := NewPrecomputed(gram)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Exact{}.MMD2(context.Background(), nil, pre, x, z)
	if err != nil {
		t.Fatal(err)
	}
	if want := bruteMMD2(rowKernel(gauss, X), x, z); !near(got, want, 1e-12) {
		t.Errorf("precomputed: exact MMD² = %.15g, brute force %.15g", got, want)
	}
}

// TestIdenticalSamplesGiveZero: MMD(P, P) = 0 for the same sample, exactly for the estimators that
// see the same points twice (Nyström's u and v vanish, RFF's mean features coincide) and up to
// rounding for the exact estimate.
func TestIdenticalSamplesGiveZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X := gaussianRows(rng, 600, 4, 0, 1)
	p := mustVectors(t, mustGaussian(t, 2), X)
	x := make([]int, 550)
	for i := range x {
		x[i] = rng.IntN(600)
	}
	ctx := context.Background()
	got, err := Exact{}.MMD2(ctx, nil, p, x, x)
	if err != nil || math.Abs(got) > 1e-13 {
		t.Errorf("exact MMD²(X, X) = %g, %v", got, err)
	}
	for _, est := range []Estimator{Nystrom{Landmarks: 20, Lambda: 0.5}, RFF{Features: 50}} {
		got, err := est.MMD2(ctx, rand.New(rand.NewPCG(5, 6)), p, x, x)
		if err != nil || got != 0 {
			t.Errorf("%s MMD²(X, X) = %g, %v; want 0", est.Name(), got, err)
		}
	}
}

// TestDeterministicAcrossWorkers: the same seed gives the same bits with one goroutine and with
// several (tiles, blocks and chunks are summed in a fixed order).
func TestDeterministicAcrossWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	X := stack(gaussianRows(rng, 9000, 2, 0, 1), gaussianRows(rng, 9000, 2, 0.3, 1))
	p := mustVectors(t, mustGaussian(t, 1), X)
	x, z := span(0, 9000), span(9000, 18000)
	small := func(idx []int) []int { return idx[:1300] } // three tiles a side for Exact
	run := func() []float64 {
		var out []float64
		for _, est := range []Estimator{Exact{}, Linear{}, Block{}, RFF{Features: 20}, Nystrom{Landmarks: 30, Lambda: 1e-3}} {
			xs, zs := x, z
			if _, ok := est.(Exact); ok {
				xs, zs = small(x), small(z)
			}
			v, err := est.MMD2(context.Background(), rand.New(rand.NewPCG(9, 10)), p, xs, zs)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return out
	}
	prev := runtime.GOMAXPROCS(1)
	one := run()
	runtime.GOMAXPROCS(max(prev, 3))
	many := run()
	runtime.GOMAXPROCS(prev)
	for i := range one {
		if one[i] != many[i] {
			t.Errorf("estimator %d: %.17g with one goroutine, %.17g with several", i, one[i], many[i])
		}
	}
}

func TestExactCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := mustVectors(t, mustGaussian(t, 1), gaussianRows(rng, 2000, 2, 0, 1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Exact{}).MMD2(ctx, nil, p, span(0, 1000), span(1000, 2000)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v, want context.Canceled", err)
	}
}

// TestPointsBlocks checks Vectors.Block and Precomputed.Block entry by entry against Eval.
func TestPointsBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X := gaussianRows(rng, 30, 3, 0, 1)
	k := mustGaussian(t, 1.2)
	v := mustVectors(t, k, X.T()) // not a *mat.Dense, so copied: 3 points in 30 dimensions
	if v.Len() != 3 {
		t.Fatalf("Len = %d, want 3", v.Len())
	}
	v = mustVectors(t, k, X)
	gram, _ := kernel.Gram(k, X)
	pre, _ := NewPrecomputed(gram)
	ref := rowKernel(k, X)
	rows, cols := []int{4, 5, 6, 29, 4}, []int{0, 29, 3, 3}
	for name, p := range map[string]Points{"vectors": v, "precomputed": pre} {
		for _, pair := range [][2][]int{{rows, cols}, {rows, rows}, {cols[:3], cols[:3]}} {
			dst := mat.NewDense(len(pair[0]), len(pair[1]), nil)
			if err := p.Block(dst, pair[0], pair[1]); err != nil {
				t.Fatal(err)
			}
			for a, i := range pair[0] {
				for b, j := range pair[1] {
					if got, want := dst.At(a, b), ref(i, j); !near(got, want, 1e-14) {
						t.Errorf("%s: block[%d,%d] = %g, want k(%d,%d) = %g", name, a, b, got, i, j, want)
					}
				}
			}
		}
	}
}
