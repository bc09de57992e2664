package forest_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/forest"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1})
	y := []float64{0, 1, 1, 2}
	f, err := forest.Fit(rand.New(rand.NewPCG(1, 2)), forest.Regression, X, y, forest.Options{Trees: 3})
	if err != nil {
		t.Fatal(err)
	}
	_, unfitted := new(forest.Forest).Predict(X)
	_, tree := new(forest.Tree).Predict([]float64{0, 0})
	_, nan := forest.Fit(rand.New(rand.NewPCG(1, 2)), forest.Regression, X, []float64{0, 1, math.NaN(), 2}, forest.Options{})
	_, shape := f.Predict(mat.NewDense(1, 3, nil))
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{unfitted, forest.ErrNotFitted, "forest: Predict: the forest has no trees (make it with Fit)"},
		{tree, forest.ErrNotFitted, "forest: Tree.Predict: the tree has no nodes (make it with FitTree or Fit)"},
		{nan, forest.ErrNonFinite, "forest: Fit: y[2] = NaN, want finite targets"},
		{shape, forest.ErrShape, "forest: Predict: X has 3 columns, want the 2 of the training data"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
