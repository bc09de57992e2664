package format

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
)

// WalkTar calls visit for every regular file of a tar archive, in archive order, with the
// member's path, its size and a reader of its content that is valid only during the call.
// Directories, links and other entries are skipped. Wrap r in gzip.NewReader for .tar.gz.
// An error from visit stops the walk and is returned wrapped with the archive name and member
// path (errors.Is still sees it); a corrupt archive returns a *ParseError with the offset.
func WalkTar(r io.Reader, name string, visit func(path string, size int64, body io.Reader) error) error {
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
