//go:build !purego

#include "textflag.h"

// EXP8 overwrites the eight doubles in Z0 with their exponentials (registers as loaded by
// expAVX512 below; scratch Z1-Z6). Steps: clamp x to [-746, 710] (x as the second source of
// VMAXPD/VMINPD so that NaN passes through); z = x·N/ln2; adding 1.5·2⁵² leaves k = round(z) in
// the low mantissa bits (VPERMPD reads the low 3 bits as the table index); kd = k as a double;
// r = x - kd·ln2hi/N - kd·ln2lo/N; e = floor(kd/N); T and tail = 2^((k mod N)/N) and its relative
// rounding error; q = Horner of the Taylor coefficients c8..c1; tmp = q·r + tail;
// y = T·tmp + T; result = y·2^e by VSCALEFPD, which rounds once and gives 0, subnormals and +Inf
// where due.
#define EXP8 \
	VMAXPD      Z0, Z16, Z0; \
	VMINPD      Z0, Z17, Z0; \
	VMULPD      Z18, Z0, Z1; \
	VADDPD      Z19, Z1, Z1; \
	VSUBPD      Z19, Z1, Z2; \
	VFMADD231PD Z20, Z2, Z0; \
	VFMADD231PD Z21, Z2, Z0; \
	VMULPD      Z22, Z2, Z3; \
	VRNDSCALEPD $1, Z3, Z3; \
	VPERMPD     Z31, Z1, Z4; \
	VPERMPD     Z14, Z1, Z5; \
	VMOVAPD     Z23, Z6; \
	VFMADD213PD Z24, Z0, Z6; \
	VFMADD213PD Z25, Z0, Z6; \
	VFMADD213PD Z26, Z0, Z6; \
	VFMADD213PD Z27, Z0, Z6; \
	VFMADD213PD Z28, Z0, Z6; \
	VFMADD213PD Z29, Z0, Z6; \
	VFMADD213PD Z30, Z0, Z6; \
	VFMADD213PD Z5, Z0, Z6; \
	VFMADD213PD Z4, Z4, Z6; \
	VSCALEFPD   Z3, Z6, Z0

// LOADCONSTANTS broadcasts the expSIMDConstants at R8 into the registers EXP8 reads.
#define LOADCONSTANTS \
	VBROADCASTSD 0(R8), Z16; \
	VBROADCASTSD 8(R8), Z17; \
	VBROADCASTSD 16(R8), Z18; \
	VBROADCASTSD 24(R8), Z19; \
	VBROADCASTSD 32(R8), Z20; \
	VBROADCASTSD 40(R8), Z21; \
	VBROADCASTSD 48(R8), Z22; \
	VBROADCASTSD 56(R8), Z23; \
	VBROADCASTSD 64(R8), Z24; \
	VBROADCASTSD 72(R8), Z25; \
	VBROADCASTSD 80(R8), Z26; \
	VBROADCASTSD 88(R8), Z27; \
	VBROADCASTSD 96(R8), Z28; \
	VBROADCASTSD 104(R8), Z29; \
	VBROADCASTSD 112(R8), Z30; \
	VMOVUPD 120(R8), Z31; \
	VMOVUPD 184(R8), Z14

// TAILMASK sets K1 to the low CX bits (0 < CX < 8).
#define TAILMASK \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVW AX, K1

// func expAVX512(dst, src *float64, n int, c *expSIMDConstants)
TEXT ·expAVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ c+24(FP), R8
	LOADCONSTANTS

expLoop:
	CMPQ CX, $8
	JLT  expRest
	VMOVUPD (SI), Z0
	EXP8
	VMOVUPD Z0, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JMP  expLoop

expRest:
	TESTQ CX, CX
	JEQ   expDone
	TAILMASK
	VMOVUPD.Z (SI), K1, Z0
	EXP8
	VMOVUPD Z0, K1, (DI)

expDone:
	VZEROUPPER
	RET

// GAUSSARG turns the inner products <x, z_j> in Z0 and the norms ||z_j||² in Z1 into the
// exponents -γ·max(0, (||x||² + ||z_j||²) - 2<x, z_j>) (Z7 = ||x||², Z8 = -γ, Z9 = 0), the same
// operations in the same order as the Go code.
#define GAUSSARG \
	VADDPD Z0, Z0, Z0; \
	VADDPD Z7, Z1, Z1; \
	VSUBPD Z0, Z1, Z0; \
	VMAXPD Z0, Z9, Z0; \
	VMULPD Z8, Z0, Z0

// func gaussianAVX512(dst, zNorms *float64, n int, xNorm, negGamma float64, c *expSIMDConstants)
TEXT ·gaussianAVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ zNorms+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD xNorm+24(FP), Z7
	VBROADCASTSD negGamma+32(FP), Z8
	MOVQ c+40(FP), R8
	VXORPD Z9, Z9, Z9
	LOADCONSTANTS

gaussLoop:
	CMPQ CX, $8
	JLT  gaussRest
	VMOVUPD (DI), Z0
	VMOVUPD (SI), Z1
	GAUSSARG
	EXP8
	VMOVUPD Z0, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JMP  gaussLoop

gaussRest:
	TESTQ CX, CX
	JEQ   gaussDone
	TAILMASK
	VMOVUPD.Z (DI), K1, Z0
	VMOVUPD.Z (SI), K1, Z1
	GAUSSARG
	EXP8
	VMOVUPD Z0, K1, (DI)

gaussDone:
	VZEROUPPER
	RET
