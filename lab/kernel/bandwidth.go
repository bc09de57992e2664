package kernel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// MeanSquaredDistance returns the bandwidth rule of the thesis (§3.3),
// σ² = (1/n²) Σ_i Σ_j ||x_i - x_j||², over the rows of X, in O(nd) rather than O(n²d): it equals
// 2(mean ||x||² - ||mean x||²), which is computed in the centred form 2 Σ_l (1/n) Σ_i (x_il - x̄_l)²
// to avoid cancellation. Use it as [NewGaussian](math.Sqrt(σ²)).
//
// Errors: nil or empty X, NaN or ±Inf, a zero result (all rows identical), which is no usable
// bandwidth, and an infinite one (coordinates so large that the squares overflow). Memory: O(d).
func MeanSquaredDistance(X mat.Matrix) (float64, error) {
	x, err := rowsOf("MeanSquaredDistance", "X", X)
	if err != nil {
		return 0, err
	}
	mean := make([]float64, x.d)
	for i := range x.n {
		for l, v := range x.row(i) {
			mean[l] += v
		}
	}
	for l := range mean {
		mean[l] /= float64(x.n)
	}
	var sum float64
	for i := range x.n {
		for l, v := range x.row(i) {
			c := v - mean[l]
			sum += c * c
		}
	}
	sigma2 := 2 * sum / float64(x.n)
	if math.IsInf(sigma2, 0) || math.IsNaN(sigma2) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "kernel: MeanSquaredDistance: the mean squared distance overflows (%g); rescale X", sigma2)
	}
	if sigma2 == 0 {
		return 0, errors.New("kernel: MeanSquaredDistance: all rows of X are identical, so the mean squared distance is 0")
	}
	return sigma2, nil
}

// ThesisGaussian returns the Gaussian kernel with the thesis's bandwidth (§3.3),
// σ² = [MeanSquaredDistance](X), and that σ². Errors as for MeanSquaredDistance.
func ThesisGaussian(X mat.Matrix) (Gaussian, float64, error) {
	sigma2, err := MeanSquaredDistance(X)
	if err != nil {
		return Gaussian{}, 0, err
	}
	k, err := NewGaussian(math.Sqrt(sigma2))
	return k, sigma2, err
}

// ThesisRidge returns the ridge rule of the thesis (§3.3), λ = 1 / mean_i ||x_i|| (Euclidean
// norms of the rows of X). Errors: nil or empty X, NaN or ±Inf, all rows zero, norms so large
// that their sum overflows (λ would be 0). Memory: O(1).
func ThesisRidge(X mat.Matrix) (float64, error) {
	x, err := rowsOf("ThesisRidge", "X", X)
	if err != nil {
		return 0, err
	}
	var sum float64
	for i := range x.n {
		sum += math.Sqrt(dot(x.row(i), x.row(i)))
	}
	if sum == 0 {
		return 0, errors.New("kernel: ThesisRidge: every row of X is zero, so 1/mean||x|| is infinite")
	}
	if math.IsInf(sum, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "kernel: ThesisRidge: the row norms overflow, so 1/mean||x|| is 0; rescale X")
	}
	return float64(x.n) / sum, nil
}

// MedianSubsample is the most points [MedianHeuristic] uses (at most ~500000 pairs).
const MedianSubsample = 1000

// MedianHeuristic returns the median Euclidean distance ||x_i - x_j|| over the pairs i < j of
// rows of X, a common Gaussian bandwidth σ. Above [MedianSubsample] rows, a subsample of that size
// is drawn without replacement with rng (which may then not be nil), so the result is a function
// of X and the seed; at or below it, every row is used and rng is ignored. With an even number of
// pairs the two middle distances are averaged.
//
// Errors: nil X, fewer than 2 rows, NaN or ±Inf, nil rng when it is needed, and a zero median
// (half the pairs coincide) or an infinite one (distances that overflow). Memory: O(n) indices plus MedianSubsample²/2 distances.
func MedianHeuristic(rng *rand.Rand, X mat.Matrix) (float64, error) {
	x, err := rowsOf("MedianHeuristic", "X", X)
	if err != nil {
		return 0, err
	}
	if x.n < 2 {
		return 0, fmt.Errorf("kernel: MedianHeuristic: X has %d row, want at least 2", x.n)
	}
	idx := make([]int, x.n)
	for i := range idx {
		idx[i] = i
	}
	if x.n > MedianSubsample {
		if rng == nil {
			return 0, laberr.Errorf(laberr.ErrNilRand, "kernel: MedianHeuristic: nil rng, needed to subsample %d of %d rows", MedianSubsample, x.n)
		}
		// Partial Fisher–Yates: the first MedianSubsample entries become a uniform sample.
		for i := range MedianSubsample {
			j := i + rng.IntN(x.n-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
		idx = idx[:MedianSubsample]
	}
	dists := make([]float64, 0, len(idx)*(len(idx)-1)/2)
	for a, i := range idx {
		xi := x.row(i)
		for _, j := range idx[a+1:] {
			xj := x.row(j)
			var d2 float64
			for l, v := range xi {
				d := v - xj[l]
				d2 += d * d
			}
			dists = append(dists, math.Sqrt(d2))
		}
	}
	slices.Sort(dists)
	mid := len(dists) / 2
	median := dists[mid]
	if len(dists)%2 == 0 {
		median = (dists[mid-1] + dists[mid]) / 2
	}
	if math.IsInf(median, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "kernel: MedianHeuristic: the median pairwise distance overflows; rescale X")
	}
	if median == 0 {
		return 0, errors.New("kernel: MedianHeuristic: the median pairwise distance is 0 (at least half the pairs of rows coincide)")
	}
	return median, nil
}
