//go:build !unix

package pursuit

// processCPUSeconds is unavailable here: the benchmarks skip their CPU-time metric.
func processCPUSeconds() float64 { return -1 }
