package dataset

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset/internal/mirrortest"
)

// offlineClient fails the test on any network access.
func offlineClient(t testing.TB) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		t.Errorf("unexpected download of %s", r.URL)
		return nil, io.ErrUnexpectedEOF
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// mirrorSource reads the real mirror, with an empty cache and no network.
func mirrorSource(t testing.TB) Source {
	return Source{Mirror: mirrortest.Dir(t), Cache: t.TempDir(), Client: offlineClient(t)}
}

var mirrorFolders = []string{"adult", "boston", "breast_cancer", "corpus_20newsgroups", "corpus_imdb_reviews", "covtype",
	"diabetes", "diamonds", "enzymes", "faces_lfw", "faces_olivetti", "gamma", "houses", "kc1", "kin8nm", "kr_vs_kp",
	"lfw_pairs", "mnist", "mutag", "ptc_mr", "spambase", "steel_plates"}

func TestManifestListsEveryDataSetSorted(t *testing.T) {
	specs, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
		if s.Title == "" || s.Licence == "" || s.Citation == "" || s.Homepage == "" || s.Target == "" {
			t.Errorf("%s: title, licence, citation, homepage and target must all be set", s.Name)
		}
	}
	if strings.Join(names, " ") != strings.Join(mirrorFolders, " ") {
		t.Fatalf("data sets %v, want %v", names, mirrorFolders)
	}
	// Callers get copies: changing one must not change the next answer.
	specs[0].Files[0].SHA256 = "changed"
	again, _ := Manifest()
	if again[0].Files[0].SHA256 == "changed" {
		t.Fatal("Manifest returned shared file slices")
	}
}

// TestManifestHashesMatchMirror recomputes, with the standard library directly, the sha256 of
// every mirror file as stored and decompressed, and checks that every mirror file is listed.
func TestManifestHashesMatchMirror(t *testing.T) {
	mirror := mirrortest.Dir(t)
	specs, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, spec := range specs {
		for _, f := range spec.Files {
			rel := spec.Name + "/" + f.Name
			listed[rel] = true
			path := filepath.Join(mirror, spec.Name, f.Name)
			if _, err := os.Stat(path); err != nil {
				if spec.Name == "covtype" && f.Name == covtypeFull {
					continue // the full file is not in the mirror, only the two partial ones
				}
				t.Errorf("%s: %v", rel, err)
				continue
			}
			stored, content := sha256Of(t, path, f.Compression == "gzip")
			if f.Compression == "" && stored != f.SHA256 {
				t.Errorf("%s: sha256 %s, manifest %s", rel, stored, f.SHA256)
			}
			if f.Compression != "" && (stored != f.StoredSHA256 || content != f.SHA256) {
				t.Errorf("%s: stored sha256 %s content %s, manifest %s and %s", rel, stored, content, f.StoredSHA256, f.SHA256)
			}
		}
	}
	for _, dir := range mirrorFolders {
		entries, err := os.ReadDir(filepath.Join(mirror, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != "SOURCE.md" && !listed[dir+"/"+e.Name()] {
				t.Errorf("mirror file %s/%s is not in the manifest", dir, e.Name())
			}
		}
	}
}

func sha256Of(t *testing.T, path string, gz bool) (stored, content string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, bufio.NewReader(f)); err != nil {
		t.Fatal(err)
	}
	stored = hex.EncodeToString(h.Sum(nil))
	if !gz {
		return stored, ""
	}
	f.Seek(0, io.SeekStart)
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	h.Reset()
	if _, err := io.Copy(h, zr); err != nil {
		t.Fatal(err)
	}
	return stored, hex.EncodeToString(h.Sum(nil))
}

// TestManifestHashesAreThoseOfSourceMD checks that every checksum SOURCE.md gives for a file of
// the mirror is in the manifest (SOURCE.md is the curators' independent record).
func TestManifestHashesAreThoseOfSourceMD(t *testing.T) {
	mirror := mirrortest.Dir(t)
	specs, _ := Manifest()
	for _, spec := range specs {
		known := map[string]bool{}
		for _, f := range spec.Files {
			known[f.SHA256], known[f.StoredSHA256] = true, true
		}
		text, err := os.ReadFile(filepath.Join(mirror, spec.Name, "SOURCE.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, word := range strings.FieldsFunc(string(text), func(r rune) bool { return !strings.ContainsRune("0123456789abcdef", r) }) {
			// lfw_pairs/SOURCE.md also quotes the upstream lfw-funneled.tgz checksum, not stored here.
			if len(word) == 64 && !known[word] && word != "b47c8422c8cded889dc5a13418c4bc2abbda121092b3533a83306f90d900100a" {
				t.Errorf("%s/SOURCE.md gives sha256 %s, which the manifest lacks", spec.Name, word)
			}
		}
	}
}

func TestParseManifestRejectsBadEntries(t *testing.T) {
	const good = `{"name":"x.csv","url":"https://e.org/x.csv","compression":"","sha256":"` + hex64 + `","optional":false}`
	wrap := func(sets string) string { return `{"version":1,"datasets":[` + sets + `]}` }
	set := func(name, task, files string) string {
		return `{"name":"` + name + `","title":"t","task":"` + task + `","files":[` + files + `]}`
	}
	if _, err := parseManifest([]byte(wrap(set("a", "regression", good)))); err != nil {
		t.Fatalf("valid manifest rejected: %v", err)
	}
	cases := map[string]string{
		"duplicate data set":   wrap(set("a", "regression", good) + "," + set("a", "regression", good)),
		"duplicate file":       wrap(set("a", "regression", good+","+good)),
		"unknown task":         wrap(set("a", "clustering", good)),
		"bad name":             wrap(set("A b", "regression", good)),
		"no files":             wrap(set("a", "regression", "")),
		"short hash":           wrap(set("a", "regression", strings.Replace(good, hex64, "abc", 1))),
		"upper-case hash":      wrap(set("a", "regression", strings.Replace(good, hex64, strings.ToUpper(hex64), 1))),
		"http url":             wrap(set("a", "regression", strings.Replace(good, "https://", "http://", 1))),
		"no url nor derived":   wrap(set("a", "regression", strings.Replace(good, "https://e.org/x.csv", "", 1))),
		"path in file name":    wrap(set("a", "regression", strings.Replace(good, `"x.csv"`, `"../x.csv"`, 1))),
		"unknown compression":  wrap(set("a", "regression", strings.Replace(good, `"compression":""`, `"compression":"xz"`, 1))),
		"needed file, no hash": wrap(set("a", "regression", strings.Replace(good, hex64, "", 1))),
		"stored hash of plain": wrap(set("a", "regression", strings.Replace(good, `"optional"`, `"stored_sha256":"`+hex64+`","optional"`, 1))),
		"unknown field":        wrap(set("a", "regression", strings.Replace(good, `"optional"`, `"size":3,"optional"`, 1))),
		"wrong version":        strings.Replace(wrap(set("a", "regression", good)), `"version":1`, `"version":2`, 1),
		"not json":             `{"version":1,`,
	}
	for name, text := range cases {
		if _, err := parseManifest([]byte(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestLookup(t *testing.T) {
	spec, err := Lookup("mnist")
	if err != nil || spec.Task != "classification" || len(spec.Files) != 4 {
		t.Fatalf("Lookup(mnist) = %+v, %v", spec, err)
	}
	_, err = Lookup("mnits")
	if err == nil || !strings.Contains(err.Error(), "mnits") || !strings.Contains(err.Error(), "mnist") || !strings.Contains(err.Error(), "adult") {
		t.Fatalf("unknown name: error %v should name it and list the known names", err)
	}
	if _, err := spec.File("nope.gz"); err == nil || !strings.Contains(err.Error(), "train-images-idx3-ubyte.gz") {
		t.Fatalf("unknown file: error %v should list the files", err)
	}
}

func TestEveryNeededFileIsDownloadableOrDerived(t *testing.T) {
	specs, _ := Manifest()
	names := map[string]bool{}
	for _, s := range specs {
		for _, f := range s.Files {
			if f.URL == "" && f.DerivedFrom == "" {
				t.Errorf("%s/%s: neither url nor derived_from", s.Name, f.Name)
			}
			names[s.Name] = true
		}
	}
	var loaders []string
	for n := range tableLoaders {
		loaders = append(loaders, n)
		if !names[n] {
			t.Errorf("table loader %s has no manifest entry", n)
		}
	}
	sort.Strings(loaders)
	if len(loaders) != 15 {
		t.Errorf("%d table loaders, want 15: %v", len(loaders), loaders)
	}
}
