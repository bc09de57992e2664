//go:build !amd64 || purego

package pursuit

// screenKernelAvailable is false: the 8-bit kernel is written for amd64 only, so dictionaries
// are searched in double precision here.
const screenKernelAvailable = false

// dotsInt8 is never called when screenKernelAvailable is false.
func dotsInt8(q []int8, stride, rows int, r []float32, out []float32) {
	panic("pursuit: dotsInt8 called without the 8-bit kernel")
}
