package dataset

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Source says where data files come from. A file is taken from the mirror when the mirror has
// it (a local folder laid out <Mirror>/<set>/<file>, such as a shared read-only copy), else from
// the cache (<Cache>/<set>/<file>), else it is downloaded from its upstream URL into the cache.
// Every file is checked against the manifest's sha256 of its decompressed content before use;
// a file that passed is remembered by (path, size, mtime), so it is hashed once per process.
type Source struct {
	Mirror string       // "" = no mirror
	Cache  string       // where downloads go; "" = no downloads
	Log    io.Writer    // download progress and notes; nil = silent
	Client *http.Client // nil = http.DefaultClient
	// Upstream, when set, is the base URL of one server that stands in for every upstream host
	// (a test double, or a site's own copy of the upstream archives): https://host/path is then
	// fetched from Upstream + "/host/path". The sha256 of every file is still checked, and so is
	// every recipe's output; only the recipes' upstream archives, which such a server may
	// re-pack, are not held to the upstream's published checksums.
	Upstream string
}

// The environment variables DefaultSource reads, for programs that pass a Source on (the lab
// command forwards them to its cluster jobs and its child processes).
const (
	// MirrorEnv names the local mirror, Source.Mirror.
	MirrorEnv = "LAB_DATA_MIRROR"
	// CacheEnv names the download cache, Source.Cache.
	CacheEnv = "LAB_DATA_CACHE"
	// UpstreamEnv names the stand-in for the upstream servers, Source.Upstream.
	UpstreamEnv = "LAB_DATA_UPSTREAM"
)

// DefaultSource reads the mirror from the environment variable LAB_DATA_MIRROR (MirrorEnv), the
// cache from LAB_DATA_CACHE (CacheEnv; default os.UserCacheDir()/kernellab/datasets) and the
// stand-in for the upstream servers from LAB_DATA_UPSTREAM (UpstreamEnv; default none), and logs
// to standard error.
func DefaultSource() Source {
	cache := os.Getenv(CacheEnv)
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "kernellab", "datasets")
		} else {
			cache = filepath.Join(os.TempDir(), "kernellab-datasets")
		}
	}
	return Source{Mirror: os.Getenv(MirrorEnv), Cache: cache, Log: os.Stderr, Upstream: os.Getenv(UpstreamEnv)}
}

// Fetch makes every file the loaders of data set name need available and verified, downloading
// what neither the mirror nor the cache holds. A needed file that no upstream serves as it is
// is built by its recipe from the data set's upstream sources (see recipe). For covtype the full
// UCI file is needed, unless the mirror or the cache holds the two partial files, which stand in
// for it as a labelled subset (see [Source.Table]).
func (s Source) Fetch(ctx context.Context, name string) error {
	spec, err := Lookup(name)
	if err != nil {
		return err
	}
	return s.fetchSpec(ctx, spec)
}

// fetchSpec is Fetch for a data set described by spec (tests point its URLs at a local server).
func (s Source) fetchSpec(ctx context.Context, spec Spec) error {
	for _, f := range s.neededFiles(spec) {
		if _, err := s.ensure(ctx, spec, f); err != nil {
			return err
		}
	}
	return nil
}

// Verify checks the checksums of the files of data set name that are present locally: every
// needed file must be present (a missing one is an error), optional files are checked when
// present. Nothing is downloaded.
//
// Every file is checked and every problem reported (errors.Join), not only the first. A full
// covtype.data.gz, which has no published checksum, is checked against the rows the partial
// files hold (see checkCovtypeFull).
func (s Source) Verify(ctx context.Context, name string) error {
	spec, err := Lookup(name)
	if err != nil {
		return err
	}
	if err := s.checkMirror(); err != nil {
		return err
	}
	needed := map[string]bool{}
	for _, f := range s.neededFiles(spec) {
		needed[f.Name] = true
	}
	var errs []error
	for _, f := range spec.Files {
		path, ok := s.localPath(spec.Name, f.Name)
		if !ok {
			if needed[f.Name] {
				errs = append(errs, fmt.Errorf("dataset %s: %s is missing (mirror %q, cache %q)", spec.Name, f.Name, s.Mirror, s.Cache))
			}
			continue
		}
		if err := s.verifyFile(ctx, path, spec.Name, f); err != nil {
			errs = append(errs, err)
			continue
		}
		if spec.Name == "covtype" && f.Name == covtypeFull {
			errs = append(errs, s.checkCovtypeFull(ctx, spec))
		}
	}
	return errors.Join(errs...)
}

// checkMirror refuses a mirror that is set but is not a folder: a mistyped LAB_DATA_MIRROR must not
// fall back silently to downloading.
func (s Source) checkMirror() error {
	if s.Mirror == "" {
		return nil
	}
	if st, err := os.Stat(s.Mirror); err != nil || !st.IsDir() {
		return fmt.Errorf("dataset: the data mirror %q (%s) is not a folder; fix or unset it", s.Mirror, MirrorEnv)
	}
	return nil
}

// Open returns the verified, decompressed content of file of data set name, fetching the file
// first when it is not present locally. The caller closes it.
func (s Source) Open(ctx context.Context, name, file string) (io.ReadCloser, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	f, err := spec.File(file)
	if err != nil {
		return nil, err
	}
	return s.open(ctx, spec, f)
}

// Has reports whether file of data set name is present in the mirror or the cache, without
// verifying it. Unknown names report false.
func (s Source) Has(name, file string) bool {
	spec, err := Lookup(name)
	if err != nil {
		return false
	}
	if _, err := spec.File(file); err != nil {
		return false
	}
	_, ok := s.localPath(name, file)
	return ok
}

// neededFiles lists the files the loaders of spec read. For covtype that is the full UCI file,
// unless it is not here and the two partial files (UCI rows 1-20,000 and every 50th row from
// 15,121, which an offline mirror may hold) both are: they then stand in for it, and the loader
// labels the table a subset.
func (s Source) neededFiles(spec Spec) []FileSpec {
	var needed []FileSpec
	for _, f := range spec.Files {
		if !f.Optional {
			needed = append(needed, f)
		}
	}
	if spec.Name != "covtype" {
		return needed
	}
	if _, ok := s.localPath(spec.Name, covtypeFull); ok {
		return needed
	}
	var partial []FileSpec
	for _, name := range covtypePartial {
		f, err := spec.File(name)
		if _, ok := s.localPath(spec.Name, name); err != nil || !ok {
			return needed
		}
		partial = append(partial, f)
	}
	return partial
}

// open returns the decompressed content of a verified local (or freshly downloaded) copy of f.
func (s Source) open(ctx context.Context, spec Spec, f FileSpec) (io.ReadCloser, error) {
	path, err := s.ensure(ctx, spec, f)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", spec.Name, err)
	}
	r, err := decompressor(bufio.NewReaderSize(file, 1<<16), f.Compression)
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("dataset %s: %s: %w", spec.Name, path, err)
	}
	return readCloser{Reader: r, closer: file}, nil
}

type readCloser struct {
	io.Reader
	closer io.Closer
}

func (r readCloser) Close() error { return r.closer.Close() }

// ensure returns the path of a verified copy of f, downloading it into the cache when needed.
func (s Source) ensure(ctx context.Context, spec Spec, f FileSpec) (string, error) {
	if err := s.checkMirror(); err != nil {
		return "", err
	}
	if path, ok := s.localPath(spec.Name, f.Name); ok {
		if err := s.verifyFile(ctx, path, spec.Name, f); err != nil {
			return "", err
		}
		return path, nil
	}
	switch {
	case f.URL != "":
		return s.download(ctx, spec.Name, f)
	case f.Recipe != "":
		if err := s.runRecipe(ctx, spec, f); err != nil {
			return "", err
		}
		if path, ok := s.localPath(spec.Name, f.Name); ok {
			return path, nil
		}
		return "", fmt.Errorf("dataset %s: recipe %s did not make %s", spec.Name, f.Recipe, f.Name)
	}
	return "", fmt.Errorf("dataset %s: %s is in neither the mirror (%q) nor the cache (%q), and it has no upstream copy: it is derived from %s. Set %s to a folder that holds %s/%s",
		spec.Name, f.Name, s.Mirror, s.Cache, f.DerivedFrom, MirrorEnv, spec.Name, f.Name)
}

// localPath returns the mirror copy of set/file when there is one, else the cache copy.
func (s Source) localPath(set, file string) (string, bool) {
	for _, root := range []string{s.Mirror, s.Cache} {
		if root == "" {
			continue
		}
		path := filepath.Join(root, set, file)
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			return path, true
		}
	}
	return "", false
}

func (s Source) logf(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, format+"\n", args...)
	}
}

// fileStamp identifies the version of a file that passed verification.
type fileStamp struct {
	size    int64
	modTime time.Time
}

var verified = struct {
	sync.Mutex
	stamps map[string]fileStamp
}{stamps: map[string]fileStamp{}}

func stampOf(path string) (fileStamp, error) {
	st, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{size: st.Size(), modTime: st.ModTime()}, nil
}

func isVerified(path string) bool {
	st, err := stampOf(path)
	if err != nil {
		return false
	}
	verified.Lock()
	defer verified.Unlock()
	old, ok := verified.stamps[path]
	return ok && old.size == st.size && old.modTime.Equal(st.modTime)
}

func markVerified(path string) {
	st, err := stampOf(path)
	if err != nil {
		return
	}
	verified.Lock()
	verified.stamps[path] = st
	verified.Unlock()
}

// verifyFile hashes the decompressed content of path and compares it with f.SHA256. A file
// without known checksum is only checked to decompress (its loader checks its shape). A file a
// recipe built and checked without matching the reference bytes is accepted by the note the
// recipe left beside it, which names its sha256.
func (s Source) verifyFile(ctx context.Context, path, set string, f FileSpec) error {
	if isVerified(path) {
		return nil
	}
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("dataset %s: %w", set, err)
	}
	defer file.Close()
	stored, content, err := hashFile(ctx, file, f.Compression)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msg := fmt.Sprintf("dataset %s: %s is corrupt: it does not decompress as %s (%v); sha256 of the stored file %s",
			set, path, f.Compression, err, stored)
		if f.StoredSHA256 != "" {
			msg += ", want " + f.StoredSHA256
		}
		return errors.New(msg)
	}
	if f.SHA256 == "" {
		s.logf("dataset: no checksum known for %s/%s (sha256 of its content %s); its loader checks its shape (and covtype its known rows)", set, f.Name, content)
	} else if content != f.SHA256 && !acceptedByRecipe(path, content) {
		return fmt.Errorf("dataset %s: checksum mismatch for %s: sha256 of its content is %s, want %s", set, path, content, f.SHA256)
	}
	markVerified(path)
	return nil
}

// hashFile returns the sha256 of r as stored and of its decompressed content.
func hashFile(ctx context.Context, r io.Reader, compression string) (stored, content string, err error) {
	rawHash, contentHash := sha256.New(), sha256.New()
	tee := io.TeeReader(ctxReader{ctx: ctx, r: r}, rawHash)
	buffered := bufio.NewReaderSize(tee, 1<<16)
	dr, err := decompressor(buffered, compression)
	if err == nil {
		_, err = io.Copy(contentHash, dr)
	}
	if _, drainErr := io.Copy(io.Discard, buffered); err == nil {
		err = drainErr
	}
	return hex.EncodeToString(rawHash.Sum(nil)), hex.EncodeToString(contentHash.Sum(nil)), err
}

// decompressor wraps r according to the manifest's compression of the file.
func decompressor(r *bufio.Reader, compression string) (io.Reader, error) {
	switch compression {
	case "":
		return r, nil
	case "gzip":
		return gzip.NewReader(r)
	case "bzip2":
		return bzip2.NewReader(r), nil
	}
	return nil, fmt.Errorf("unknown compression %q", compression)
}

// ctxReader stops reading once ctx is done, so hashing a large file can be cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
