// Package memlimit checks, before a large allocation, that the memory it needs is below a limit,
// so that a huge size given by mistake (1<<40 landmarks, a graph node numbered 200000) returns an
// error that names the size instead of killing the process: Go's "fatal error: out of memory"
// cannot be recovered, and a notebook would lose its kernel.
//
// The limit is Limit bytes (64 GiB, twice the memory of the largest machine the lab's paper
// scale needs), or the value of the environment variable LAB_MEMLIMIT_BYTES when it is a positive
// integer: raise it on a bigger machine. One request is checked at a time, so several requests
// below the limit together may still exceed the machine's memory; the check only catches sizes
// that cannot possibly be meant.
package memlimit

import (
	"fmt"
	"math"
	"math/bits"
	"os"
	"strconv"
)

// DefaultLimit is the default largest single request, in bytes (64 GiB).
const DefaultLimit int64 = 1 << 36

// Limit returns the largest request Check accepts, in bytes: LAB_MEMLIMIT_BYTES when it is set to
// a positive integer, else [DefaultLimit].
func Limit() int64 {
	if s := os.Getenv("LAB_MEMLIMIT_BYTES"); s != "" {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
			return v
		}
	}
	return DefaultLimit
}

// Check returns an error, prefixed by op, when elemBytes × Π counts bytes (what) exceeds Limit or
// overflows, or when a count is negative; nil otherwise. what describes the allocation in words
// ("the 1099511627776×274877906944 landmark matrix").
func Check(op, what string, elemBytes int, counts ...int) error {
	total := uint64(elemBytes)
	overflow := elemBytes < 0
	for _, c := range counts {
		if c < 0 {
			return fmt.Errorf("%s: %s: negative size %d", op, what, c)
		}
		hi, lo := bits.Mul64(total, uint64(c))
		if hi != 0 {
			overflow = true
		}
		total = lo
	}
	limit := Limit()
	if overflow || total > uint64(limit) || total > math.MaxInt64 {
		size := "more than 2⁶⁴ bytes"
		if !overflow {
			size = Bytes(total)
		}
		return fmt.Errorf("%s: %s would need %s, above the %s limit of one allocation (memlimit; raise it with LAB_MEMLIMIT_BYTES)",
			op, what, size, Bytes(uint64(limit)))
	}
	return nil
}

// Bytes formats a byte count in binary units ("64 GiB", "1.5 TiB").
func Bytes(b uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(b)
	u := 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + units[u]
}
