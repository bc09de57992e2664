package format

import (
	"fmt"
	"math"
)

// This file reimplements two pieces of C image code bit for bit, because the lfw_pairs recipe
// must rebuild what Pillow 9.x produced and no Go package reproduces them:
//
//   - ResizeBicubic8: Pillow's separable convolution resampler (src/libImaging/Resample.c,
//     precompute_coeffs, normalize_coeffs_8bpc, ImagingResample{Horizontal,Vertical}_8bpc,
//     ImagingResampleInner) with its BICUBIC filter (a = -0.5), for 8-bit data: coefficients
//     computed in double, normalised to sum 1, rounded to 22-bit fixed point, accumulated in a
//     32-bit int starting at 2^21, shifted right by 22 and clamped to 0..255; horizontal pass
//     first, then vertical. golang.org/x/image/draw's CatmullRom kernel is the same cubic but
//     uses another support scaling, float arithmetic and rounding, so its results differ.
//   - LibjpegRGB (jpegrgb.go): libjpeg(-turbo)'s default "fancy" chroma upsampling and its
//     integer YCbCr->RGB tables, applied to the planes Go's image/jpeg decodes.

// pillowPrecisionBits is Pillow's PRECISION_BITS for 8-bit resampling (32 - 8 - 2).
const pillowPrecisionBits = 32 - 8 - 2

// pillowBicubic is Pillow's bicubic_filter (support 2). Every product is converted explicitly
// so that the compiler cannot fuse it into an FMA: the C code is built for baseline x86-64,
// which has no FMA, so each operation rounds separately there too.
func pillowBicubic(x float64) float64 {
	const a = -0.5
	if x < 0 {
		x = -x
	}
	if x < 1 {
		return float64(float64(float64(float64((a+2)*x)-(a+3))*x)*x) + 1
	}
	if x < 2 {
		return float64(float64(float64(float64(x-5)*x)+8)*x-4) * a
	}
	return 0
}

// resampleCoeffs holds, per output sample, the first input sample used, how many are used and
// their fixed-point weights (ksize slots each).
type resampleCoeffs struct {
	ksize  int
	first  []int
	count  []int
	weight []int32
}

// pillowBicubicCoeffs is Pillow's precompute_coeffs followed by normalize_coeffs_8bpc for the
// whole input range (box 0..inSize) and the bicubic filter.
func pillowBicubicCoeffs(inSize, outSize int) resampleCoeffs {
	const filterSupport = 2.0
	// (double)(in1 - in0) / outSize with float in0 = 0, in1 = inSize: exact for any image size.
	scale := float64(float32(inSize)) / float64(outSize)
	filterscale := scale
	if filterscale < 1 {
		filterscale = 1
	}
	support := filterSupport * filterscale
	ksize := int(math.Ceil(support))*2 + 1
	c := resampleCoeffs{ksize: ksize, first: make([]int, outSize), count: make([]int, outSize),
		weight: make([]int32, outSize*ksize)}
	pre := make([]float64, ksize)
	for xx := 0; xx < outSize; xx++ {
		center := float64(float64(xx)+0.5) * scale
		ss := 1.0 / filterscale
		xmin := int(center - support + 0.5) // C's (int) truncates toward zero, as Go's int() does
		if xmin < 0 {
			xmin = 0
		}
		xmax := int(center + support + 0.5)
		if xmax > inSize {
			xmax = inSize
		}
		xmax -= xmin
		ww := 0.0
		for x := 0; x < xmax; x++ {
			w := pillowBicubic(float64(float64(x+xmin)-center+0.5) * ss)
			pre[x] = w
			ww += w
		}
		for x := 0; x < ksize; x++ {
			v := 0.0
			if x < xmax {
				v = pre[x]
				if ww != 0 {
					v /= ww
				}
			}
			var k int32
			if v < 0 {
				k = int32(-0.5 + float64(v*(1<<pillowPrecisionBits)))
			} else {
				k = int32(0.5 + float64(v*(1<<pillowPrecisionBits)))
			}
			c.weight[xx*ksize+x] = k
		}
		c.first[xx], c.count[xx] = xmin, xmax
	}
	return c
}

// clip8 is Pillow's clip8: the accumulator shifted right by PRECISION_BITS, clamped to 0..255.
func clip8(ss int32) uint8 { return clamp255(ss >> pillowPrecisionBits) }

// ResizeBicubic8 resizes an 8-bit image of w x h pixels with channels interleaved samples per
// pixel (rows of w*channels bytes, no padding) to outW x outH exactly as Pillow 9.x's
// Image.resize((outW, outH), Image.BICUBIC) does for an 8-bit mode (L, RGB, ...), which is
// also Pillow 9.x's default filter for resize. It returns the result in the same layout.
func ResizeBicubic8(src []byte, w, h, channels, outW, outH int) ([]byte, error) {
	if w <= 0 || h <= 0 || outW <= 0 || outH <= 0 || channels <= 0 {
		return nil, fmt.Errorf("format: ResizeBicubic8: sizes %dx%d -> %dx%d, %d channels must be positive", w, h, outW, outH, channels)
	}
	if len(src) != w*h*channels {
		return nil, fmt.Errorf("format: ResizeBicubic8: %d bytes for %dx%dx%d", len(src), w, h, channels)
	}
	needH, needV := outW != w, outH != h
	vert := pillowBicubicCoeffs(h, outH)
	cur, curW, curH := src, w, h
	rowOffset := 0
	if needH {
		// Only the input rows the vertical pass reads are resampled (ImagingResampleInner's
		// ybox_first..ybox_last); the result is the same as for all rows.
		first := vert.first[0]
		last := vert.first[outH-1] + vert.count[outH-1]
		hor := pillowBicubicCoeffs(w, outW)
		tmp := make([]byte, (last-first)*outW*channels)
		for y := first; y < last; y++ {
			in := src[y*w*channels : (y+1)*w*channels]
			out := tmp[(y-first)*outW*channels : (y-first+1)*outW*channels]
			for xx := 0; xx < outW; xx++ {
				k := hor.weight[xx*hor.ksize : xx*hor.ksize+hor.count[xx]]
				x0 := hor.first[xx]
				for ch := 0; ch < channels; ch++ {
					ss := int32(1 << (pillowPrecisionBits - 1))
					for x, kx := range k {
						ss += int32(in[(x0+x)*channels+ch]) * kx
					}
					out[xx*channels+ch] = clip8(ss)
				}
			}
		}
		cur, curW, curH, rowOffset = tmp, outW, last-first, first
	}
	if !needV {
		if !needH {
			return append([]byte(nil), src...), nil
		}
		return cur, nil
	}
	_ = curH
	dst := make([]byte, outW*outH*channels)
	stride := curW * channels
	for yy := 0; yy < outH; yy++ {
		k := vert.weight[yy*vert.ksize : yy*vert.ksize+vert.count[yy]]
		y0 := vert.first[yy] - rowOffset
		out := dst[yy*stride : (yy+1)*stride]
		for i := range out {
			ss := int32(1 << (pillowPrecisionBits - 1))
			for y, ky := range k {
				ss += int32(cur[(y0+y)*stride+i]) * ky
			}
			out[i] = clip8(ss)
		}
	}
	return dst, nil
}
