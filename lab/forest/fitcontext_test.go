package forest

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FitContext grows the same forest as Fit, and a cancelled context stops it with the context's error.
func TestFitContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, d := 60, 3
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			X.Set(i, j, rng.NormFloat64())
		}
		y[i] = X.At(i, 0) - 2*X.At(i, 1)
	}
	a, err := Fit(rand.New(rand.NewPCG(1, 1)), Regression, X, y, Options{Trees: 20})
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitContext(context.Background(), rand.New(rand.NewPCG(1, 1)), Regression, X, y, Options{Trees: 20})
	if err != nil {
		t.Fatal(err)
	}
	pa, _ := a.TreePredictions(X)
	pb, _ := b.TreePredictions(X)
	if !mat.Equal(pa, pb) {
		t.Error("FitContext with a live context grows another forest than Fit")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if f, err := FitContext(ctx, rand.New(rand.NewPCG(1, 1)), Regression, X, y, Options{Trees: 20}); f != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, %v; want no forest and context.Canceled", f, err)
	}
	// A nil context is bad input: an error, not a panic.
	if _, err := FitContext(nil, rand.New(rand.NewPCG(1, 1)), Regression, X, y, Options{}); err == nil {
		t.Error("nil context: no error")
	}
}
