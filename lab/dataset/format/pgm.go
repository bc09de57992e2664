package format

import (
	"bufio"
	"bytes"
	"errors"
	"image"
	"io"
)

// maxPGMPixels caps the image size a PGM header may announce (2^28 pixels).
const maxPGMPixels = 1 << 28

// ReadPGM parses a Netpbm gray image, binary P5 or ASCII P2, with maxval at most 255 (ORL /
// Olivetti faces are P5, 92×112, maxval 255). Header comments (#) are skipped. When maxval is
// below 255 the values are rescaled to 0..255 (rounded), so that 255 is always white. Only one
// image per file: anything but whitespace after the pixels is an error. Errors give the byte
// offset, and for P2 also the line.
func ReadPGM(r io.Reader, name string) (*image.Gray, error) {
	if err := missing(name, "the reader", r); err != nil {
		return nil, err
	}
	p := &pgmReader{r: bufio.NewReader(r), name: name, line: 1}
	magic := make([]byte, 2)
	for k := range magic {
		c, err := p.readByte()
		if err != nil {
			return nil, p.fail("file ends inside the magic number")
		}
		magic[k] = c
	}
	ascii := false
	switch string(magic) {
	case "P5":
	case "P2":
		ascii = true
	default:
		return nil, offsetError(name, 0, "magic %q is not P5 or P2 (only gray PGM is supported)", magic)
	}
	p.ascii = ascii
	width, err := p.header("width", 1<<20)
	if err != nil {
		return nil, err
	}
	height, err := p.header("height", 1<<20)
	if err != nil {
		return nil, err
	}
	maxval, err := p.header("maxval", 1<<20)
	if err != nil {
		return nil, err
	}
	switch {
	case width == 0 || height == 0:
		return nil, p.fail("empty image %d×%d", width, height)
	case width > maxPGMPixels/height:
		return nil, p.fail("image %d×%d exceeds the cap of %d pixels", width, height, maxPGMPixels)
	case maxval == 0 || maxval > 255:
		return nil, p.fail("maxval %d is not in 1..255 (16-bit PGM is not supported)", maxval)
	}
	n := width * height
	var pix []byte
	if ascii {
		if pix, err = p.asciiPixels(n, maxval); err != nil {
			return nil, err
		}
	} else {
		// Exactly one whitespace byte separates maxval from the raster.
		if c, err := p.readByte(); err != nil || !isPGMSpace(c) {
			return nil, p.fail("expected one whitespace byte after maxval")
		}
		var buf bytes.Buffer
		buf.Grow(min(n, 1<<20))
		got, err := buf.ReadFrom(io.LimitReader(p.r, int64(n)))
		p.offset += got
		if err != nil {
			return nil, &ParseError{File: name, Offset: p.offset, Msg: "reading pixels", Err: err}
		}
		if got < int64(n) {
			return nil, p.fail("pixels truncated: %d×%d needs %d bytes, found %d", width, height, n, got)
		}
		pix = buf.Bytes()
		for k, v := range pix {
			if int(v) > maxval {
				return nil, offsetError(name, p.offset-int64(n)+int64(k), "pixel %d is above maxval %d", v, maxval)
			}
		}
	}
	if more, err := p.skipSpaceAndComments(); err != nil {
		return nil, err
	} else if more {
		return nil, p.fail("data after the image (multi-image PGM files are not supported)")
	}
	if maxval != 255 {
		for k, v := range pix {
			pix[k] = byte((int(v)*255 + maxval/2) / maxval)
		}
	}
	return &image.Gray{Pix: pix, Stride: width, Rect: image.Rect(0, 0, width, height)}, nil
}

// pgmReader reads a PGM file byte by byte, tracking the offset and line for errors.
type pgmReader struct {
	r      *bufio.Reader
	name   string
	ascii  bool  // P2: report lines as well as offsets
	offset int64 // bytes consumed
	line   int   // current line (1-based)
	last   byte  // the byte last read, so that unreading a newline restores the line
}

func (p *pgmReader) readByte() (byte, error) {
	c, err := p.r.ReadByte()
	if err != nil {
		return 0, err
	}
	p.offset++
	p.last = c
	if c == '\n' {
		p.line++
	}
	return c, nil
}

func (p *pgmReader) unreadByte() {
	if p.r.UnreadByte() == nil {
		p.offset--
		if p.last == '\n' {
			p.line--
		}
	}
}

func (p *pgmReader) fail(format string, args ...any) error {
	if p.ascii {
		return lineError(p.name, p.line, format, args...)
	}
	return offsetError(p.name, p.offset, format, args...)
}

func isPGMSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// skipSpaceAndComments skips whitespace and '#' comments; it returns false at the end of input.
func (p *pgmReader) skipSpaceAndComments() (bool, error) {
	for {
		c, err := p.readByte()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, &ParseError{File: p.name, Offset: p.offset, Msg: "read failed", Err: err}
		}
		switch {
		case c == '#':
			for c != '\n' {
				if c, err = p.readByte(); errors.Is(err, io.EOF) {
					return false, nil
				} else if err != nil {
					return false, &ParseError{File: p.name, Offset: p.offset, Msg: "read failed", Err: err}
				}
			}
		case !isPGMSpace(c):
			p.unreadByte()
			return true, nil
		}
	}
}

// number reads an unsigned decimal after whitespace and comments, refusing values above limit.
func (p *pgmReader) number(what string, limit int) (int, error) {
	more, err := p.skipSpaceAndComments()
	if err != nil {
		return 0, err
	}
	if !more {
		return 0, p.fail("file ends before the %s", what)
	}
	v, digits := 0, 0
	for {
		c, err := p.readByte()
		if err != nil {
			break
		}
		if c < '0' || c > '9' {
			p.unreadByte()
			break
		}
		digits++
		v = v*10 + int(c-'0')
		if v > limit {
			return 0, p.fail("%s is larger than %d", what, limit)
		}
	}
	if digits == 0 {
		c, _ := p.r.Peek(1)
		return 0, p.fail("expected the %s, found %q", what, c)
	}
	return v, nil
}

// header reads one header number, which must be followed by whitespace or a comment.
func (p *pgmReader) header(what string, limit int) (int, error) {
	v, err := p.number(what, limit)
	if err != nil {
		return 0, err
	}
	next, err := p.r.Peek(1)
	if err != nil {
		return 0, p.fail("file ends after the %s", what)
	}
	if !isPGMSpace(next[0]) && next[0] != '#' {
		return 0, p.fail("unexpected %q after the %s", next[0], what)
	}
	return v, nil
}

// asciiPixels reads n decimal pixels of a P2 raster.
func (p *pgmReader) asciiPixels(n, maxval int) ([]byte, error) {
	pix := make([]byte, 0, min(n, 1<<20))
	for len(pix) < n {
		v, err := p.number("pixel", maxval)
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) && pe.Err == nil {
				return nil, p.fail("pixel %d of %d: %s", len(pix)+1, n, pe.Msg)
			}
			return nil, err
		}
		if next, err := p.r.Peek(1); err == nil && !isPGMSpace(next[0]) && next[0] != '#' {
			return nil, p.fail("unexpected %q after pixel %d", next[0], len(pix)+1)
		}
		pix = append(pix, byte(v))
	}
	return pix, nil
}
