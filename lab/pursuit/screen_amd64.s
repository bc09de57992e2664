//go:build amd64 && !purego

#include "textflag.h"

// HSUM reduces the eight lanes of Y register a (X register xa) into its lowest lane, using xt
// as scratch: lanes l and l+4, then l and l+2, then l and l+1.
#define HSUM(a, xa, xt) \
	VEXTRACTF128 $1, a, xt \
	VADDPS       xt, xa, xa \
	VMOVHLPS     xa, xa, xt \
	VADDPS       xt, xa, xa \
	VMOVSHDUP    xa, xt     \
	VADDSS       xt, xa, xa

// ROW accumulates sixteen products of row ptr (bytes at offset AX) with the residual in Y8
// (first eight) and Y9 (next eight) into the accumulators lo and hi, using t0 and t1.
#define ROW(ptr, t0, t1, lo, hi) \
	VPMOVSXBD   (ptr)(AX*1), t0  \
	VPMOVSXBD   8(ptr)(AX*1), t1 \
	VCVTDQ2PS   t0, t0           \
	VCVTDQ2PS   t1, t1           \
	VFMADD231PS Y8, t0, lo       \
	VFMADD231PS Y9, t1, hi

// func dotsInt8AVX2(q *int8, stride, rows int, r *float32, blocks int, out *float32)
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), SI
	MOVQ stride+8(FP), BX  // bytes per row
	MOVQ rows+16(FP), CX
	SHRQ $2, CX            // groups of four rows
	JZ   done
	MOVQ r+24(FP), DI
	MOVQ blocks+32(FP), R8
	MOVQ out+40(FP), DX

group:
	LEAQ   (SI)(BX*1), R9
	LEAQ   (SI)(BX*2), R10
	LEAQ   (R9)(BX*2), R11
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ   AX, AX          // byte offset in the rows
	MOVQ   DI, R12         // residual pointer
	MOVQ   R8, R13         // blocks of sixteen left
	TESTQ  R13, R13
	JZ     reduce

block:
	VMOVUPS (R12), Y8
	VMOVUPS 32(R12), Y9
	ROW(SI, Y10, Y11, Y0, Y1)
	ROW(R9, Y12, Y13, Y2, Y3)
	ROW(R10, Y10, Y11, Y4, Y5)
	ROW(R11, Y12, Y13, Y6, Y7)
	ADDQ    $16, AX
	ADDQ    $64, R12
	DECQ    R13
	JNZ     block

reduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y5, Y4, Y4
	VADDPS Y7, Y6, Y6
	HSUM(Y0, X0, X8)
	HSUM(Y2, X2, X9)
	HSUM(Y4, X4, X10)
	HSUM(Y6, X6, X11)
	VMOVSS X0, (DX)
	VMOVSS X2, 4(DX)
	VMOVSS X4, 8(DX)
	VMOVSS X6, 12(DX)
	LEAQ   (SI)(BX*4), SI
	ADDQ   $16, DX
	DECQ   CX
	JNZ    group
	VZEROUPPER

done:
	RET
