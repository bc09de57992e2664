package leverage

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// A Context twin returns its plain method's scores bit for bit (on several blocks of rows, so
// that the checks between them run), ctx's error once ctx is done, and an error for a nil ctx.
func TestContextTwins(t *testing.T) {
	x := randomPoints(41, 2100, 3)
	k := gaussian(t, 0.5)
	const lambda = 0.05
	dac, uniform, recursive := DACOptions{BlockSize: 300}, UniformOptions{Landmarks: 40}, RecursiveOptions{Samples: 40}
	twins := []struct {
		name  string
		plain func(rng *rand.Rand) ([]float64, error)
		twin  func(ctx context.Context, rng *rand.Rand) ([]float64, error)
	}{
		{"DAC",
			func(rng *rand.Rand) ([]float64, error) { return DAC(rng, k, x, lambda, dac) },
			func(ctx context.Context, rng *rand.Rand) ([]float64, error) {
				return DACContext(ctx, rng, k, x, lambda, dac)
			}},
		{"Uniform",
			func(rng *rand.Rand) ([]float64, error) { return Uniform(rng, k, x, lambda, uniform) },
			func(ctx context.Context, rng *rand.Rand) ([]float64, error) {
				return UniformContext(ctx, rng, k, x, lambda, uniform)
			}},
		{"Recursive",
			func(rng *rand.Rand) ([]float64, error) {
				s, _, err := Recursive(rng, k, x, AdaptiveRidge, recursive)
				return s, err
			},
			func(ctx context.Context, rng *rand.Rand) ([]float64, error) {
				s, _, err := RecursiveContext(ctx, rng, k, x, AdaptiveRidge, recursive)
				return s, err
			}},
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }
	for _, c := range twins {
		want, err := c.plain(seed())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, err := c.twin(context.Background(), seed()); err != nil || !slices.Equal(got, want) {
			t.Errorf("%sContext differs from %s (%v)", c.name, c.name, err)
		}
		if _, err := c.twin(cancelled, seed()); !errors.Is(err, context.Canceled) {
			t.Errorf("%sContext with a cancelled ctx: %v, want context.Canceled", c.name, err)
		}
		var none context.Context
		if _, err := c.twin(none, seed()); err == nil {
			t.Errorf("%sContext with a nil ctx: no error", c.name)
		}
	}
}
