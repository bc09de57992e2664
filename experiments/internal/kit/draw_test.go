package kit

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDrawRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rows, resampled, err := DrawRows(rng, 5, 0)
	if err != nil || resampled || !slices.Equal(rows, []int{0, 1, 2, 3, 4}) {
		t.Errorf("all rows: %v %v %v", rows, resampled, err)
	}
	rows, resampled, err = DrawRows(rng, 100, 30)
	if err != nil || resampled || len(rows) != 30 || !slices.IsSorted(rows) || len(slices.Compact(slices.Clone(rows))) != 30 || rows[29] >= 100 {
		t.Errorf("subsample: %v %v %v", rows, resampled, err)
	}
	rows, resampled, err = DrawRows(rng, 10, 1000)
	if err != nil || !resampled || len(rows) != 1000 || slices.Min(rows) < 0 || slices.Max(rows) > 9 {
		t.Errorf("resample: %d rows, resampled %v, %v", len(rows), resampled, err)
	}
	// 1000 draws from 10 rows repeat rows and hit every one.
	if got := len(slices.Compact(slices.Sorted(slices.Values(rows)))); got != 10 {
		t.Errorf("resample hit %d distinct rows, want 10", got)
	}
	if _, _, err := DrawRows(rng, 10, -1); err == nil {
		t.Error("negative size accepted")
	}
}
