// Package fuzzinput turns a fuzzer's bytes into the small matrices and vectors that the numeric
// fuzz targets (kernel.FuzzGram, leverage.FuzzExact, mmd.FuzzMMD2, pursuit.FuzzOMP) feed to the
// library, so that every float64 — NaN, ±Inf, subnormal, huge — can reach it.
package fuzzinput

import (
	"encoding/binary"
	"math"

	"gonum.org/v1/gonum/mat"
)

// MaxSide bounds the rows and columns of a fuzzed matrix, so that each input runs in
// microseconds.
const MaxSide = 12

// Floats returns count float64 values read from data, 8 bytes each (little-endian IEEE 754 bits),
// cycling over data when it is short (zeros when it is empty).
func Floats(data []byte, count int) []float64 {
	out := make([]float64, count)
	if len(data) == 0 {
		return out
	}
	var buf [8]byte
	for i := range out {
		for b := range buf {
			buf[b] = data[(8*i+b)%len(data)]
		}
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(buf[:]))
	}
	return out
}

// Side maps a fuzzed byte to a side length in 1..MaxSide.
func Side(b uint8) int { return 1 + int(b)%MaxSide }

// Matrix returns the rows×cols matrix (sides from Side) of the values Floats reads from data.
func Matrix(rows, cols uint8, data []byte) *mat.Dense {
	r, c := Side(rows), Side(cols)
	return mat.NewDense(r, c, Floats(data, r*c))
}

// Bytes encodes values as Floats reads them, to write seed inputs.
func Bytes(values ...float64) []byte {
	out := make([]byte, 8*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint64(out[8*i:], math.Float64bits(v))
	}
	return out
}

// Finite reports whether every value is neither NaN nor ±Inf.
func Finite(values []float64) bool {
	for _, v := range values {
		if v-v != 0 {
			return false
		}
	}
	return true
}
