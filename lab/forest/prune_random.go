package forest

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// PruneRandom is the baseline of chapter 6: m trees drawn uniformly without replacement, each
// with the weight 1/m. One random permutation of the T trees is drawn from rng and size m keeps
// its first m trees, so the forests of the grid are nested. P and y are only validated (the
// draw does not look at them), so that every method takes the same inputs. Cost O(n·T) for the
// validation and copy, O(T) for the draw.
func PruneRandom(rng *rand.Rand, P mat.Matrix, y []float64, sizes []int, opts PruneOptions) (*Pruning, error) {
	const op = "PruneRandom"
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "forest: %s: rng is nil", op)
	}
	in, err := newPruneInput(context.Background(), op, opts.Task, P, y, sizes)
	if err != nil {
		return nil, err
	}
	perm := rng.Perm(in.T)
	out := &Pruning{Sizes: in.sizes, Selections: make([]Selection, len(in.sizes))}
	for k, m := range in.sizes {
		out.Selections[k] = uniform(perm[:m])
	}
	return out, nil
}
