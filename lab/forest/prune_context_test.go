package forest

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// Each pruning method's Context twin looks at its context between steps (picks, removals, Gram
// rows, sizes or Lloyd iterations): with a live context it returns the plain method's pruning bit
// for bit, a context done before the start or after k looks stops it with the context's error and
// no pruning, and a nil context is an error. Both tasks.
func TestPruneContextTwins(t *testing.T) {
	sizes := []int{1, 5, 12}
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(81, 82)) }
	type method func(ctx context.Context, P mat.Matrix, y []float64, opts PruneOptions) (*Pruning, error)
	plain := func(f func(P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error)) method {
		return func(_ context.Context, P mat.Matrix, y []float64, opts PruneOptions) (*Pruning, error) {
			return f(P, y, sizes, opts)
		}
	}
	twin := func(f func(ctx context.Context, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error)) method {
		return func(ctx context.Context, P mat.Matrix, y []float64, opts PruneOptions) (*Pruning, error) {
			return f(ctx, P, y, sizes, opts)
		}
	}
	twins := []struct {
		name        string
		plain, twin method
	}{
		{"PruneOMP", plain(PruneOMP), twin(PruneOMPContext)},
		{"PruneNNOMP", plain(PruneNNOMP), twin(PruneNNOMPContext)},
		{"PruneEnsemble", plain(PruneEnsemble), twin(PruneEnsembleContext)},
		{"PruneZhangPredictions", plain(PruneZhangPredictions), twin(PruneZhangPredictionsContext)},
		{"PruneZhangSimilarity", plain(PruneZhangSimilarity), twin(PruneZhangSimilarityContext)},
		{"PruneKMeans",
			func(_ context.Context, P mat.Matrix, y []float64, opts PruneOptions) (*Pruning, error) {
				return PruneKMeans(seed(), P, y, sizes, opts)
			},
			func(ctx context.Context, P mat.Matrix, y []float64, opts PruneOptions) (*Pruning, error) {
				return PruneKMeansContext(ctx, seed(), P, y, sizes, opts)
			}},
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, task := range []Task{Regression, Classification} {
		P, y := randomPredictions(rand.New(rand.NewPCG(83, uint64(task))), task, 60, 20)
		opts := PruneOptions{Task: task}
		for _, c := range twins {
			name := c.name + " " + task.String()
			want, err := c.plain(context.Background(), P, y, opts)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got, err := c.twin(context.Background(), P, y, opts); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the twin with context.Background() differs from the plain method (%v)", name, err)
			}
			all := ctxcheck.NewCountdown(math.MaxInt)
			if got, err := c.twin(all, P, y, opts); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the twin allowed every look differs from the plain method (%v)", name, err)
			}
			if all.Calls() < 4 {
				t.Fatalf("%s: Err called %d times, want at least 4 for the looks below", name, all.Calls())
			}
			if got, err := c.twin(cancelled, P, y, opts); got != nil || !errors.Is(err, context.Canceled) {
				t.Errorf("%s: cancelled ctx: %v, %v; want no pruning and context.Canceled", name, got, err)
			}
			for _, k := range []int{0, 1, 3} {
				ctx := ctxcheck.NewCountdown(k)
				if got, err := c.twin(ctx, P, y, opts); got != nil || !errors.Is(err, context.Canceled) {
					t.Errorf("%s: cancelled after %d looks: %v, %v; want no pruning and context.Canceled", name, k, got, err)
				}
				if ctx.Calls() != k+1 {
					t.Errorf("%s: cancelled after %d looks: Err called %d times, want %d (stop at the first error)", name, k, ctx.Calls(), k+1)
				}
			}
			var none context.Context
			if _, err := c.twin(none, P, y, opts); err == nil {
				t.Errorf("%s: nil ctx: no error", name)
			}
		}
	}
}

// The twins look where their documentation says: PruneEnsemble before each of its M picks,
// PruneZhangPredictions before each of its T − m removals, PruneZhangSimilarity before each of the
// T rows of its Gram matrix and each removal, the pursuits before each step and once more to stop.
func TestPruneContextLooks(t *testing.T) {
	P, y := randomPredictions(rand.New(rand.NewPCG(84, 85)), Regression, 60, 20)
	cases := []struct {
		name  string
		run   func(ctx context.Context) (*Pruning, error)
		looks int
	}{
		{"PruneEnsemble", func(ctx context.Context) (*Pruning, error) {
			return PruneEnsembleContext(ctx, P, y, []int{3, 9}, PruneOptions{})
		}, 9},
		{"PruneZhangPredictions", func(ctx context.Context) (*Pruning, error) {
			return PruneZhangPredictionsContext(ctx, P, y, []int{6, 15}, PruneOptions{})
		}, 20 - 6},
		{"PruneZhangSimilarity", func(ctx context.Context) (*Pruning, error) {
			return PruneZhangSimilarityContext(ctx, P, y, []int{6, 15}, PruneOptions{})
		}, 20 + 20 - 6},
		{"PruneOMP", func(ctx context.Context) (*Pruning, error) {
			return PruneOMPContext(ctx, P, y, []int{2, 7}, PruneOptions{})
		}, 7 + 1},
	}
	for _, c := range cases {
		ctx := ctxcheck.NewCountdown(math.MaxInt)
		if _, err := c.run(ctx); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ctx.Calls() != c.looks {
			t.Errorf("%s: Err called %d times, want %d", c.name, ctx.Calls(), c.looks)
		}
	}
}
