package dataset

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/safefile"
)

// downloadLocks serialises downloads of the same destination within the process.
var downloadLocks = struct {
	sync.Mutex
	byPath map[string]*sync.Mutex
}{byPath: map[string]*sync.Mutex{}}

func lockDownload(path string) func() {
	downloadLocks.Lock()
	m, ok := downloadLocks.byPath[path]
	if !ok {
		m = &sync.Mutex{}
		downloadLocks.byPath[path] = m
	}
	downloadLocks.Unlock()
	m.Lock()
	return m.Unlock
}

// download fetches f.URL into <Cache>/<set>/<f.Name>. The body goes to a temporary file in the
// same folder while its decompressed content is hashed; only a complete download whose checksum
// matches is renamed into place, so an error, a mismatch or a cancelled context leaves no file.
// Content served uncompressed is gzip-compressed on the way when the manifest stores it as gzip
// (and the reverse), so the cache always mirrors the mirror's layout.
func (s Source) download(ctx context.Context, set string, f FileSpec) (string, error) {
	if s.Cache == "" {
		return "", fmt.Errorf("dataset %s: %s is not in the mirror (%q) and no cache folder is set to download it into", set, f.Name, s.Mirror)
	}
	dest := filepath.Join(s.Cache, set, f.Name)
	unlock := lockDownload(dest)
	defer unlock()
	if st, err := os.Stat(dest); err == nil && st.Mode().IsRegular() {
		// Another goroutine finished the download while this one waited.
		return dest, s.verifyFile(ctx, dest, set, f)
	}
	err := s.get(ctx, set, f.Name, f.URL, func(body *bufio.Reader) error {
		return safefile.Write(dest, func(w io.Writer) error {
			var content string
			var err error
			if f.Member == "" {
				content, err = storeAndHash(body, w, f.Compression)
			} else {
				content, err = storeMemberAndHash(body, w, f)
			}
			if err != nil {
				return err
			}
			if f.SHA256 != "" && content != f.SHA256 {
				return fmt.Errorf("checksum mismatch: sha256 of its content is %s, want %s (download deleted)", content, f.SHA256)
			}
			if f.SHA256 == "" {
				s.logf("dataset: no checksum known for %s/%s (sha256 of its content %s); its loader checks its shape (and covtype its known rows)", set, f.Name, content)
			}
			return nil
		})
	})
	if err != nil {
		return "", err
	}
	markVerified(dest)
	return dest, nil
}

// get downloads url and passes its body to fill, with progress lines on s.Log. Every error names
// the data set, the file and the address; a cancelled context is reported as such.
func (s Source) get(ctx context.Context, set, name, url string, fill func(body *bufio.Reader) error) error {
	url, err := s.upstreamURL(url)
	if err != nil {
		return fmt.Errorf("dataset %s: %s: %w", set, name, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("dataset %s: %s: bad url %q: %w", set, name, url, err)
	}
	client := s.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		var ue *neturl.Error // it repeats the URL: keep only its cause
		if errors.As(err, &ue) && ctx.Err() == nil {
			err = ue.Err
		}
		return fmt.Errorf("dataset %s: downloading %s from %s: %w (offline? point %s at a local mirror laid out <mirror>/%s/<file>)",
			set, name, url, err, MirrorEnv, set)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("dataset %s: downloading %s from %s: HTTP %s", set, name, url, resp.Status)
	}
	s.logf("dataset: downloading %s/%s from %s", set, name, url)
	prog := &progress{log: s.Log, label: set + "/" + name, total: resp.ContentLength, start: time.Now()}
	prog.last = prog.start
	body := bufio.NewReaderSize(io.TeeReader(ctxReader{ctx: ctx, r: resp.Body}, prog), 1<<16)
	err = fill(body)
	if err == nil && resp.ContentLength > 0 && prog.done != resp.ContentLength {
		err = fmt.Errorf("got %d of %d bytes", prog.done, resp.ContentLength)
	}
	prog.finish(err)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("dataset %s: downloading %s: %w", set, name, ctx.Err())
	}
	return fmt.Errorf("dataset %s: downloading %s from %s: %w", set, name, url, err)
}

// upstreamURL returns where url is fetched from: url itself, or its host and path under
// s.Upstream when that is set.
func (s Source) upstreamURL(url string) (string, error) {
	if s.Upstream == "" {
		return url, nil
	}
	u, err := neturl.Parse(url)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("bad url %q", url)
	}
	return strings.TrimSuffix(s.Upstream, "/") + "/" + u.Host + u.EscapedPath(), nil
}

// storeAndHash copies the downloaded body to w, stored with the compression the manifest wants,
// and returns the sha256 of the decompressed content.
func storeAndHash(body *bufio.Reader, w io.Writer, want string) (string, error) {
	got := sniffCompression(body)
	h := sha256.New()
	var err error
	switch {
	case got == want && want == "":
		_, err = io.Copy(io.MultiWriter(w, h), body)
	case got == want:
		tee := bufio.NewReaderSize(io.TeeReader(body, w), 1<<16)
		var dr io.Reader
		if dr, err = decompressor(tee, want); err == nil {
			_, err = io.Copy(h, dr)
		}
		if _, drainErr := io.Copy(io.Discard, tee); err == nil {
			err = drainErr
		}
	case got == "" && want == "gzip":
		gz, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		if _, err = io.Copy(io.MultiWriter(gz, h), body); err == nil {
			err = gz.Close()
		}
	case got == "gzip" && want == "":
		var gz *gzip.Reader
		if gz, err = gzip.NewReader(body); err == nil {
			_, err = io.Copy(io.MultiWriter(w, h), gz)
		}
	default:
		return "", fmt.Errorf("the server sends %s data but the file is stored as %s, which cannot be converted here", nameCompression(got), nameCompression(want))
	}
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// storeMemberAndHash finds f.Member in the tar (or compressed tar) archive read from body and
// stores it like storeAndHash; an archive without that member is an error naming it.
func storeMemberAndHash(body *bufio.Reader, w io.Writer, f FileSpec) (string, error) {
	archive, err := decompressor(body, sniffCompression(body))
	if err != nil {
		return "", err
	}
	var content string
	found := false
	err = format.WalkTar(archive, f.URL, func(path string, _ int64, member io.Reader) error {
		if found || path != f.Member {
			return nil
		}
		found = true
		content, err = storeAndHash(bufio.NewReaderSize(member, 1<<16), w, f.Compression)
		return err
	})
	if err != nil {
		return "", err
	}
	if !found {
		return "", fmt.Errorf("the archive has no member %s", f.Member)
	}
	return content, nil
}

// sniffCompression recognises gzip and bzip2 streams by their magic bytes.
func sniffCompression(r *bufio.Reader) string {
	magic, _ := r.Peek(3)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		return "gzip"
	case len(magic) == 3 && string(magic) == "BZh":
		return "bzip2"
	}
	return ""
}

func nameCompression(c string) string {
	if c == "" {
		return "uncompressed"
	}
	return c
}

// progress writes a line about a running download at most once a second, and a final one.
type progress struct {
	log         io.Writer
	label       string
	total, done int64 // total < 0: unknown
	start, last time.Time
}

func (p *progress) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	if now := time.Now(); p.log != nil && now.Sub(p.last) >= time.Second {
		p.last = now
		rate := float64(p.done) / now.Sub(p.start).Seconds()
		if p.total > 0 {
			fmt.Fprintf(p.log, "dataset: %s %s / %s (%.0f%%) at %s/s\n", p.label, byteSize(p.done), byteSize(p.total),
				100*float64(p.done)/float64(p.total), byteSize(int64(rate)))
		} else {
			fmt.Fprintf(p.log, "dataset: %s %s at %s/s\n", p.label, byteSize(p.done), byteSize(int64(rate)))
		}
	}
	return len(b), nil
}

func (p *progress) finish(err error) {
	if p.log == nil {
		return
	}
	elapsed := time.Since(p.start)
	rate := float64(p.done) / max(elapsed.Seconds(), 1e-9)
	if err != nil {
		fmt.Fprintf(p.log, "dataset: %s failed after %s (%d bytes)\n", p.label, byteSize(p.done), p.done)
		return
	}
	fmt.Fprintf(p.log, "dataset: %s done: %s (%d bytes) in %.1f s at %s/s\n", p.label, byteSize(p.done), p.done,
		elapsed.Seconds(), byteSize(int64(rate)))
}

// byteSize formats n bytes with a decimal unit (kB, MB, GB).
func byteSize(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
