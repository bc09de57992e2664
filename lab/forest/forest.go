package forest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Options are the settings of a random forest; the zero value gives scikit-learn's defaults.
type Options struct {
	// Trees is the number of trees; 0 means 100.
	Trees int
	// MaxFeatures is the number of candidate features drawn at each split; 0 means
	// max(1, ⌊√d⌋) for Classification and d for Regression (scikit-learn's "sqrt" and 1.0).
	MaxFeatures int
	// MaxDepth is the largest depth of a leaf; 0 means unlimited (fully grown trees).
	MaxDepth int
	// MinLeaf is the smallest number of distinct training rows in a leaf; 0 means 1.
	MinLeaf int
	// NoBootstrap trains every tree on all rows; by default each tree gets n draws with
	// replacement (scikit-learn's bootstrap=True).
	NoBootstrap bool
}

// defaultTrees is the number of trees when Options.Trees is 0, as in scikit-learn.
const defaultTrees = 100

// predictionBlockRows returns the number of rows one task of TreePredictions and Predict
// handles for n rows: two blocks per goroutine, of at least 256 rows. Each block walks every
// tree, so large blocks keep a tree's nodes in cache across many rows (on 20000 rows and 100
// trees, 256-row blocks are 3.4 times slower). The results do not depend on it.
func predictionBlockRows(n int) int {
	tasks := 2 * parallel.Workers(n)
	return max(256, (n+tasks-1)/tasks)
}

// Forest is a fitted random forest: its trees, its task and the number of training columns.
type Forest struct {
	trees []*Tree
	task  Task
	d     int
}

// Fit grows a random forest on the rows of X (n×d) and their targets y. One seed per tree is
// drawn from rng, in tree order, before any training; tree t then uses its own PCG generator for
// its bootstrap sample and its feature draws, so the forest does not depend on GOMAXPROCS. The
// trees grow in parallel on min(T, GOMAXPROCS) goroutines. Time: O(d·n log n) to rank the
// features once, then per tree O(MaxFeatures·n log n) per level. Memory: at most 12·n·d bytes
// for the ranked features, 32·n bytes of buffers per goroutine, and 16 bytes per tree node (a
// fully grown tree on a bootstrap sample has about 0.63·n leaves and twice as many nodes).
func Fit(rng *rand.Rand, task Task, X mat.Matrix, y []float64, opts Options) (*Forest, error) {
	return fit(context.Background(), "Fit", rng, task, X, y, opts)
}

// FitContext is Fit that stops growing trees once ctx is done and then returns ctx.Err(): a
// 1000-tree forest on a large data set takes minutes, and a cancelled run should not wait for it.
// A tree already growing finishes first, so it returns within about one tree's time. The trees of
// a forest that completes are those Fit grows.
func FitContext(ctx context.Context, rng *rand.Rand, task Task, X mat.Matrix, y []float64, opts Options) (*Forest, error) {
	if ctx == nil {
		return nil, fmt.Errorf("forest: FitContext: ctx is nil")
	}
	return fit(ctx, "FitContext", rng, task, X, y, opts)
}

func fit(ctx context.Context, op string, rng *rand.Rand, task Task, X mat.Matrix, y []float64, opts Options) (*Forest, error) {
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "forest: %s: rng is nil", op)
	}
	if opts.Trees < 0 {
		return nil, fmt.Errorf("forest: %s: Trees = %d, want ≥ 0 (0: %d)", op, opts.Trees, defaultTrees)
	}
	set, err := newTrainingSet(op, task, X, y)
	if err != nil {
		return nil, err
	}
	mtry, err := checkGrowth(op, opts.MaxFeatures, opts.MaxDepth, opts.MinLeaf, set.d, defaultMaxFeatures(task, set.d))
	if err != nil {
		return nil, err
	}
	trees := opts.Trees
	if trees == 0 {
		trees = defaultTrees
	}
	// A seed and a pointer per tree at least (the trees' nodes come on top).
	if err := memlimit.Check("forest: "+op, fmt.Sprintf("%d trees", trees), 16, trees); err != nil {
		return nil, err
	}
	seeds := make([]uint64, trees)
	for t := range seeds {
		seeds[t] = rng.Uint64()
	}
	f := &Forest{trees: make([]*Tree, trees), task: task, d: set.d}
	builders := make([]*builder, parallel.Workers(trees))
	parallel.For(trees, func(worker, t int) {
		if ctx.Err() != nil {
			return
		}
		b := builders[worker]
		if b == nil {
			b = newBuilder(set, task, mtry, opts.MaxDepth, max(1, opts.MinLeaf))
			builders[worker] = b
		}
		treeRNG := rand.New(rand.NewPCG(seeds[t], uint64(t)))
		if opts.NoBootstrap {
			b.useAllRows()
		} else {
			b.useBootstrap(treeRNG)
		}
		f.trees[t] = b.grow(treeRNG)
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("forest: %s: %w", op, err)
	}
	return f, nil
}

// defaultMaxFeatures is scikit-learn's default number of candidate features on d features:
// max(1, ⌊√d⌋) for Classification ("sqrt"), d for Regression (1.0).
func defaultMaxFeatures(task Task, d int) int {
	if task == Classification {
		return max(1, int(math.Sqrt(float64(d))))
	}
	return d
}

// Task returns the task the forest was trained for.
func (f *Forest) Task() Task { return f.task }

// Size returns the number of trees.
func (f *Forest) Size() int { return len(f.trees) }

// Tree returns tree i, for i in [0, Size()), and nil otherwise.
func (f *Forest) Tree(i int) *Tree {
	if f == nil || i < 0 || i >= len(f.trees) {
		return nil
	}
	return f.trees[i]
}

// TreePredictions returns the n×T matrix whose column t holds tree t's predictions on the rows
// of X (n×d, d the number of training columns): the matrix the thesis's chapter 6 prunes with
// OMP. Rows are handled in blocks on all cores. Time O(n·T·depth); memory: the n×T result (and
// a copy of X when it is not a *mat.Dense).
func (f *Forest) TreePredictions(X mat.Matrix) (*mat.Dense, error) {
	dense, err := f.checkPoints("TreePredictions", X)
	if err != nil {
		return nil, err
	}
	n, _ := dense.Dims()
	T := len(f.trees)
	if err := memlimit.Check("forest: TreePredictions", fmt.Sprintf("the %d×%d prediction matrix", n, T), 8, n, T); err != nil {
		return nil, err
	}
	out := mat.NewDense(n, T, nil)
	raw := out.RawMatrix()
	_ = parallel.Blocks(n, predictionBlockRows(n), func(_, lo, hi int) error {
		for t, tree := range f.trees {
			for i := lo; i < hi; i++ {
				raw.Data[i*raw.Stride+t] = tree.predict(dense.RawRowView(i))
			}
		}
		return nil
	})
	return out, nil
}

// Predict returns the forest's prediction for each row of X (n×d, d the number of training
// columns): the mean of the trees' predictions for Regression, the sign of the mean ±1 vote for
// Classification (0 giving +1). It equals aggregating TreePredictions row by row, without
// forming the n×T matrix. Time O(n·T·depth) on all cores; memory O(n).
func (f *Forest) Predict(X mat.Matrix) ([]float64, error) {
	dense, err := f.checkPoints("Predict", X)
	if err != nil {
		return nil, err
	}
	n, _ := dense.Dims()
	out := make([]float64, n)
	_ = parallel.Blocks(n, predictionBlockRows(n), func(_, lo, hi int) error {
		for _, tree := range f.trees {
			for i := lo; i < hi; i++ {
				out[i] += tree.predict(dense.RawRowView(i))
			}
		}
		for i := lo; i < hi; i++ {
			switch {
			case f.task == Regression:
				out[i] /= float64(len(f.trees))
			case out[i] >= 0:
				out[i] = 1
			default:
				out[i] = -1
			}
		}
		return nil
	})
	return out, nil
}

// checkPoints validates the points X of operation op: finite, with the training's number of
// columns; it returns them as a *mat.Dense.
func (f *Forest) checkPoints(op string, X mat.Matrix) (*mat.Dense, error) {
	if f == nil || len(f.trees) == 0 {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "forest: %s: the forest has no trees (make it with Fit)", op)
	}
	dense, err := finiteDense(op, "X", X)
	if err != nil {
		return nil, err
	}
	if _, d := dense.Dims(); d != f.d {
		return nil, laberr.Errorf(laberr.ErrShape, "forest: %s: X has %d columns, want the %d of the training data", op, d, f.d)
	}
	return dense, nil
}
