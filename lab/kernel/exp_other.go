//go:build !amd64 || purego

package kernel

// expVector reports false: there is no vector exp for this architecture or build.
func expVector(dst, src []float64) bool { return false }

// gaussianVector reports false: there is no vector Gaussian kernel for this architecture or build.
func gaussianVector(dst, zNorms []float64, xNorm, gamma float64) bool { return false }
