package kernel

import (
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// CrossBlocks hands over consecutive row blocks that cover X once, in order, each the pair-loop
// kernel values; with 2¹⁸/n rows a block, 1000 rows against 300 take two blocks (the last one
// short), and 3 rows against 2¹⁹ one row a block.
func TestCrossBlocksAgainstPairLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, s := range []struct{ m, n, d, blocks int }{{1000, 300, 4, 2}, {7, 5, 3, 1}, {3, 1 << 19, 1, 3}} {
		X, Z := randomMatrix(rng, s.m, s.d, 0), randomMatrix(rng, s.n, s.d, 0)
		for _, k := range []Kernel{Gaussian{Sigma: 0.8}, Laplace{Sigma: 1.3}, intersection{}} {
			if s.n > 1000 && k.Name() == "intersection" {
				continue // the pair loop is enough for the package's kernels at this size
			}
			got := mat.NewDense(s.m, s.n, nil)
			next, calls := 0, 0
			err := CrossBlocks(k, X, Z, func(lo, hi int, block *mat.Dense) {
				if lo != next || hi <= lo || hi > s.m {
					t.Fatalf("%s: block [%d, %d) after %d", k.Name(), lo, hi, next)
				}
				if r, c := block.Dims(); r != hi-lo || c != s.n {
					t.Fatalf("%s: block [%d, %d) is %d×%d", k.Name(), lo, hi, r, c)
				}
				got.Slice(lo, hi, 0, s.n).(*mat.Dense).Copy(block)
				next, calls = hi, calls+1
			})
			if err != nil || next != s.m || calls != s.blocks {
				t.Fatalf("%s: %d×%d: %d blocks up to row %d (%v), want %d up to %d", k.Name(), s.m, s.n, calls, next, err, s.blocks, s.m)
			}
			checkCross(t, k, X, Z, got)
		}
	}
}

func TestCrossBlocksErrors(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{0, 1, 2, 3})
	use := func(int, int, *mat.Dense) { t.Error("use called on bad input") }
	for name, err := range map[string]error{
		"nil use":       CrossBlocks(Gaussian{Sigma: 1}, X, X, nil),
		"nil X":         CrossBlocks(Gaussian{Sigma: 1}, nil, X, use),
		"empty Z":       CrossBlocks(Gaussian{Sigma: 1}, X, &mat.Dense{}, use),
		"bad kernel":    CrossBlocks(Gaussian{}, X, X, use),
		"other columns": CrossBlocks(Gaussian{Sigma: 1}, X, mat.NewDense(1, 3, nil), use),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	err := CrossBlocks(Gaussian{Sigma: 1}, X, mat.NewDense(1, 3, nil), use)
	if !errors.Is(err, ErrShape) || err.Error() != "kernel: CrossInto: X has 2 columns but Z has 3" {
		t.Errorf("other columns: %v", err)
	}
}
