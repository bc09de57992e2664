package leverage

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/lowrank"
)

// Hand-computed values: Σ l̂ = 1.001 and ρ = 0.1 give 16 ln(10.01) = 36.857353493234065, so
// p = (1, 1, 1, 0.036857…) and the size bound is 32 ln(10.01) · 1.001 = 73.7884216934546.
func TestBernoulliProbabilitiesAndBound(t *testing.T) {
	scores := []float64{0.5, 0.25, 0.25, 0.001}
	p, err := BernoulliProbabilities(scores, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 1, 1, 0.03685735349323407}
	if d := maxAbsDiff(p, want); d > 1e-15 {
		t.Errorf("p = %v, want %v", p, want)
	}
	bound, err := BernoulliSizeBound(scores, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(bound-73.7884216934546) > 1e-12 {
		t.Errorf("bound = %.15g, want 73.7884216934546", bound)
	}
}

// Each index is kept with its probability: empirical frequencies over many draws agree with p_i
// within five standard errors, and an index of score 0 is never kept.
func TestBernoulliSampleFrequencies(t *testing.T) {
	const rho, draws = 0.5, 20000
	factor := 16 * math.Log(1.0/rho) // Σ scores = 1 below
	scores := []float64{0.1 / factor, 0.5 / factor, 0.9 / factor, 0, 1 - 1.5/factor}
	want := []float64{0.1, 0.5, 0.9, 0, 1}
	counts := make([]int, len(scores))
	rng := rand.New(rand.NewPCG(12, 12))
	for range draws {
		kept, err := BernoulliSample(rng, scores, rho)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(kept) {
			t.Fatalf("kept indices %v not increasing", kept)
		}
		for _, i := range kept {
			counts[i]++
		}
	}
	for i, c := range counts {
		f := float64(c) / draws
		se := math.Sqrt(want[i] * (1 - want[i]) / draws)
		if math.Abs(f-want[i]) > 5*se+1e-12 {
			t.Errorf("index %d kept with frequency %.4f, want %.2f", i, f, want[i])
		}
	}
}

// Sample is lowrank.WeightedLandmarks: the same draws from the same seed.
func TestSampleDelegatesToWeightedLandmarks(t *testing.T) {
	scores := []float64{0.3, 0, 0.9, 0.05, 0.4, 0.2, 0.7}
	got, err := Sample(rand.New(rand.NewPCG(3, 1)), scores, 4)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lowrank.WeightedLandmarks(rand.New(rand.NewPCG(3, 1)), scores, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || slices.Contains(got, 1) {
		t.Fatalf("Sample = %v, WeightedLandmarks = %v", got, want)
	}
}

func TestSamplerErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	ok := []float64{0.5, 0.5}
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"Sample s > positive", func() error { _, err := Sample(rng, []float64{1, 0}, 2); return err }, "leverage: Sample:"},
		{"Sample nil rng", func() error { _, err := Sample(nil, ok, 1); return err }, "nil *rand.Rand"},
		{"no scores", func() error { _, err := BernoulliProbabilities(nil, 0.1); return err }, "no scores"},
		{"ρ = 0", func() error { _, err := BernoulliProbabilities(ok, 0); return err }, "ρ = 0"},
		{"ρ = 1", func() error { _, err := BernoulliSizeBound(ok, 1); return err }, "ρ = 1"},
		{"negative score", func() error { _, err := BernoulliSample(rng, []float64{1, -1}, 0.1); return err }, "scores[1] = -1"},
		{"NaN score", func() error { _, err := BernoulliSample(rng, []float64{math.NaN()}, 0.1); return err }, "scores[0] = NaN"},
		{"overflow", func() error {
			_, err := BernoulliSample(rng, []float64{math.MaxFloat64, math.MaxFloat64}, 0.1)
			return err
		}, "overflows"},
		{"Σ ≤ ρ", func() error { _, err := BernoulliSample(rng, []float64{0.01, 0.02}, 0.1); return err }, "ln(Σ/ρ) ≤ 0"},
		{"nil rng", func() error { _, err := BernoulliSample(nil, ok, 0.1); return err }, "nil *rand.Rand"},
	} {
		if err := tc.err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}
