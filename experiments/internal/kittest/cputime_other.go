//go:build !unix

package kittest

// CPUSeconds returns −1: the process CPU time is read on unix systems only.
func CPUSeconds() float64 { return -1 }
