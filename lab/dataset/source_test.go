package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastkernels/kernellab/lab/dataset/internal/mirrortest"
)

// copyToTempMirror copies set/file of the real mirror into a fresh mirror folder, optionally
// flipping one byte, and returns the folder.
func copyToTempMirror(t *testing.T, set, file string, flip int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(mirrortest.Dir(t), set, file))
	if err != nil {
		t.Fatal(err)
	}
	if flip >= 0 {
		data[flip] ^= 0x01
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, set), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, set, file), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// filesUnder lists the regular files below dir.
func filesUnder(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestCorruptedMirrorFileIsRejected(t *testing.T) {
	ctx := context.Background()
	spec, _ := Lookup("kc1")
	want, _ := spec.File("kc1.arff")
	mirror := copyToTempMirror(t, "kc1", "kc1.arff", 5000)
	data, _ := os.ReadFile(filepath.Join(mirror, "kc1", "kc1.arff"))
	got := sha256Hex(data)
	cache := t.TempDir()
	s := Source{Mirror: mirror, Cache: cache, Client: offlineClient(t)}
	_, err := s.Open(ctx, "kc1", "kc1.arff")
	if err == nil {
		t.Fatal("corrupted kc1.arff accepted")
	}
	for _, part := range []string{"kc1.arff", got, want.SHA256} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	if _, err := s.Table(ctx, "kc1"); err == nil {
		t.Error("Table loaded a corrupted file")
	}
	if files := filesUnder(t, cache); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

func TestCorruptedCompressedMirrorFileIsRejected(t *testing.T) {
	spec, _ := Lookup("kin8nm")
	want, _ := spec.File("kin8nm.arff.gz")
	mirror := copyToTempMirror(t, "kin8nm", "kin8nm.arff.gz", 100000)
	data, _ := os.ReadFile(filepath.Join(mirror, "kin8nm", "kin8nm.arff.gz"))
	cache := t.TempDir()
	s := Source{Mirror: mirror, Cache: cache, Client: offlineClient(t)}
	err := s.Verify(context.Background(), "kin8nm")
	if err == nil {
		t.Fatal("corrupted kin8nm.arff.gz accepted")
	}
	for _, part := range []string{"kin8nm.arff.gz", sha256Hex(data), want.StoredSHA256} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	if files := filesUnder(t, cache); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

func TestVerifiedFileIsHashedOncePerVersion(t *testing.T) {
	mirror := copyToTempMirror(t, "kc1", "kc1.arff", -1)
	s := Source{Mirror: mirror, Client: offlineClient(t)}
	path := filepath.Join(mirror, "kc1", "kc1.arff")
	if isVerified(path) {
		t.Fatal("verified before any check")
	}
	if err := s.Verify(context.Background(), "kc1"); err != nil {
		t.Fatal(err)
	}
	if !isVerified(path) {
		t.Fatal("not remembered after a successful check")
	}
	// A new version of the file (other size and mtime) must be checked again, and fail.
	data, _ := os.ReadFile(path)
	os.WriteFile(path, append(data, '\n'), 0o644)
	os.Chtimes(path, time.Now(), time.Now().Add(time.Hour))
	if isVerified(path) {
		t.Fatal("changed file still counted as verified")
	}
	if err := s.Verify(context.Background(), "kc1"); err == nil {
		t.Fatal("changed file accepted")
	}
}

func TestVerifyReportsMissingNeededFile(t *testing.T) {
	s := Source{Mirror: t.TempDir(), Cache: t.TempDir(), Client: offlineClient(t)}
	err := s.Verify(context.Background(), "boston")
	if err == nil || !strings.Contains(err.Error(), "housing.data") || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("error %v should say housing.data is missing", err)
	}
	if s.Has("boston", "housing.data") || s.Has("nosuchset", "x") {
		t.Fatal("Has reports files that are not there")
	}
}

// An optional file that no upstream serves and no recipe builds (documentation the mirror's
// makers derived by hand) can only come from a mirror, and the error says so.
func TestDerivedFileNeedsMirror(t *testing.T) {
	s := Source{Cache: t.TempDir(), Client: offlineClient(t)}
	_, err := s.Open(context.Background(), "faces_lfw", "lfw_all_people_counts.tsv")
	if err == nil || !strings.Contains(err.Error(), "derived from") || !strings.Contains(err.Error(), "LAB_DATA_MIRROR") {
		t.Fatalf("error %v should say what the file is derived from and how to set a mirror", err)
	}
}

// testServer serves content at /file, counting requests.
func testServer(t *testing.T, content []byte, hits *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/file" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(content)))
		w.Write(content)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func testSpec(url, sha, compression string) (Spec, FileSpec) {
	f := FileSpec{Name: "data.csv", URL: url, Compression: compression, SHA256: sha}
	if compression == "gzip" {
		f.Name = "data.csv.gz"
	}
	return Spec{Name: "testset", Files: []FileSpec{f}}, f
}

func TestDownloadVerifiesStoresAndReportsProgress(t *testing.T) {
	content := bytes.Repeat([]byte("1.5,2.5,x\n"), 5000)
	var hits atomic.Int32
	srv := testServer(t, content, &hits)
	var log bytes.Buffer
	s := Source{Cache: t.TempDir(), Log: &log, Client: srv.Client()}
	spec, f := testSpec(srv.URL+"/file", sha256Hex(content), "")
	path, err := s.ensure(context.Background(), spec, f)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(s.Cache, "testset", "data.csv") {
		t.Fatalf("stored at %s", path)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, content) {
		t.Fatal("stored content differs")
	}
	if !strings.Contains(log.String(), "testset/data.csv done") || !strings.Contains(log.String(), strconv.Itoa(len(content))+" bytes") {
		t.Fatalf("progress log %q lacks the final line with the byte count", log.String())
	}
	if files := filesUnder(t, s.Cache); len(files) != 1 {
		t.Fatalf("cache holds %v, want just the file", files)
	}
	// Present now: no second download.
	if _, err := s.ensure(context.Background(), spec, f); err != nil || hits.Load() != 1 {
		t.Fatalf("second ensure: %v, %d requests", err, hits.Load())
	}
}

func TestDownloadCompressesPlainUpstreamForGzipFile(t *testing.T) {
	content := []byte("a,b\n1,2\n")
	var hits atomic.Int32
	srv := testServer(t, content, &hits)
	s := Source{Cache: t.TempDir(), Client: srv.Client()}
	spec, f := testSpec(srv.URL+"/file", sha256Hex(content), "gzip")
	path, err := s.ensure(context.Background(), spec, f)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := os.ReadFile(path)
	zr, err := gzip.NewReader(bytes.NewReader(stored))
	if err != nil {
		t.Fatalf("stored file is not gzip: %v", err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Equal(plain, content) {
		t.Fatalf("stored content %q", plain)
	}
	rc, err := s.open(context.Background(), spec, f)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if got, _ := io.ReadAll(rc); !bytes.Equal(got, content) {
		t.Fatalf("open returned %q", got)
	}
}

func TestDownloadChecksumMismatchLeavesNothing(t *testing.T) {
	content := []byte("tampered content\n")
	var hits atomic.Int32
	srv := testServer(t, content, &hits)
	s := Source{Cache: t.TempDir(), Client: srv.Client()}
	spec, f := testSpec(srv.URL+"/file", hex64, "")
	_, err := s.ensure(context.Background(), spec, f)
	if err == nil {
		t.Fatal("mismatching download accepted")
	}
	for _, part := range []string{"data.csv", sha256Hex(content), hex64} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	if files := filesUnder(t, s.Cache); len(files) != 0 {
		t.Fatalf("files left behind: %v", files)
	}
}

func TestDownload404IsAClearError(t *testing.T) {
	var hits atomic.Int32
	srv := testServer(t, nil, &hits)
	s := Source{Cache: t.TempDir(), Client: srv.Client()}
	spec, f := testSpec(srv.URL+"/missing", hex64, "")
	_, err := s.ensure(context.Background(), spec, f)
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), srv.URL+"/missing") {
		t.Fatalf("error %v should give the status and the URL", err)
	}
	if files := filesUnder(t, s.Cache); len(files) != 0 {
		t.Fatalf("files left behind: %v", files)
	}
}

func TestDownloadCancelledMidwayLeavesNoFile(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2000000")
		w.Write(make([]byte, 100000))
		w.(http.Flusher).Flush()
		close(started)
		<-r.Context().Done() // never send the rest
	}))
	defer srv.Close()
	go func() {
		<-started
		cancel()
	}()
	s := Source{Cache: t.TempDir(), Client: srv.Client()}
	spec, f := testSpec(srv.URL+"/file", hex64, "")
	_, err := s.ensure(ctx, spec, f)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if files := filesUnder(t, s.Cache); len(files) != 0 {
		t.Fatalf("files left behind: %v", files)
	}
}

// TestCovtypeFullFileIsPreferredAndChecked puts a (too short) full covtype.data.gz in a mirror:
// the loader must pick it over the partial files and reject it by its checksum.
func TestCovtypeFullFileIsPreferredAndChecked(t *testing.T) {
	mirror := t.TempDir()
	os.MkdirAll(filepath.Join(mirror, "covtype"), 0o755)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	row := "2596,51,3,258,0,510,221,232,148,6279" + strings.Repeat(",0", 44) + ",5\n"
	io.WriteString(zw, row+row)
	zw.Close()
	os.WriteFile(filepath.Join(mirror, "covtype", "covtype.data.gz"), buf.Bytes(), 0o644)
	s := Source{Mirror: mirror, Cache: t.TempDir(), Client: offlineClient(t)}
	_, err := s.Table(context.Background(), "covtype")
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") || !strings.Contains(err.Error(), "covtype.data.gz") {
		t.Fatalf("error %v, want a checksum mismatch of the full file", err)
	}
}

// TestCovtypeWithoutPartialFilesDownloadsTheFullOne: with no mirror holding the partial files,
// Fetch goes for the full UCI file, the only one covtype requires.
func TestCovtypeWithoutPartialFilesDownloadsTheFullOne(t *testing.T) {
	var asked atomic.Value
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		asked.Store(r.URL.String())
		return nil, errors.New("no network in this test")
	})}
	s := Source{Cache: t.TempDir(), Client: client}
	err := s.Fetch(context.Background(), "covtype")
	spec, _ := Lookup("covtype")
	full, _ := spec.File(covtypeFull)
	if err == nil || asked.Load() != full.URL {
		t.Fatalf("Fetch: %v, asked for %v, want a download of %s", err, asked.Load(), full.URL)
	}
}

func TestDefaultSourceReadsEnvironment(t *testing.T) {
	t.Setenv("LAB_DATA_MIRROR", "/some/mirror")
	t.Setenv("LAB_DATA_CACHE", "/some/cache")
	t.Setenv("LAB_DATA_UPSTREAM", "http://127.0.0.1:1")
	if MirrorEnv != "LAB_DATA_MIRROR" || CacheEnv != "LAB_DATA_CACHE" || UpstreamEnv != "LAB_DATA_UPSTREAM" {
		t.Fatal("the environment variables are part of the documented interface: do not rename them")
	}
	s := DefaultSource()
	if s.Mirror != "/some/mirror" || s.Cache != "/some/cache" || s.Upstream != "http://127.0.0.1:1" || s.Log != os.Stderr || s.Client != nil {
		t.Fatalf("DefaultSource() = %+v", s)
	}
	t.Setenv("LAB_DATA_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	t.Setenv("HOME", "/home/someone")
	if s := DefaultSource(); !strings.HasSuffix(s.Cache, filepath.Join("kernellab", "datasets")) {
		t.Fatalf("default cache %q", s.Cache)
	}
}

// tarGz returns a gzip-compressed tar archive holding the given members, in byte order of their
// names.
func tarGz(t *testing.T, members map[string][]byte) []byte {
	t.Helper()
	var entries []tarEntry
	for _, name := range slices.Sorted(maps.Keys(members)) {
		entries = append(entries, tarEntry{name, members[name]})
	}
	return makeTGZ(t, entries)
}

// A file with a Member is taken out of the archive at its URL, stored with the manifest's
// compression and verified; an archive without the member is an error that leaves no file.
func TestDownloadArchiveMember(t *testing.T) {
	content := []byte("1,2,3\n4,5,6\n")
	archive := tarGz(t, map[string][]byte{"Dir/README": []byte("readme\n"), "Dir/x.data": content, "Dir/y.data": []byte("other\n")})
	var hits atomic.Int32
	srv := testServer(t, archive, &hits)
	s := Source{Cache: t.TempDir(), Client: srv.Client()}
	spec, f := testSpec(srv.URL+"/file", sha256Hex(content), "gzip")
	f.Member = "Dir/x.data"
	spec.Files[0] = f
	rc, err := s.open(context.Background(), spec, f)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, content) {
		t.Fatalf("member content %q, want %q", got, content)
	}

	f.Member = "Dir/missing.data"
	spec.Files[0] = f
	other := Source{Cache: t.TempDir(), Client: srv.Client()}
	if _, err := other.ensure(context.Background(), spec, f); err == nil || !strings.Contains(err.Error(), "no member Dir/missing.data") {
		t.Fatalf("missing member: %v", err)
	}
	if files := filesUnder(t, other.Cache); len(files) != 0 {
		t.Fatalf("a failed download left %v", files)
	}
}

// Verify reports every bad file of a data set, not only the first (the issue: kc1's bad .csv went
// unreported after its bad .arff).
func TestVerifyReportsEveryBadFile(t *testing.T) {
	mirror := copyToTempMirror(t, "kc1", "kc1.arff", 5000)
	csvData, err := os.ReadFile(filepath.Join(mirrortest.Dir(t), "kc1", "kc1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	csvData[100] ^= 1
	if err := os.WriteFile(filepath.Join(mirror, "kc1", "kc1.csv"), csvData, 0o644); err != nil {
		t.Fatal(err)
	}
	s := Source{Mirror: mirror, Cache: t.TempDir(), Client: offlineClient(t)}
	err = s.Verify(context.Background(), "kc1")
	if err == nil || !strings.Contains(err.Error(), "kc1.arff") || !strings.Contains(err.Error(), "kc1.csv") {
		t.Fatalf("got %v, want both kc1.arff and kc1.csv reported", err)
	}
}

// A mirror that does not exist is an error, never a silent fall-back to downloading.
func TestMissingMirrorIsAnError(t *testing.T) {
	s := Source{Mirror: filepath.Join(t.TempDir(), "nope"), Cache: t.TempDir(), Client: offlineClient(t)}
	for name, op := range map[string]func() error{
		"fetch":  func() error { return s.Fetch(context.Background(), "kc1") },
		"verify": func() error { return s.Verify(context.Background(), "kc1") },
		"table":  func() error { _, err := s.Table(context.Background(), "kc1"); return err },
	} {
		if err := op(); err == nil || !strings.Contains(err.Error(), "LAB_DATA_MIRROR") {
			t.Errorf("%s: got %v", name, err)
		}
	}
}
