package kit

import (
	"fmt"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/dataset"
	"gonum.org/v1/gonum/mat"
)

// DrawRows picks n of the N rows: uniformly without replacement (sorted) when n ≤ N, and with
// replacement otherwise, which resampled reports (fig3_4 takes Covertype beyond the mirror's rows
// that way). n = 0 means all rows, in order.
func DrawRows(rng *rand.Rand, N, n int) (rows []int, resampled bool, err error) {
	switch {
	case n < 0 || N < 1:
		return nil, false, fmt.Errorf("draw %d of %d rows", n, N)
	case n == 0 || n == N:
		return IndexRange(0, N), false, nil
	case n < N:
		rows, err = dataset.Subsample(rng, N, n)
		return rows, false, err
	}
	rows = make([]int, n)
	for i := range rows {
		rows[i] = rng.IntN(N)
	}
	return rows, true, nil
}

// DrawSplit draws n of the rows of (X, y) (DrawRows; 0 = all) and splits the drawn rows into parts
// by fractions, stratified by class for classification. pick turns positions within the drawn rows
// (a part, or parts joined) into their rows of X and their targets (copies).
func DrawSplit(rng *rand.Rand, X *mat.Dense, y []float64, n int, classification bool, fractions ...float64) (parts [][]int, pick func(idx []int) (*mat.Dense, []float64), err error) {
	N, _ := X.Dims()
	rows, _, err := DrawRows(rng, N, min(n, N))
	if err != nil {
		return nil, nil, err
	}
	drawn := make([]float64, len(rows))
	for i, r := range rows {
		drawn[i] = y[r]
	}
	if classification {
		parts, err = dataset.StratifiedSplit(rng, drawn, fractions...)
	} else {
		parts, err = dataset.Split(rng, len(rows), fractions...)
	}
	if err != nil {
		return nil, nil, err
	}
	pick = func(idx []int) (*mat.Dense, []float64) {
		r := make([]int, len(idx))
		v := make([]float64, len(idx))
		for i, j := range idx {
			r[i], v[i] = rows[j], drawn[j]
		}
		return SelectRows(X, r), v
	}
	return parts, pick, nil
}
