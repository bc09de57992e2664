package leverage

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
)

// With one block (m ≥ n) DAC is the exact computation.
func TestDACOneBlockIsExact(t *testing.T) {
	x := randomPoints(5, 50, 3)
	k := gaussian(t, 0.5)
	exact, _, err := Exact(k, x, 0.2, ExactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []int{50, 80} {
		dac, err := DAC(rand.New(rand.NewPCG(1, 1)), k, x, 0.2, DACOptions{BlockSize: m})
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(dac, exact); d > 1e-13 {
			t.Errorf("m = %d: max |DAC − Exact| = %.2g", m, d)
		}
	}
}

// Each point's DAC score is the eq. 2.2 score of its block computed on its own (Algorithm 2,
// line 8), checked on a hand-made partition against eigendecompositions of the block Gram matrices.
func TestDACScoresAreWithinBlockScores(t *testing.T) {
	x := randomPoints(8, 23, 2)
	k := gaussian(t, 0.3)
	const lambda = 0.05
	blocks := [][]int{{0, 5, 22, 7}, {1, 2, 3}, {4, 6, 8, 9, 10, 11, 12, 13, 14, 15}, {16, 17, 18, 19, 20, 21}}
	got, err := dacScores(context.Background(), "test", k, x, lambda, blocks)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		sub := mat.NewDense(len(b), 2, nil)
		gatherRows(sub, x, b)
		want, _ := eigenScores(t, bruteGram(k, sub), lambda)
		for j, i := range b {
			if math.Abs(got[i]-want[j]) > 1e-12 {
				t.Errorf("point %d: DAC %.15g, score within its block %.15g", i, got[i], want[j])
			}
		}
	}
}

// Corollary 1: every DAC score is at least the exact score, on many random data sets (sizes,
// dimensions, bandwidths, ridges, kernels) and many random partitions of each.
func TestDACCorollary1OverEstimates(t *testing.T) {
	rng := rand.New(rand.NewPCG(2022, 1))
	cases := 0
	for set := range 40 {
		n := 5 + rng.IntN(76)
		d := 1 + rng.IntN(4)
		x := randomPoints(uint64(100+set), n, d)
		var k kernel.Kernel = gaussian(t, 0.05+rng.Float64())
		if set%5 == 4 {
			k = kernel.Laplace{Sigma: 0.2 + rng.Float64()}
		}
		lambda := math.Pow(10, -3+4*rng.Float64())
		exact, _, err := Exact(k, x, lambda, ExactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for range 6 {
			m := 1 + rng.IntN(n)
			dac, err := DAC(rng, k, x, lambda, DACOptions{BlockSize: m})
			if err != nil {
				t.Fatal(err)
			}
			cases++
			for i := range n {
				if dac[i] < exact[i]-1e-12 {
					t.Fatalf("set %d (n=%d, %s, λ=%.3g, m=%d): DAC l̂_%d = %.15g < exact %.15g", set, n, k.Name(), lambda, m, i, dac[i], exact[i])
				}
			}
		}
	}
	if cases != 240 {
		t.Fatalf("%d cases checked", cases)
	}
}

// Corollary 2: Σ l̂_i ≤ Σ l_i + n(1 − 1/β), β = (ζ_max + λ)/(ζ_min + λ), on random data sets.
func TestDACCorollary2SumBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(2022, 2))
	for set := range 20 {
		n := 10 + rng.IntN(60)
		x := randomPoints(uint64(300+set), n, 2)
		k := gaussian(t, 0.05+0.5*rng.Float64())
		lambda := math.Pow(10, -2+3*rng.Float64())
		K := bruteGram(k, x)
		var eig mat.EigenSym
		if !eig.Factorize(K, false) {
			t.Fatal("eigenvalues")
		}
		values := eig.Values(nil)
		beta := (values[n-1] + lambda) / (max(values[0], 0) + lambda)
		_, deff, err := Exact(k, x, lambda, ExactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			dac, err := DAC(rng, k, x, lambda, DACOptions{BlockSize: 1 + rng.IntN(n)})
			if err != nil {
				t.Fatal(err)
			}
			bound := deff + float64(n)*(1-1/beta)
			if s := sum(dac); s > bound+1e-10 {
				t.Fatalf("set %d: Σ DAC = %.12g > d_eff + n(1 − 1/β) = %.12g", set, s, bound)
			}
		}
	}
}

// The partition depends on rng only, and the scores not on the number of goroutines.
func TestDACDeterministicAcrossWorkers(t *testing.T) {
	x := randomPoints(9, 600, 4)
	k := gaussian(t, 0.7)
	run := func(procs int) []float64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s, err := DAC(rand.New(rand.NewPCG(4, 4)), k, x, 0.1, DACOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	one, many := run(1), run(5)
	if !slices.Equal(one, many) {
		t.Fatalf("DAC differs between 1 and 5 goroutines (max diff %.2g)", maxAbsDiff(one, many))
	}
	other, err := DAC(rand.New(rand.NewPCG(5, 5)), k, x, 0.1, DACOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(one, other) {
		t.Fatal("DAC gives the same scores for two seeds")
	}
}

func TestBalancedBlocks(t *testing.T) {
	for _, tc := range []struct{ n, m int }{{10, 3}, {9, 3}, {1, 1}, {7, 100}, {581012, 763}, {100, 1}} {
		perm := make([]int, tc.n)
		for i := range perm {
			perm[i] = i
		}
		blocks := balancedBlocks(perm, tc.m)
		if want := (tc.n + tc.m - 1) / tc.m; len(blocks) != want {
			t.Errorf("n=%d m=%d: %d blocks, want %d", tc.n, tc.m, len(blocks), want)
		}
		var all []int
		lo, hi := tc.n, 0
		for _, b := range blocks {
			all = append(all, b...)
			lo, hi = min(lo, len(b)), max(hi, len(b))
		}
		if !slices.Equal(all, perm) || hi > tc.m || hi-lo > 1 {
			t.Errorf("n=%d m=%d: sizes in [%d, %d], blocks cover %d points in order: %v", tc.n, tc.m, lo, hi, len(all), slices.Equal(all, perm))
		}
	}
}

func TestDACErrors(t *testing.T) {
	x := randomPoints(1, 5, 2)
	k := gaussian(t, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"nil rng", func() error { _, err := DAC(nil, k, x, 1, DACOptions{}); return err }, "nil *rand.Rand"},
		{"negative m", func() error { _, err := DAC(rng, k, x, 1, DACOptions{BlockSize: -2}); return err }, "block size -2"},
		{"λ", func() error { _, err := DAC(rng, k, x, 0, DACOptions{}); return err }, "λ = 0"},
		{"NaN", func() error {
			_, err := DAC(rng, k, mat.NewDense(1, 1, []float64{math.Inf(-1)}), 1, DACOptions{})
			return err
		}, "X[0,0] = -Inf"},
		{"not PD", func() error {
			_, err := DAC(rng, kernel.Linear{}, mat.NewDense(4, 1, []float64{1, 1, 1, 1}), 1e-300, DACOptions{BlockSize: 2})
			return err
		}, "DAC: block"},
	} {
		if err := tc.err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}
