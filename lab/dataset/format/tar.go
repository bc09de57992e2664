package format

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// WalkTar calls visit for every regular file of a tar archive, in archive order, with the
// member's path, its size and a reader of its content that is valid only during the call.
// Directories, links and other entries are skipped. Wrap r in gzip.NewReader for .tar.gz.
// An error from visit stops the walk and is returned wrapped with the archive name and member
// path (errors.Is still sees it); a corrupt archive returns a *[ParseError] with the offset.
func WalkTar(r io.Reader, name string, visit func(path string, size int64, body io.Reader) error) error {
	if err := missing(name, "the reader", r); err != nil {
		return err
	}
	if visit == nil {
		return fileError(name, "visit function is nil")
	}
	counted := &countingReader{r: r}
	tr := tar.NewReader(counted)
	regular := 0
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			if regular == 0 && counted.n == 0 {
				return offsetError(name, 0, "empty input, not a tar archive")
			}
			return nil
		}
		if err != nil {
			return &ParseError{File: name, Offset: counted.n, Msg: "bad tar archive", Err: err}
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		regular++
		if err := visit(hdr.Name, hdr.Size, tr); err != nil {
			return fmt.Errorf("%s: %s: %w", name, hdr.Name, err)
		}
	}
}

// countingReader counts the bytes read through it, for error offsets.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TarWriter writes a canonical tar archive: GNU format, regular files only, mode 0644, owner and
// group 0 without names, one fixed modification time, ended by two zero blocks and padded with
// zeros to a whole 10,240-byte record (GNU tar's default blocking factor of 20). The same members
// in the same order always give the same bytes, so an archive rebuilt from an upstream download
// can be checked against the sha256 of a reference copy (the data mirror's archives were written
// so by GNU tar with --format=gnu --sort=name --mtime --owner=0 --group=0 --numeric-owner).
//
// The header is written here rather than by archive/tar, which fills the device number fields of
// a GNU header with zeros where GNU tar leaves them empty, so its bytes differ from GNU tar's.
type TarWriter struct {
	w     io.Writer
	n     int64
	mtime int64
	err   error
}

const (
	tarBlock  = 512
	tarRecord = 20 * tarBlock // what GNU tar pads an archive to
)

// NewTarWriter starts a canonical tar archive on w whose members all carry modification time
// mtime.
func NewTarWriter(w io.Writer, mtime time.Time) *TarWriter {
	return &TarWriter{w: w, mtime: mtime.Unix()}
}

// Add appends a regular file called name (at most 99 bytes, no NUL) holding data.
func (t *TarWriter) Add(name string, data []byte) error {
	if t.err != nil {
		return t.err
	}
	if name == "" || len(name) > 99 || strings.ContainsRune(name, 0) {
		return fmt.Errorf("tar member %q: name must be 1 to 99 bytes without NUL", name)
	}
	var h [tarBlock]byte
	copy(h[0:100], name)
	octal := func(field []byte, v int64) { // zero-padded digits and a NUL, as GNU tar writes them
		copy(field, fmt.Sprintf("%0*o", len(field)-1, v))
	}
	octal(h[100:108], 0o644) // mode
	octal(h[108:116], 0)     // uid
	octal(h[116:124], 0)     // gid
	octal(h[124:136], int64(len(data)))
	octal(h[136:148], t.mtime)
	h[156] = '0' // regular file
	copy(h[257:265], "ustar  \x00")
	copy(h[148:156], "        ") // the checksum counts its own field as spaces
	sum := 0
	for _, b := range h {
		sum += int(b)
	}
	copy(h[148:156], fmt.Sprintf("%06o\x00 ", sum))
	t.write(h[:])
	t.write(data)
	if rest := len(data) % tarBlock; rest != 0 {
		t.write(make([]byte, tarBlock-rest))
	}
	if t.err != nil {
		return fmt.Errorf("tar member %s: %w", name, t.err)
	}
	return nil
}

// Close writes the two end-of-archive blocks and the record padding; it does not close the
// underlying writer.
func (t *TarWriter) Close() error {
	t.write(make([]byte, 2*tarBlock))
	if rest := t.n % tarRecord; rest != 0 {
		t.write(make([]byte, tarRecord-rest))
	}
	return t.err
}

func (t *TarWriter) write(p []byte) {
	if t.err != nil {
		return
	}
	if t.w == nil {
		t.err = errors.New("format: TarWriter: no writer (make one with NewTarWriter)")
		return
	}
	n, err := t.w.Write(p)
	t.n += int64(n)
	t.err = err
}
