package leverage

import "sync"

// orderedSum adds per-task contributions into one total in task order 0, 1, 2, …, whichever
// goroutine finishes first, so that floating-point sums do not depend on scheduling. It relies on
// parallel.For handing tasks out in increasing order: a task waits only for earlier tasks, whose
// goroutines never wait for it.
type orderedSum struct {
	mu    sync.Mutex
	cond  sync.Cond
	next  int
	total []float64
}

func newOrderedSum(size int) *orderedSum {
	s := &orderedSum{total: make([]float64, size)}
	s.cond.L = &s.mu
	return s
}

// add waits for the turn of task t, adds part (nil for a task that contributes nothing) into the
// total and passes the turn on.
func (s *orderedSum) add(t int, part []float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.next != t {
		s.cond.Wait()
	}
	for i, v := range part {
		s.total[i] += v
	}
	s.next++
	s.cond.Broadcast()
}
