package run

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects the tasks one machine runs when a plan is split over a cluster: task j of the plan
// belongs to the shard with Index == j mod Count. The zero value (and Count 1) means every task.
type Shard struct{ Index, Count int }

// ParseShard reads "i/N" with 0 <= i < N, the form a cluster scheduler passes to each job.
// The empty string means no sharding (the zero Shard).
func ParseShard(s string) (Shard, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("run: shard %q: want i/N, e.g. 0/4", s)
	}
	i, err := strconv.Atoi(strings.TrimSpace(is))
	if err != nil {
		return Shard{}, fmt.Errorf("run: shard %q: index %q is not an integer", s, is)
	}
	n, err := strconv.Atoi(strings.TrimSpace(ns))
	if err != nil {
		return Shard{}, fmt.Errorf("run: shard %q: count %q is not an integer", s, ns)
	}
	if n < 1 {
		return Shard{}, fmt.Errorf("run: shard %q: count must be at least 1", s)
	}
	sh := Shard{Index: i, Count: n}
	if err := sh.validate(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

// String writes the shard as "i/N", or "all" for the zero Shard, for logs and provenance files.
func (s Shard) String() string {
	if s.Count == 0 {
		return "all"
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}

func (s Shard) validate() error {
	if s.Count == 0 && s.Index == 0 {
		return nil
	}
	if s.Count < 1 {
		return fmt.Errorf("run: shard %d/%d: count must be at least 1", s.Index, s.Count)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("run: shard %d/%d: index must be in [0, %d)", s.Index, s.Count, s.Count)
	}
	return nil
}

// whole reports whether the shard covers the whole plan.
func (s Shard) whole() bool { return s.Count <= 1 }

// owns reports whether task j of the plan belongs to the shard.
func (s Shard) owns(j int) bool { return s.whole() || j%s.Count == s.Index }

// Owned is the number of the n tasks of a plan that belong to the shard.
func (s Shard) Owned(n int) int {
	if s.whole() {
		return n
	}
	return max(0, (n-s.Index+s.Count-1)/s.Count)
}
