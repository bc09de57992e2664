package learn

import "fmt"

// MSE returns the mean squared error (1/n) Σ_i (y_i - yhat_i)², the regression score of the
// experiments. Errors: empty or different lengths, NaN or ±Inf in either slice.
func MSE(y, yhat []float64) (float64, error) {
	if err := checkPair("MSE", y, yhat); err != nil {
		return 0, err
	}
	var sum float64
	for i, v := range y {
		diff := v - yhat[i]
		sum += diff * diff
	}
	mse := sum / float64(len(y))
	if err := finiteOutput("MSE", "the mean squared error", []float64{mse}); err != nil {
		return 0, err
	}
	return mse, nil
}

// Accuracy returns the fraction of i with y_i == yhat_i, the classification score of the
// experiments; labels are class codes stored as float64 (±1, 0…K-1) and compared exactly.
// Errors: empty or different lengths, NaN or ±Inf in either slice.
func Accuracy(y, yhat []float64) (float64, error) {
	if err := checkPair("Accuracy", y, yhat); err != nil {
		return 0, err
	}
	hits := 0
	for i, v := range y {
		if v == yhat[i] {
			hits++
		}
	}
	return float64(hits) / float64(len(y)), nil
}

// checkPair validates the two slices a metric compares.
func checkPair(op string, y, yhat []float64) error {
	if len(y) == 0 || len(y) != len(yhat) {
		return fmt.Errorf("learn: %s: len(y) = %d and len(yhat) = %d, want equal non-zero lengths", op, len(y), len(yhat))
	}
	if err := checkFinite(op, "y", y); err != nil {
		return err
	}
	return checkFinite(op, "yhat", yhat)
}
