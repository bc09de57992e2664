package format

import (
	"fmt"
	"image"
)

// libjpeg's YCbCr->RGB tables (jdcolor.c, build_ycc_rgb_table): 16-bit fixed point,
// FIX(x) = int(x*65536 + 0.5), ONE_HALF = 1<<15.
var ycc = func() (t struct{ crR, cbB, crG, cbG [256]int32 }) {
	const scaleBits, oneHalf = 16, 1 << 15
	fix := func(x float64) int32 { return int32(x*(1<<scaleBits) + 0.5) }
	for i := 0; i < 256; i++ {
		x := int32(i - 128)
		t.crR[i] = (fix(1.40200)*x + oneHalf) >> scaleBits
		t.cbB[i] = (fix(1.77200)*x + oneHalf) >> scaleBits
		t.crG[i] = -fix(0.71414) * x
		t.cbG[i] = -fix(0.34414)*x + oneHalf
	}
	return t
}()

func clamp255(v int32) uint8 {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint8(v)
}

// chromaAt returns the full-resolution chroma sample at image pixel (x, y) (relative to the
// image's top left) the way libjpeg-turbo's default fancy upsampling computes it (jdsample.c:
// h2v1_fancy_upsample, h2v2_fancy_upsample, h1v2_fancy_upsample: triangular weights 3/4, 1/4
// per doubled axis, edges replicated, with its alternating rounding biases). p is the
// subsampled plane (cw x ch samples, row stride).
func chromaAt(p []byte, stride, cw, ch int, sub image.YCbCrSubsampleRatio, x, y int) int32 {
	at := func(i, j int) int32 { // row i, column j, edge-replicated
		if i < 0 {
			i = 0
		} else if i >= ch {
			i = ch - 1
		}
		if j < 0 {
			j = 0
		} else if j >= cw {
			j = cw - 1
		}
		return int32(p[i*stride+j])
	}
	switch sub {
	case image.YCbCrSubsampleRatio444:
		return at(y, x)
	case image.YCbCrSubsampleRatio422: // h2v1
		j, odd := x/2, x%2 == 1
		if odd {
			return (3*at(y, j) + at(y, j+1) + 2) >> 2
		}
		return (3*at(y, j) + at(y, j-1) + 1) >> 2
	case image.YCbCrSubsampleRatio440: // h1v2
		i := y / 2
		if y%2 == 1 {
			return (3*at(i, x) + at(i+1, x) + 2) >> 2
		}
		return (3*at(i, x) + at(i-1, x) + 1) >> 2
	default: // 4:2:0, h2v2
		i, j := y/2, x/2
		n := i - 1 // nearer other row: above for even output rows, below for odd ones
		if y%2 == 1 {
			n = i + 1
		}
		colsum := func(j int) int32 { return 3*at(i, j) + at(n, j) }
		if x%2 == 1 {
			return (3*colsum(j) + colsum(j+1) + 7) >> 4
		}
		return (3*colsum(j) + colsum(j-1) + 8) >> 4
	}
}

// LibjpegRGB converts the part r of a decoded JPEG (Go's image/jpeg result) to interleaved 8-bit
// RGB (r.Dx()*r.Dy()*3 bytes, row-major) as libjpeg-turbo does with its default settings,
// which is what Pillow's Image.open(...).convert("RGB") of a colour JPEG gives: chroma is
// upsampled with libjpeg's "fancy" triangular filter (Go's own conversion takes the nearest
// chroma sample) and converted with libjpeg's integer tables (Go's color.YCbCrToRGB rounds
// differently). Gray JPEGs are replicated to three channels. On planes decoded by
// [DecodeJPEGLibjpeg] the result is libjpeg's bit for bit; on those of Go's image/jpeg, whose IDCT
// rounds unlike libjpeg's default "islow" one, samples can differ by a level or two.
// Subsampling 4:1:1 and 4:1:0 are not supported.
func LibjpegRGB(img image.Image, r image.Rectangle) ([]byte, error) {
	if err := missing("LibjpegRGB", "the image", img); err != nil {
		return nil, err
	}
	if !r.In(img.Bounds()) {
		return nil, fmt.Errorf("format: LibjpegRGB: region %v is outside the image %v", r, img.Bounds())
	}
	out := make([]byte, 0, r.Dx()*r.Dy()*3)
	switch m := img.(type) {
	case *image.YCbCr:
		switch m.SubsampleRatio {
		case image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440:
		default:
			return nil, fmt.Errorf("format: LibjpegRGB: chroma subsampling %v is not supported", m.SubsampleRatio)
		}
		b := m.Rect
		// Chroma plane size as Go lays it out; for an image at the origin it is
		// ceil(w/h factor) x ceil(h/v factor), libjpeg's downsampled_width/height.
		last := m.COffset(b.Max.X-1, b.Max.Y-1) - m.COffset(b.Min.X, b.Min.Y)
		cw, ch := last%m.CStride+1, last/m.CStride+1
		c0 := m.COffset(b.Min.X, b.Min.Y)
		cb, crp := m.Cb[c0:], m.Cr[c0:]
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				yy := int32(m.Y[m.YOffset(x, y)])
				u := chromaAt(cb, m.CStride, cw, ch, m.SubsampleRatio, x-b.Min.X, y-b.Min.Y)
				v := chromaAt(crp, m.CStride, cw, ch, m.SubsampleRatio, x-b.Min.X, y-b.Min.Y)
				out = append(out, clamp255(yy+ycc.crR[v]), clamp255(yy+((ycc.cbG[u]+ycc.crG[v])>>16)), clamp255(yy+ycc.cbB[u]))
			}
		}
	case *image.Gray:
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				g := m.Pix[m.PixOffset(x, y)]
				out = append(out, g, g, g)
			}
		}
	default:
		return nil, fmt.Errorf("format: LibjpegRGB: image type %T is not supported", img)
	}
	return out, nil
}
