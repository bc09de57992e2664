//go:build unix

package kittest

import "syscall"

// CPUSeconds returns the user and system CPU time of this process so far, every thread and cgo
// call (OpenBLAS) included, for the benchmarks' CPU time per operation, which other processes on a
// busy machine inflate much less than the wall time; −1 when it cannot be read.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
