// Package parallel runs the lab's CPU-bound loops on all cores: a set of tasks fixed by the
// caller (row blocks, clusters) is handed out in increasing order to min(tasks, GOMAXPROCS)
// goroutines. Since the tasks do not depend on the number of goroutines, neither do the results,
// as the lab's conventions require; a worker index lets each goroutine keep its own buffers.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns the number of goroutines For uses for n tasks: min(n, GOMAXPROCS), at least 1.
// Worker indices passed to the bodies are below it.
func Workers(n int) int { return max(1, min(n, runtime.GOMAXPROCS(0))) }

// For runs body(worker, i) for every task i in [0, n), on Workers(n) goroutines that take the
// tasks in increasing order, and returns when all are done. With one worker it runs them in
// order on the calling goroutine.
func For(n int, body func(worker, i int)) {
	workers := Workers(n)
	if workers == 1 {
		for i := range n {
			body(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				body(w, i)
			}
		})
	}
	wg.Wait()
}

// Blocks splits the rows [0, n) into blocks of size rows (the last one shorter) and runs
// body(worker, lo, hi) for each block [lo, hi) as For does. It returns the error of the first
// failing block in row order, or nil.
func Blocks(n, size int, body func(worker, lo, hi int) error) error {
	blocks := BlockCount(n, size)
	errs := make([]error, blocks)
	For(blocks, func(worker, b int) {
		lo := b * size
		errs[b] = body(worker, lo, min(n, lo+size))
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// BlockCount returns the number of blocks of size rows that cover n rows: ⌈n/size⌉.
func BlockCount(n, size int) int { return (n + size - 1) / size }
