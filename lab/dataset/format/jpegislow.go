package format

import (
	"errors"
	"fmt"
	"image"
)

// DecodeJPEGLibjpeg decodes a baseline (sequential Huffman, 8-bit) JPEG the way libjpeg(-turbo)
// does with its default "islow" IDCT (jidctint.c: the Loeffler-Ligtenberg-Moschytz algorithm
// in 13-bit fixed point, 2 extra bits between the passes), so that the planes, and through
// [LibjpegRGB] the RGB pixels, are libjpeg's bit for bit. Go's image/jpeg uses another integer
// IDCT whose rounding differs from libjpeg's by a level now and then, which after Pillow's
// resampling left 4.7% of the lfw_pairs samples off by 1 to 3 levels. Hand-written because no
// Go package offers libjpeg's IDCT; the entropy decoding follows ITU-T T.81 (Annex F, baseline).
//
// It returns an *image.YCbCr (three components with 4:4:4, 4:2:2, 4:2:0 or 4:4:0 sampling) or
// an *image.Gray (one component). Anything else (progressive, arithmetic, 12-bit, lossless,
// CMYK, Adobe RGB, other sampling factors) gives [ErrJPEGUnsupported], on which a caller can fall
// back to image/jpeg.
func DecodeJPEGLibjpeg(data []byte) (image.Image, error) {
	d := &jpegDec{data: data}
	return d.decode()
}

// ErrJPEGUnsupported is returned by [DecodeJPEGLibjpeg] for JPEG variants it does not decode.
var ErrJPEGUnsupported = errors.New("format: JPEG variant not supported by DecodeJPEGLibjpeg")

var errJPEGFormat = errors.New("format: invalid JPEG")

// jpegZigzag[k] is the natural (row-major) index of the k-th coefficient in zigzag order.
var jpegZigzag = [64]int{
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
}

type jpegHuff struct {
	maxcode [18]int32 // largest code of each length, -1 if none; [17] sentinel
	valptr  [17]int32 // index into vals of the first code of each length
	mincode [17]int32
	vals    []byte
	ok      bool
}

func (h *jpegHuff) build(counts [16]byte, vals []byte) error {
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		n := int32(counts[l-1])
		h.valptr[l], h.mincode[l] = k, code
		code += n
		k += n
		if n > 0 {
			h.maxcode[l] = code - 1
		} else {
			h.maxcode[l] = -1
		}
		if code > 1<<l {
			return fmt.Errorf("%w: bad Huffman table", errJPEGFormat)
		}
		code <<= 1
	}
	h.maxcode[17] = 1 << 30
	h.vals, h.ok = vals, true
	return nil
}

type jpegComp struct {
	id, h, v, tq int
	bw, bh       int // blocks per row/column covering the component (MCU-padded)
	w, hgt       int // component size in samples (libjpeg's downsampled_width/height)
	pix          []byte
	stride       int
	td, ta       int
	pred         int32
}

type jpegDec struct {
	data       []byte
	pos        int
	q          [4][64]int32 // zigzag order
	dc, ac     [4]jpegHuff
	comps      []jpegComp
	w, h       int
	hmax, vmax int
	ri         int
	adobe      bool
	adobeXform int
	frameSeen  bool
	bits       uint32
	nbits      int
	hitMarker  bool
	coef       [64]int32
	workspace  [64]int32
}

func (d *jpegDec) u16(p int) int { return int(d.data[p])<<8 | int(d.data[p+1]) }

func (d *jpegDec) decode() (image.Image, error) {
	if len(d.data) < 4 || d.data[0] != 0xFF || d.data[1] != 0xD8 {
		return nil, fmt.Errorf("%w: no SOI marker", errJPEGFormat)
	}
	d.pos = 2
	for {
		// Find the next marker (skip fill bytes).
		for d.pos < len(d.data) && d.data[d.pos] != 0xFF {
			d.pos++
		}
		for d.pos < len(d.data) && d.data[d.pos] == 0xFF {
			d.pos++
		}
		if d.pos >= len(d.data) {
			return nil, fmt.Errorf("%w: no EOI marker", errJPEGFormat)
		}
		m := d.data[d.pos]
		d.pos++
		if m == 0xD9 { // EOI
			break
		}
		if m == 0x00 || m >= 0xD0 && m <= 0xD7 || m == 0x01 {
			continue // stuffed 0xFF left of the entropy data, RSTn, TEM: no segment
		}
		if d.pos+2 > len(d.data) {
			return nil, fmt.Errorf("%w: truncated", errJPEGFormat)
		}
		n := d.u16(d.pos)
		if n < 2 || d.pos+n > len(d.data) {
			return nil, fmt.Errorf("%w: bad segment length", errJPEGFormat)
		}
		seg := d.data[d.pos+2 : d.pos+n]
		d.pos += n
		var err error
		switch {
		case m == 0xC0 || m == 0xC1:
			err = d.frame(seg)
		case m >= 0xC2 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC:
			return nil, fmt.Errorf("%w (SOF marker 0x%02X)", ErrJPEGUnsupported, m)
		case m == 0xC4:
			err = d.huffTables(seg)
		case m == 0xDB:
			err = d.quantTables(seg)
		case m == 0xDD:
			if len(seg) < 2 {
				return nil, fmt.Errorf("%w: bad DRI", errJPEGFormat)
			}
			d.ri = int(seg[0])<<8 | int(seg[1])
		case m == 0xEE:
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				d.adobe, d.adobeXform = true, int(seg[11])
			}
		case m == 0xDA:
			err = d.scan(seg)
		case m == 0xDC:
			return nil, fmt.Errorf("%w (DNL)", ErrJPEGUnsupported)
		}
		if err != nil {
			return nil, err
		}
	}
	if !d.frameSeen {
		return nil, fmt.Errorf("%w: no frame", errJPEGFormat)
	}
	return d.image()
}

func (d *jpegDec) frame(seg []byte) error {
	if d.frameSeen {
		return fmt.Errorf("%w: two frames", errJPEGFormat)
	}
	if len(seg) < 6 {
		return fmt.Errorf("%w: short SOF", errJPEGFormat)
	}
	if seg[0] != 8 {
		return fmt.Errorf("%w (%d-bit samples)", ErrJPEGUnsupported, seg[0])
	}
	d.h, d.w = int(seg[1])<<8|int(seg[2]), int(seg[3])<<8|int(seg[4])
	nc := int(seg[5])
	if d.w == 0 || d.h == 0 {
		return fmt.Errorf("%w (no height or width)", ErrJPEGUnsupported)
	}
	if d.w*d.h > 1<<26 {
		return fmt.Errorf("%w (%d x %d is over 2^26 pixels)", ErrJPEGUnsupported, d.w, d.h)
	}
	if nc != 1 && nc != 3 {
		return fmt.Errorf("%w (%d components)", ErrJPEGUnsupported, nc)
	}
	if len(seg) < 6+3*nc {
		return fmt.Errorf("%w: short SOF", errJPEGFormat)
	}
	d.hmax, d.vmax = 1, 1
	for i := 0; i < nc; i++ {
		c := jpegComp{id: int(seg[6+3*i]), h: int(seg[7+3*i] >> 4), v: int(seg[7+3*i] & 15), tq: int(seg[8+3*i])}
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3 {
			return fmt.Errorf("%w: bad component", errJPEGFormat)
		}
		d.hmax, d.vmax = max(d.hmax, c.h), max(d.vmax, c.v)
		d.comps = append(d.comps, c)
	}
	mcusX, mcusY := (d.w+8*d.hmax-1)/(8*d.hmax), (d.h+8*d.vmax-1)/(8*d.vmax)
	for i := range d.comps {
		c := &d.comps[i]
		c.w = (d.w*c.h + d.hmax - 1) / d.hmax
		c.hgt = (d.h*c.v + d.vmax - 1) / d.vmax
		c.bw, c.bh = mcusX*c.h, mcusY*c.v
		c.stride = c.bw * 8
		c.pix = make([]byte, c.stride*c.bh*8)
	}
	d.frameSeen = true
	return nil
}

func (d *jpegDec) quantTables(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, int(seg[0]&15)
		if tq > 3 || pq > 1 || len(seg) < 1+64*(1+int(pq)) {
			return fmt.Errorf("%w: bad DQT", errJPEGFormat)
		}
		for k := 0; k < 64; k++ {
			if pq == 0 {
				d.q[tq][k] = int32(seg[1+k])
			} else {
				d.q[tq][k] = int32(seg[1+2*k])<<8 | int32(seg[2+2*k])
			}
		}
		seg = seg[1+64*(1+int(pq)):]
	}
	return nil
}

func (d *jpegDec) huffTables(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return fmt.Errorf("%w: bad DHT", errJPEGFormat)
		}
		tc, th := seg[0]>>4, int(seg[0]&15)
		if tc > 1 || th > 3 {
			return fmt.Errorf("%w: bad DHT", errJPEGFormat)
		}
		var counts [16]byte
		copy(counts[:], seg[1:17])
		n := 0
		for _, c := range counts {
			n += int(c)
		}
		if n > 256 || len(seg) < 17+n {
			return fmt.Errorf("%w: bad DHT", errJPEGFormat)
		}
		vals := append([]byte(nil), seg[17:17+n]...)
		t := &d.dc[th]
		if tc == 1 {
			t = &d.ac[th]
		}
		if err := t.build(counts, vals); err != nil {
			return err
		}
		seg = seg[17+n:]
	}
	return nil
}

// fill makes at least n (<= 16) bits available; past a marker it feeds zeros, as libjpeg does.
func (d *jpegDec) fill(n int) {
	for d.nbits < n {
		var b byte
		if !d.hitMarker && d.pos < len(d.data) {
			b = d.data[d.pos]
			if b == 0xFF {
				if d.pos+1 < len(d.data) && d.data[d.pos+1] == 0x00 {
					d.pos += 2
				} else {
					d.hitMarker, b = true, 0
				}
			} else {
				d.pos++
			}
		}
		d.bits = d.bits<<8 | uint32(b)
		d.nbits += 8
	}
}

func (d *jpegDec) getBits(n int) int32 {
	if n == 0 {
		return 0
	}
	d.fill(n)
	d.nbits -= n
	return int32(d.bits>>uint(d.nbits)) & (1<<n - 1)
}

func (d *jpegDec) decodeHuff(h *jpegHuff) (byte, error) {
	d.fill(16)
	code := int32(0)
	for l := 1; l <= 16; l++ {
		code = code<<1 | int32(d.bits>>uint(d.nbits-l))&1
		if code <= h.maxcode[l] {
			d.nbits -= l
			i := h.valptr[l] + code - h.mincode[l]
			if int(i) >= len(h.vals) {
				return 0, fmt.Errorf("%w: bad Huffman code", errJPEGFormat)
			}
			return h.vals[i], nil
		}
	}
	return 0, fmt.Errorf("%w: bad Huffman code", errJPEGFormat)
}

func extend(v int32, s int) int32 {
	if s > 0 && v < 1<<(s-1) {
		return v - (1 << s) + 1
	}
	return v
}

func (d *jpegDec) scan(seg []byte) error {
	if !d.frameSeen {
		return fmt.Errorf("%w: scan before frame", errJPEGFormat)
	}
	if len(seg) < 1 {
		return fmt.Errorf("%w: short SOS", errJPEGFormat)
	}
	ns := int(seg[0])
	if ns < 1 || ns > len(d.comps) || len(seg) < 4+2*ns {
		return fmt.Errorf("%w: bad SOS", errJPEGFormat)
	}
	var sc []*jpegComp
	for i := 0; i < ns; i++ {
		id := int(seg[1+2*i])
		var c *jpegComp
		for j := range d.comps {
			if d.comps[j].id == id {
				c = &d.comps[j]
			}
		}
		if c == nil {
			return fmt.Errorf("%w: scan names an unknown component", errJPEGFormat)
		}
		c.td, c.ta = int(seg[2+2*i]>>4), int(seg[2+2*i]&15)
		if c.td > 3 || c.ta > 3 || !d.dc[c.td].ok || !d.ac[c.ta].ok {
			return fmt.Errorf("%w: scan uses an undefined Huffman table", errJPEGFormat)
		}
		c.pred = 0
		sc = append(sc, c)
	}
	if ss, se, a := seg[1+2*ns], seg[2+2*ns], seg[3+2*ns]; ss != 0 || se != 63 || a != 0 {
		return fmt.Errorf("%w: spectral selection in a baseline scan", errJPEGFormat)
	}
	d.bits, d.nbits, d.hitMarker = 0, 0, false
	type blk struct {
		c      *jpegComp
		bx, by int
	}
	var units [][]blk // MCUs in order, each its blocks
	if ns == 1 {
		c := sc[0]
		for by := 0; by < (c.hgt+7)/8; by++ {
			for bx := 0; bx < (c.w+7)/8; bx++ {
				units = append(units, []blk{{c, bx, by}})
			}
		}
	} else {
		mcusX, mcusY := (d.w+8*d.hmax-1)/(8*d.hmax), (d.h+8*d.vmax-1)/(8*d.vmax)
		for my := 0; my < mcusY; my++ {
			for mx := 0; mx < mcusX; mx++ {
				var u []blk
				for _, c := range sc {
					for v := 0; v < c.v; v++ {
						for h := 0; h < c.h; h++ {
							u = append(u, blk{c, mx*c.h + h, my*c.v + v})
						}
					}
				}
				units = append(units, u)
			}
		}
	}
	for n, u := range units {
		if d.ri > 0 && n > 0 && n%d.ri == 0 {
			// Restart: drop the remaining bits, skip the RSTn marker, reset the predictions.
			d.bits, d.nbits = 0, 0
			for d.pos+1 < len(d.data) && !(d.data[d.pos] == 0xFF && d.data[d.pos+1] >= 0xD0 && d.data[d.pos+1] <= 0xD7) {
				d.pos++
			}
			d.pos += 2
			d.hitMarker = false
			for _, c := range sc {
				c.pred = 0
			}
		}
		for _, b := range u {
			if err := d.block(b.c, b.bx, b.by); err != nil {
				return err
			}
		}
	}
	if d.pos > len(d.data) {
		d.pos = len(d.data)
	}
	return nil
}

func (d *jpegDec) block(c *jpegComp, bx, by int) error {
	q := &d.q[c.tq]
	coef := &d.coef
	*coef = [64]int32{}
	t, err := d.decodeHuff(&d.dc[c.td])
	if err != nil {
		return err
	}
	if t > 11 {
		return fmt.Errorf("%w: bad DC size", errJPEGFormat)
	}
	c.pred += extend(d.getBits(int(t)), int(t))
	coef[0] = int32(int16(c.pred)) * q[0]
	for k := 1; k < 64; {
		rs, err := d.decodeHuff(&d.ac[c.ta])
		if err != nil {
			return err
		}
		r, s := int(rs>>4), int(rs&15)
		if s == 0 {
			if r != 15 {
				break
			}
			k += 16
			continue
		}
		k += r
		if k > 63 {
			return fmt.Errorf("%w: AC coefficient past 63", errJPEGFormat)
		}
		coef[jpegZigzag[k]] = int32(int16(extend(d.getBits(s), s))) * q[k]
		k++
	}
	idctIslow(coef, &d.workspace, c.pix[by*8*c.stride+bx*8:], c.stride)
	return nil
}

// libjpeg's jidctint.c constants: FIX(x) = x * 2^13 rounded.
const (
	cb13       = 13
	pass1Bits  = 2
	fix0298631 = 2446
	fix0390181 = 3196
	fix0541196 = 4433
	fix0765367 = 6270
	fix0899976 = 7373
	fix1175876 = 9633
	fix1501321 = 12299
	fix1847759 = 15137
	fix1961571 = 16069
	fix2053120 = 16819
	fix2562915 = 20995
	fix3072711 = 25172
)

// idctIslow is libjpeg's jpeg_idct_islow on dequantised coefficients (natural order), writing
// the 8x8 level-shifted, clamped samples at out with the given stride.
func idctIslow(in *[64]int32, ws *[64]int32, out []byte, stride int) {
	descale := func(x int32, n uint) int32 { return (x + 1<<(n-1)) >> n }
	// Pass 1: columns, into ws scaled by 2^pass1Bits.
	for col := 0; col < 8; col++ {
		if in[8+col] == 0 && in[16+col] == 0 && in[24+col] == 0 && in[32+col] == 0 &&
			in[40+col] == 0 && in[48+col] == 0 && in[56+col] == 0 {
			dc := in[col] << pass1Bits
			for r := 0; r < 8; r++ {
				ws[8*r+col] = dc
			}
			continue
		}
		o := islow1D(in[col], in[8+col], in[16+col], in[24+col], in[32+col], in[40+col], in[48+col], in[56+col])
		for r, v := range o {
			ws[8*r+col] = descale(v, cb13-pass1Bits)
		}
	}
	// Pass 2: rows, level-shifted and clamped.
	lim := func(x int32) byte {
		x += 128
		if x < 0 {
			return 0
		}
		if x > 255 {
			return 255
		}
		return byte(x)
	}
	for row := 0; row < 8; row++ {
		w := ws[8*row : 8*row+8]
		o := out[row*stride : row*stride+8]
		if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
			v := lim(descale(w[0], pass1Bits+3))
			for i := range o {
				o[i] = v
			}
			continue
		}
		for i, v := range islow1D(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]) {
			o[i] = lim(descale(v, cb13+pass1Bits+3))
		}
	}
}

// islow1D is the 1-D butterfly both passes of jpeg_idct_islow apply to eight values x0..x7 (a
// column of coefficients, then a row of pass 1's results): its eight outputs, scaled by 2^13 and
// not yet descaled, in order.
func islow1D(x0, x1, x2, x3, x4, x5, x6, x7 int32) [8]int32 {
	// Even part.
	z1 := (x2 + x6) * fix0541196
	tmp2 := z1 + x6*-fix1847759
	tmp3 := z1 + x2*fix0765367
	tmp0 := (x0 + x4) << cb13
	tmp1 := (x0 - x4) << cb13
	tmp10, tmp13 := tmp0+tmp3, tmp0-tmp3
	tmp11, tmp12 := tmp1+tmp2, tmp1-tmp2
	// Odd part.
	tmp0, tmp1, tmp2, tmp3 = x7, x5, x3, x1
	z1, z2, z3 := tmp0+tmp3, tmp1+tmp2, tmp0+tmp2
	z4 := tmp1 + tmp3
	z5 := (z3 + z4) * fix1175876
	tmp0 *= fix0298631
	tmp1 *= fix2053120
	tmp2 *= fix3072711
	tmp3 *= fix1501321
	z1 *= -fix0899976
	z2 *= -fix2562915
	z3 *= -fix1961571
	z4 *= -fix0390181
	z3 += z5
	z4 += z5
	tmp0 += z1 + z3
	tmp1 += z2 + z4
	tmp2 += z2 + z3
	tmp3 += z1 + z4
	return [8]int32{tmp10 + tmp3, tmp11 + tmp2, tmp12 + tmp1, tmp13 + tmp0, tmp13 - tmp0, tmp12 - tmp1, tmp11 - tmp2, tmp10 - tmp3}
}

// image wraps the decoded planes.
func (d *jpegDec) image() (image.Image, error) {
	r := image.Rect(0, 0, d.w, d.h)
	if len(d.comps) == 1 {
		c := d.comps[0]
		return &image.Gray{Pix: c.pix, Stride: c.stride, Rect: r}, nil
	}
	y, cb, cr := d.comps[0], d.comps[1], d.comps[2]
	// libjpeg treats 3 components as YCbCr unless an Adobe marker says RGB (transform 0) or,
	// without JFIF/Adobe markers, the component ids are 'R','G','B'.
	if d.adobe && d.adobeXform == 0 || y.id == 'R' && cb.id == 'G' && cr.id == 'B' {
		return nil, fmt.Errorf("%w (RGB colour space)", ErrJPEGUnsupported)
	}
	if cb.h != cr.h || cb.v != cr.v || y.h%cb.h != 0 || y.v%cb.v != 0 || d.hmax != y.h || d.vmax != y.v {
		return nil, fmt.Errorf("%w (sampling factors)", ErrJPEGUnsupported)
	}
	var sub image.YCbCrSubsampleRatio
	switch [2]int{y.h / cb.h, y.v / cb.v} {
	case [2]int{1, 1}:
		sub = image.YCbCrSubsampleRatio444
	case [2]int{2, 1}:
		sub = image.YCbCrSubsampleRatio422
	case [2]int{2, 2}:
		sub = image.YCbCrSubsampleRatio420
	case [2]int{1, 2}:
		sub = image.YCbCrSubsampleRatio440
	default:
		return nil, fmt.Errorf("%w (sampling factors)", ErrJPEGUnsupported)
	}
	return &image.YCbCr{Y: y.pix, Cb: cb.pix, Cr: cr.pix, YStride: y.stride, CStride: cb.stride, SubsampleRatio: sub, Rect: r}, nil
}
