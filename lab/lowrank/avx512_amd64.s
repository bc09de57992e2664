//go:build !purego

#include "textflag.h"

// Registers loaded by LOADTRIG from the trigSIMDConstants at R8 (byte offsets: invPi 0,
// roundShift 8, piHi 16, piMid 24, piLo 32, fastMax 40, absMask 48, cos 56..136, sin 144..224).
#define LOADTRIG \
	VBROADCASTSD 0(R8), Z16; \
	VBROADCASTSD 8(R8), Z17; \
	VBROADCASTSD 16(R8), Z18; \
	VBROADCASTSD 24(R8), Z19; \
	VBROADCASTSD 32(R8), Z20; \
	VBROADCASTSD 40(R8), Z21; \
	VPBROADCASTQ 48(R8), Z22

// REDUCE turns the arguments in Z0 into r = x − kπ (in Z0), k = round(x/π), and the sign
// (−1)^k as a bit mask in Z3; z = r² in Z4. As reducePi in cos.go, with the multiply-adds fused.
#define REDUCE \
	VMOVAPD      Z17, Z1; \
	VFMADD231PD  Z16, Z0, Z1; \
	VPSLLQ       $63, Z1, Z3; \
	VSUBPD       Z17, Z1, Z2; \
	VFNMADD231PD Z18, Z2, Z0; \
	VFNMADD231PD Z19, Z2, Z0; \
	VFNMADD231PD Z20, Z2, Z0; \
	VMULPD       Z0, Z0, Z4

// POLY evaluates, by Horner's scheme in z = Z4, the 11 coefficients at off(R8) into reg.
#define POLY(off, reg) \
	VBROADCASTSD off+0(R8), reg; \
	VFMADD213PD.BCST off+8(R8), Z4, reg; \
	VFMADD213PD.BCST off+16(R8), Z4, reg; \
	VFMADD213PD.BCST off+24(R8), Z4, reg; \
	VFMADD213PD.BCST off+32(R8), Z4, reg; \
	VFMADD213PD.BCST off+40(R8), Z4, reg; \
	VFMADD213PD.BCST off+48(R8), Z4, reg; \
	VFMADD213PD.BCST off+56(R8), Z4, reg; \
	VFMADD213PD.BCST off+64(R8), Z4, reg; \
	VFMADD213PD.BCST off+72(R8), Z4, reg; \
	VFMADD213PD.BCST off+80(R8), Z4, reg

// TAILMASK sets K1 and AX to the low CX bits (0 < CX < 8).
#define TAILMASK \
	MOVQ  $1, AX; \
	SHLQ  CX, AX; \
	DECQ  AX; \
	KMOVW AX, K1

// func cosShiftScaleAVX512(v, shift *float64, n int, scale float64, c *trigSIMDConstants) (done int)
TEXT ·cosShiftScaleAVX512(SB), NOSPLIT, $0-48
	MOVQ v+0(FP), DI
	MOVQ shift+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD scale+24(FP), Z23
	MOVQ c+32(FP), R8
	LOADTRIG
	XORQ R9, R9

cosLoop:
	CMPQ CX, $8
	JLT  cosRest
	VMOVUPD (DI), Z0
	VADDPD  (SI), Z0, Z0
	// Stop before a group with an argument beyond fastMax or NaN (the compare is false for NaN).
	VPANDQ  Z22, Z0, Z1
	VCMPPD  $0x12, Z21, Z1, K2
	KMOVW   K2, BX
	CMPQ    BX, $0xff
	JNE     cosDone
	REDUCE
	POLY(56, Z5)
	VPXORQ  Z3, Z5, Z5
	VMULPD  Z23, Z5, Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $8, R9
	SUBQ    $8, CX
	JMP     cosLoop

cosRest:
	TESTQ CX, CX
	JEQ   cosDone
	TAILMASK
	VMOVUPD.Z (DI), K1, Z0
	VMOVUPD.Z (SI), K1, Z6
	VADDPD    Z6, Z0, Z0
	VPANDQ    Z22, Z0, Z1
	VCMPPD    $0x12, Z21, Z1, K1, K2
	KMOVW     K2, BX
	CMPQ      BX, AX
	JNE       cosDone
	REDUCE
	POLY(56, Z5)
	VPXORQ    Z3, Z5, Z5
	VMULPD    Z23, Z5, Z0
	VMOVUPD   Z0, K1, (DI)
	ADDQ      CX, R9

cosDone:
	MOVQ R9, done+40(FP)
	VZEROUPPER
	RET

// SINCOS8 overwrites Z0 (the arguments) with scale·cos and Z6 with scale·sin.
#define SINCOS8 \
	REDUCE; \
	POLY(56, Z5); \
	POLY(144, Z6); \
	VMULPD Z0, Z6, Z6; \
	VPXORQ Z3, Z5, Z5; \
	VPXORQ Z3, Z6, Z6; \
	VMULPD Z23, Z5, Z0; \
	VMULPD Z23, Z6, Z6

// func sinCosScaleAVX512(v, sinOut *float64, n int, scale float64, c *trigSIMDConstants) (done int)
TEXT ·sinCosScaleAVX512(SB), NOSPLIT, $0-48
	MOVQ v+0(FP), DI
	MOVQ sinOut+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD scale+24(FP), Z23
	MOVQ c+32(FP), R8
	LOADTRIG
	XORQ R9, R9

sinCosLoop:
	CMPQ CX, $8
	JLT  sinCosRest
	VMOVUPD (DI), Z0
	VPANDQ  Z22, Z0, Z1
	VCMPPD  $0x12, Z21, Z1, K2
	KMOVW   K2, BX
	CMPQ    BX, $0xff
	JNE     sinCosDone
	SINCOS8
	VMOVUPD Z0, (DI)
	VMOVUPD Z6, (SI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $8, R9
	SUBQ    $8, CX
	JMP     sinCosLoop

sinCosRest:
	TESTQ CX, CX
	JEQ   sinCosDone
	TAILMASK
	VMOVUPD.Z (DI), K1, Z0
	VPANDQ    Z22, Z0, Z1
	VCMPPD    $0x12, Z21, Z1, K1, K2
	KMOVW     K2, BX
	CMPQ      BX, AX
	JNE       sinCosDone
	SINCOS8
	VMOVUPD   Z0, K1, (DI)
	VMOVUPD   Z6, K1, (SI)
	ADDQ      CX, R9

sinCosDone:
	MOVQ R9, done+40(FP)
	VZEROUPPER
	RET

// func rotateRowsAVX512(a, b *float64, n int, c, s float64)
TEXT ·rotateRowsAVX512(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD c+24(FP), Z16
	VBROADCASTSD s+32(FP), Z17

rotLoop:
	CMPQ CX, $8
	JLT  rotRest
	VMOVUPD      (DI), Z0
	VMOVUPD      (SI), Z1
	VMULPD       Z16, Z0, Z2
	VMULPD       Z17, Z0, Z3
	VFNMADD231PD Z17, Z1, Z2
	VFMADD231PD  Z16, Z1, Z3
	VMOVUPD      Z2, (DI)
	VMOVUPD      Z3, (SI)
	ADDQ         $64, DI
	ADDQ         $64, SI
	SUBQ         $8, CX
	JMP          rotLoop

rotRest:
	TESTQ CX, CX
	JEQ   rotDone
	TAILMASK
	VMOVUPD.Z    (DI), K1, Z0
	VMOVUPD.Z    (SI), K1, Z1
	VMULPD       Z16, Z0, Z2
	VMULPD       Z17, Z0, Z3
	VFNMADD231PD Z17, Z1, Z2
	VFMADD231PD  Z16, Z1, Z3
	VMOVUPD      Z2, K1, (DI)
	VMOVUPD      Z3, K1, (SI)

rotDone:
	VZEROUPPER
	RET
