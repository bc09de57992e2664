package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// maxIDXBytes caps the data size an IDX header may announce (1 GiB; MNIST's training images
// are 47 MB).
const maxIDXBytes = 1 << 30

// IDX is a parsed IDX file (the MNIST format): an n-dimensional array of unsigned bytes.
type IDX struct {
	Dims []int  // the dimensions from the header, outermost first
	Data []byte // the values, row-major (last dimension fastest)
}

// idxTypeNames names the element types of the IDX format, for error messages.
var idxTypeNames = map[byte]string{
	0x08: "unsigned byte", 0x09: "signed byte", 0x0B: "int16", 0x0C: "int32", 0x0D: "float32", 0x0E: "float64",
}

// ReadIDX parses an IDX file: the magic 0x00 0x00, the element type, the number of dimensions,
// the big-endian uint32 dimensions, then the data. Only element type 0x08 (unsigned byte) is
// supported. The data must be exactly as long as the dimensions say; the header is checked
// against a 1 GiB cap and memory grows only with the bytes actually present.
func ReadIDX(r io.Reader, name string) (*IDX, error) {
	if err := missing(name, "the reader", r); err != nil {
		return nil, err
	}
	var head [4]byte
	if n, err := io.ReadFull(r, head[:]); err != nil {
		return nil, idxReadError(name, int64(n), "magic number", err)
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, offsetError(name, 0, "bad magic % x: an IDX file starts with 00 00", head[:2])
	}
	if head[2] != 0x08 {
		typeName, known := idxTypeNames[head[2]]
		if !known {
			return nil, offsetError(name, 2, "unknown element type 0x%02X", head[2])
		}
		return nil, offsetError(name, 2, "element type 0x%02X (%s) is not supported; only 0x08 (unsigned byte)", head[2], typeName)
	}
	ndims := int(head[3])
	if ndims == 0 {
		return nil, offsetError(name, 3, "zero dimensions")
	}
	dimBytes := make([]byte, 4*ndims)
	if n, err := io.ReadFull(r, dimBytes); err != nil {
		return nil, idxReadError(name, 4+int64(n), "dimensions", err)
	}
	dims := make([]int, ndims)
	size := 1
	for i := range dims {
		d := binary.BigEndian.Uint32(dimBytes[4*i:])
		if d > maxIDXBytes || (d > 0 && size > maxIDXBytes/int(d)) {
			return nil, offsetError(name, 4+4*int64(i), "dimension %d (%d) makes the data larger than the cap of %d bytes", i, d, maxIDXBytes)
		}
		dims[i] = int(d)
		size *= int(d)
	}
	dataStart := 4 + 4*int64(ndims)
	var buf bytes.Buffer
	buf.Grow(min(size, 1<<20)) // never trust the header for more than 1 MiB up front
	got, err := buf.ReadFrom(io.LimitReader(r, int64(size)+1))
	if err != nil {
		return nil, &ParseError{File: name, Offset: dataStart + got, Msg: "reading data", Err: err}
	}
	if got < int64(size) {
		return nil, offsetError(name, dataStart+got, "data truncated: the dimensions %v need %d bytes, found %d", dims, size, got)
	}
	if got > int64(size) {
		return nil, offsetError(name, dataStart+int64(size), "trailing data after the %d bytes the dimensions %v need", size, dims)
	}
	return &IDX{Dims: dims, Data: buf.Bytes()}, nil
}

// idxReadError reports a header that ends early or a failing reader.
func idxReadError(name string, offset int64, what string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return offsetError(name, offset, "file ends inside the %s", what)
	}
	return &ParseError{File: name, Offset: offset, Msg: "reading the " + what, Err: err}
}
