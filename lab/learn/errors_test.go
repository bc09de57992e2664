package learn_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/learn"
)

// The conditions a caller acts on match the package's sentinels with errors.Is, and the messages
// are the package's own.
func TestSentinelErrors(t *testing.T) {
	k := kernel.Gaussian{Sigma: 1}
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
	krr, err := learn.FitKRR(k, X, []float64{1, 2, 3}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	_, krrUnfitted := new(learn.KRR).Predict(X)
	_, svmUnfitted := new(learn.SVM).Predict(X)
	_, knnUnfitted := new(learn.KNN).Predict(X)
	_, topicsUnfitted := new(learn.TopicModel).TopWords(0, 1)
	_, nan := learn.FitKRR(k, X, []float64{1, math.NaN(), 3}, 0.1)
	_, shape := krr.Predict(mat.NewDense(1, 3, nil))
	_, rows := learn.FitKRR(k, X, []float64{1, 2}, 0.1)
	for _, c := range []struct {
		err, kind error
		text      string
	}{
		{krrUnfitted, learn.ErrNotFitted, "learn: KRR.Predict: the model is not fitted (make it with FitKRR)"},
		{svmUnfitted, learn.ErrNotFitted, "learn: SVM.Predict: the model is not fitted (make it with FitSVM)"},
		{knnUnfitted, learn.ErrNotFitted, "learn: KNN.Predict: the KNN is not fitted (use FitKNN)"},
		{topicsUnfitted, learn.ErrNotFitted, "learn: TopicModel.TopWords: the model is not fitted (use FitTopicModel)"},
		{nan, learn.ErrNonFinite, "learn: FitKRR: y[1] = NaN, want finite values"},
		{shape, learn.ErrShape, "learn: KRR.Predict: X has 3 columns but the model was fitted on 2"},
		{rows, learn.ErrShape, "learn: FitKRR: len(y) = 2 but X has 3 rows"},
	} {
		if !errors.Is(c.err, c.kind) || c.err.Error() != c.text {
			t.Errorf("%v: errors.Is(err, %v) = %v, want true with the text %q", c.err, c.kind, errors.Is(c.err, c.kind), c.text)
		}
	}
}
