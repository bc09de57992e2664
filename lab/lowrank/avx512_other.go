//go:build !amd64 || purego

package lowrank

// hasTrigVector is false: there is no vector cosine for this architecture or build.
const hasTrigVector = false

// cosVector handles nothing here (see avx512_amd64.go).
func cosVector(v, shift []float64, scale float64) int { return 0 }

// sinCosVector handles nothing here (see avx512_amd64.go).
func sinCosVector(v, sinOut []float64, scale float64) int { return 0 }

// rotateRows applies the plane rotation (c, s) to the rows a and b (see rotateRowsScalar).
func rotateRows(a, b []float64, c, s float64) { rotateRowsScalar(a, b, c, s) }
