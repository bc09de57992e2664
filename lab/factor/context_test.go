package factor

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FitSparsePCAContext and FitPPCAContext return their plain twins' fits bit for bit, ctx's error
// once ctx is done, and an error for a nil ctx.
func TestContextTwins(t *testing.T) {
	a := randomSparse(rand.New(rand.NewPCG(61, 62)), 200, 60, 0.1)
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(63, 64)) }
	opts := SparsePCAOptions{Penalty: 0.1, Iterations: 5}
	sparse, err := FitSparsePCA(seed(), a, 4, opts)
	if err != nil {
		t.Fatal(err)
	}
	model, err := FitPPCA(seed(), a, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FitSparsePCAContext(context.Background(), seed(), a, 4, opts); err != nil ||
		!mat.Equal(got.U, sparse.U) || !mat.Equal(got.V, sparse.V) || !slices.Equal(got.Objective, sparse.Objective) {
		t.Errorf("FitSparsePCAContext differs from FitSparsePCA (%v)", err)
	}
	if got, err := FitPPCAContext(context.Background(), seed(), a, 4, 5); err != nil ||
		!mat.Equal(got.W, model.W) || got.Sigma2 != model.Sigma2 || !slices.Equal(got.LogLikelihood, model.LogLikelihood) {
		t.Errorf("FitPPCAContext differs from FitPPCA (%v)", err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitSparsePCAContext(cancelled, seed(), a, 4, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("FitSparsePCAContext with a cancelled ctx: %v, want context.Canceled", err)
	}
	if _, err := FitPPCAContext(cancelled, seed(), a, 4, 5); !errors.Is(err, context.Canceled) {
		t.Errorf("FitPPCAContext with a cancelled ctx: %v, want context.Canceled", err)
	}
	var none context.Context
	if _, err := FitSparsePCAContext(none, seed(), a, 4, opts); err == nil {
		t.Error("FitSparsePCAContext with a nil ctx: no error")
	}
	if _, err := FitPPCAContext(none, seed(), a, 4, 5); err == nil {
		t.Error("FitPPCAContext with a nil ctx: no error")
	}
}
