//go:build amd64 && !purego

package pursuit

import "golang.org/x/sys/cpu"

// screenKernelAvailable reports whether the 8-bit correlation kernel runs here: it needs AVX2
// and FMA, which golang.org/x/sys/cpu reports only when the operating system saves the YMM
// registers.
var screenKernelAvailable = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotsInt8AVX2 sets out[j] = Σ_i float32(q[j·stride+i])·r[i] for j < rows (a multiple of 4)
// and i < 16·blocks (= stride), in single precision: per row, sixteen lanes accumulate with
// FMA (lane l takes the indices ≡ l mod 16), then lanes l and l+8, l and l+4, l and l+2, l and
// l+1 are added in turn.
//
//go:noescape
func dotsInt8AVX2(q *int8, stride, rows int, r *float32, blocks int, out *float32)

// dotsInt8 computes the approximate correlations of rows 8-bit atoms (a multiple of 4, each
// stride values long, stride a multiple of 16) with r (length ≥ stride) into out.
func dotsInt8(q []int8, stride, rows int, r []float32, out []float32) {
	if rows == 0 {
		return
	}
	_ = q[rows*stride-1]
	_ = r[stride-1]
	_ = out[rows-1]
	dotsInt8AVX2(&q[0], stride, rows, &r[0], stride/16, &out[0])
}
