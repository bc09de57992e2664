package forest_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/forest"
)

// TestValidation checks every bad-input path: an error that names the problem, no panic.
func TestValidation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	X := mat.NewDense(4, 2, []float64{0, 1, 2, 3, 4, 5, 6, 7})
	y := []float64{1, -1, 1, -1}
	withEntry := func(i, j int, v float64) *mat.Dense {
		m := mat.DenseCopyOf(X)
		m.Set(i, j, v)
		return m
	}
	var nilDense *mat.Dense
	fitCases := []struct {
		name string
		rng  *rand.Rand
		task forest.Task
		X    mat.Matrix
		y    []float64
		opts forest.Options
		want string
	}{
		{"nil rng", nil, forest.Regression, X, y, forest.Options{}, "rng is nil"},
		{"nil X", rng, forest.Regression, nil, y, forest.Options{}, "X is nil"},
		{"nil *mat.Dense", rng, forest.Regression, nilDense, y, forest.Options{}, "X is a nil *mat.Dense"},
		{"empty X", rng, forest.Regression, &mat.Dense{}, y, forest.Options{}, "X is empty (0×0)"},
		{"NaN in X", rng, forest.Regression, withEntry(2, 1, math.NaN()), y, forest.Options{}, "X[2,1] = NaN"},
		{"Inf in X", rng, forest.Classification, withEntry(3, 0, math.Inf(-1)), y, forest.Options{}, "X[3,0] = -Inf"},
		{"short y", rng, forest.Regression, X, y[:3], forest.Options{}, "len(y) = 3"},
		{"NaN in y", rng, forest.Regression, X, []float64{1, 2, math.NaN(), 4}, forest.Options{}, "y[2] = NaN"},
		{"label 0", rng, forest.Classification, X, []float64{1, -1, 0, 1}, forest.Options{}, "y[2] = 0, want labels −1 or +1"},
		{"label 2", rng, forest.Classification, X, []float64{2, -1, 1, 1}, forest.Options{}, "y[0] = 2"},
		{"unknown task", rng, forest.Task(5), X, y, forest.Options{}, "unknown Task(5)"},
		{"negative Trees", rng, forest.Regression, X, y, forest.Options{Trees: -1}, "Trees = -1"},
		{"negative MaxFeatures", rng, forest.Regression, X, y, forest.Options{MaxFeatures: -2}, "MaxFeatures = -2"},
		{"MaxFeatures > d", rng, forest.Regression, X, y, forest.Options{MaxFeatures: 3}, "MaxFeatures = 3, want at most the 2 columns"},
		{"negative MaxDepth", rng, forest.Regression, X, y, forest.Options{MaxDepth: -1}, "MaxDepth = -1"},
		{"negative MinLeaf", rng, forest.Regression, X, y, forest.Options{MinLeaf: -3}, "MinLeaf = -3"},
	}
	for _, c := range fitCases {
		if _, err := forest.Fit(c.rng, c.task, c.X, c.y, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Fit, %s: error %v, want one containing %q", c.name, err, c.want)
		}
		if c.opts.Trees != 0 {
			continue
		}
		treeOpts := forest.TreeOptions{MaxFeatures: c.opts.MaxFeatures, MaxDepth: c.opts.MaxDepth, MinLeaf: c.opts.MinLeaf}
		_, err := forest.FitTree(c.rng, c.task, c.X, c.y, treeOpts)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "FitTree") {
			t.Errorf("FitTree, %s: error %v, want one from FitTree containing %q", c.name, err, c.want)
		}
	}

	f, err := forest.Fit(rng, forest.Classification, X, y, forest.Options{Trees: 3})
	if err != nil {
		t.Fatal(err)
	}
	pointCases := []struct {
		name string
		X    mat.Matrix
		want string
	}{
		{"nil X", nil, "X is nil"},
		{"3 columns", mat.NewDense(2, 3, nil), "X has 3 columns, want the 2"},
		{"NaN", mat.NewDense(1, 2, []float64{0, math.NaN()}), "X[0,1] = NaN"},
		{"empty", &mat.Dense{}, "X is empty (0×0)"},
	}
	for _, c := range pointCases {
		if _, err := f.TreePredictions(c.X); err == nil || !strings.Contains(err.Error(), "TreePredictions: "+c.want) {
			t.Errorf("TreePredictions, %s: error %v, want one containing %q", c.name, err, c.want)
		}
		if _, err := f.Predict(c.X); err == nil || !strings.Contains(err.Error(), "Predict: "+c.want) {
			t.Errorf("Predict, %s: error %v, want one containing %q", c.name, err, c.want)
		}
	}

	tree := f.Tree(0)
	for _, c := range []struct {
		x    []float64
		want string
	}{{[]float64{1}, "len(x) = 1, want the 2 columns"}, {[]float64{1, math.Inf(1)}, "x[1] = +Inf"}} {
		if _, err := tree.Predict(c.x); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Tree.Predict(%v): error %v, want one containing %q", c.x, err, c.want)
		}
	}
}

// TestTaskString checks the names, including an unknown task's.
func TestTaskString(t *testing.T) {
	for task, want := range map[forest.Task]string{forest.Regression: "Regression", forest.Classification: "Classification", 7: "Task(7)"} {
		if got := task.String(); got != want {
			t.Errorf("Task(%d).String() = %q, want %q", int(task), got, want)
		}
	}
}
