package parallel

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

func TestForRunsEachTaskOnce(t *testing.T) {
	for _, procs := range []int{1, 3} {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		for _, n := range []int{0, 1, 2, 17} {
			counts := make([]atomic.Int32, n)
			var badWorker atomic.Bool
			For(n, func(worker, i int) {
				if worker < 0 || worker >= Workers(n) {
					badWorker.Store(true)
				}
				counts[i].Add(1)
			})
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("GOMAXPROCS %d, n = %d: task %d ran %d times", procs, n, i, c)
				}
			}
			if badWorker.Load() {
				t.Errorf("GOMAXPROCS %d, n = %d: worker index outside [0, %d)", procs, n, Workers(n))
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for n, want := range map[int]int{0: 1, 1: 1, 3: 3, 4: 4, 100: 4} {
		if got := Workers(n); got != want {
			t.Errorf("Workers(%d) = %d with GOMAXPROCS 4, want %d", n, got, want)
		}
	}
}

func TestBlocks(t *testing.T) {
	// 10 rows in blocks of 4: [0,4) [4,8) [8,10).
	var got [3]string
	err := Blocks(10, 4, func(_, lo, hi int) error {
		got[lo/4] = fmt.Sprintf("[%d,%d)", lo, hi)
		return nil
	})
	if err != nil || got != [3]string{"[0,4)", "[4,8)", "[8,10)"} {
		t.Fatalf("blocks %v, error %v; want [0,4) [4,8) [8,10) and no error", got, err)
	}
	if BlockCount(10, 4) != 3 || BlockCount(8, 4) != 2 || BlockCount(0, 4) != 0 {
		t.Errorf("BlockCount(10|8|0, 4) = %d, %d, %d; want 3, 2, 0", BlockCount(10, 4), BlockCount(8, 4), BlockCount(0, 4))
	}
	// The error of the first failing block in row order, whichever finishes first.
	first, second := errors.New("block 1"), errors.New("block 2")
	err = Blocks(10, 4, func(_, lo, _ int) error {
		switch lo {
		case 4:
			return first
		case 8:
			return second
		}
		return nil
	})
	if err != first {
		t.Errorf("error %v, want %v", err, first)
	}
}
