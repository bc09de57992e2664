package pursuit

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// Each solver's Context twin looks at its context once per iteration: with a live context it
// returns the plain solver's result bit for bit (every step and iterate), a context done before
// the start or after k looks stops it with the context's error and no result, and a nil context
// is an error.
func TestContextTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	dict := mustDense(t, gaussianMatrix(rng, 40, 100))
	y := make([]float64, 40)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	iterations, atoms := Options{MaxIterations: 20}, Options{MaxAtoms: 10}
	twins := []struct {
		name  string
		plain func() (*Result, error)
		twin  func(ctx context.Context) (*Result, error)
	}{
		{"MatchingPursuit",
			func() (*Result, error) { return MatchingPursuit(dict, y, iterations) },
			func(ctx context.Context) (*Result, error) { return MatchingPursuitContext(ctx, dict, y, iterations) }},
		{"OrthogonalMatchingPursuit",
			func() (*Result, error) { return OrthogonalMatchingPursuit(dict, y, atoms) },
			func(ctx context.Context) (*Result, error) {
				return OrthogonalMatchingPursuitContext(ctx, dict, y, atoms)
			}},
		{"NonNegativeOMP",
			func() (*Result, error) { return NonNegativeOMP(dict, y, atoms) },
			func(ctx context.Context) (*Result, error) { return NonNegativeOMPContext(ctx, dict, y, atoms) }},
		{"FrankWolfe open loop",
			func() (*Result, error) { return FrankWolfe(dict, y, 2, StepOpenLoop, iterations) },
			func(ctx context.Context) (*Result, error) {
				return FrankWolfeContext(ctx, dict, y, 2, StepOpenLoop, iterations)
			}},
		{"FrankWolfe line search",
			func() (*Result, error) { return FrankWolfe(dict, y, 2, StepLineSearch, iterations) },
			func(ctx context.Context) (*Result, error) {
				return FrankWolfeContext(ctx, dict, y, 2, StepLineSearch, iterations)
			}},
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range twins {
		want, err := c.plain()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(want.Steps) <= 5 {
			t.Fatalf("%s: %d steps, want more than 5 for the looks below", c.name, len(want.Steps))
		}
		if got, err := c.twin(context.Background()); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the twin with context.Background() differs from the plain solver (%v)", c.name, err)
		}
		all := ctxcheck.NewCountdown(math.MaxInt)
		if got, err := c.twin(all); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the twin allowed every look differs from the plain solver (%v)", c.name, err)
		}
		if all.Calls() != len(want.Steps)+1 {
			t.Errorf("%s: Err called %d times for %d iterations, want one look before each and one before stopping", c.name, all.Calls(), len(want.Steps))
		}
		if got, err := c.twin(cancelled); got != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled ctx: %v, %v; want no result and context.Canceled", c.name, got, err)
		}
		for _, k := range []int{0, 1, 5} {
			ctx := ctxcheck.NewCountdown(k)
			if got, err := c.twin(ctx); got != nil || !errors.Is(err, context.Canceled) {
				t.Errorf("%s: cancelled after %d looks: %v, %v; want no result and context.Canceled", c.name, k, got, err)
			}
			if ctx.Calls() != k+1 {
				t.Errorf("%s: cancelled after %d looks: Err called %d times, want %d (stop at the first error)", c.name, k, ctx.Calls(), k+1)
			}
		}
		var none context.Context
		if _, err := c.twin(none); err == nil {
			t.Errorf("%s: nil ctx: no error", c.name)
		}
	}
}
