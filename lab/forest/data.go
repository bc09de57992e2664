package forest

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// trainingSet is the training data in the layout the split search reads: each feature as the
// ranks of its values among the feature's distinct values, so that ordering a node's samples
// is sorting integers, plus the distinct values themselves for the thresholds.
type trainingSet struct {
	n, d int
	// ranks[f*n+i] is the rank (from 0) of X[i, f] among the distinct values of feature f.
	ranks []uint32
	// distinct[f] holds the distinct values of feature f in increasing order.
	distinct [][]float64
	y        []float64
}

// maxRows is the largest number of training rows: node indices (up to 2n − 1) are int32.
const maxRows = 1 << 30

// newTrainingSet validates the task, X and y (finite, with (n²·max|y|)² finite) for operation op
// and ranks the features:
// O(d·n log n) time, 4·n·d bytes of ranks plus at most 8·n·d of distinct values (and a
// temporary dense copy of X when X is not a *mat.Dense).
func newTrainingSet(op string, task Task, X mat.Matrix, y []float64) (*trainingSet, error) {
	if !task.known() {
		return nil, fmt.Errorf("forest: %s: unknown %v, want Regression or Classification", op, task)
	}
	dense, err := finiteDense(op, "X", X)
	if err != nil {
		return nil, err
	}
	n, d := dense.Dims()
	if n > maxRows {
		return nil, fmt.Errorf("forest: %s: X has %d rows, want at most %d", op, n, maxRows)
	}
	if len(y) != n {
		return nil, laberr.Errorf(laberr.ErrShape, "forest: %s: len(y) = %d, want the %d rows of X", op, len(y), n)
	}
	largest := 0.0
	for i, v := range y {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, laberr.Errorf(laberr.ErrNonFinite, "forest: %s: y[%d] = %g, want finite targets", op, i, v)
		case task == Classification && v != -1 && v != 1:
			return nil, fmt.Errorf("forest: %s: y[%d] = %g, want labels −1 or +1 for Classification", op, i, v)
		}
		largest = max(largest, math.Abs(v))
	}
	// The split criteria square weighted sums of targets, whose weights (bootstrap counts) reach
	// n: (n·n·max|y|)² must be finite.
	if bound := float64(n) * float64(n) * largest; !(bound*bound < math.MaxFloat64) {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "forest: %s: max|y| = %g is too large for %d rows: the split criteria, squares of sums of up to n² targets, would overflow; rescale y", op, largest, n)
	}
	set := &trainingSet{
		n:        n,
		d:        d,
		ranks:    make([]uint32, n*d),
		distinct: make([][]float64, d),
		y:        slices.Clone(y),
	}
	order := make([]int32, n)
	column := make([]float64, n)
	for f := range d {
		mat.Col(column, f, dense)
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(column[a], column[b]) })
		ranks := set.ranks[f*n : (f+1)*n]
		values := make([]float64, 0, n)
		for _, i := range order {
			v := column[i]
			if len(values) == 0 || v != values[len(values)-1] {
				values = append(values, v)
			}
			ranks[i] = uint32(len(values) - 1)
		}
		set.distinct[f] = slices.Clip(values)
	}
	return set, nil
}

// finiteDense checks that X (named name in operation op) is a non-nil, non-empty matrix of
// finite values and returns it as a *mat.Dense: X itself when it is one, else a copy.
func finiteDense(op, name string, X mat.Matrix) (*mat.Dense, error) {
	return matcheck.Dense("forest: "+op, name, X)
}
