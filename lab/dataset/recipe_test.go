package dataset

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testEpoch is the modification time of the test recipes' tar members.
var testEpoch = time.Unix(1262304000, 0)

// upstreamDouble plays the upstream servers in tests: it serves each archive at /<name> with its
// Content-Length, and under /truncated/<name> announces the full length but sends half, and
// under /error/<name> answers 500.
func upstreamDouble(t *testing.T, files map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mode, name, found := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if !found {
			mode, name = "", mode
		}
		data, ok := files[name]
		switch {
		case !ok:
			http.NotFound(w, r)
		case mode == "error":
			http.Error(w, "upstream is down", http.StatusInternalServerError)
		case mode == "truncated":
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			w.Write(data[:len(data)/2])
		default:
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			w.Write(data)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// withRecipe registers r under name for the duration of the test.
func withRecipe(t *testing.T, name string, r recipe) {
	t.Helper()
	if _, ok := recipes[name]; ok {
		t.Fatalf("recipe %s exists", name)
	}
	recipes[name] = r
	t.Cleanup(func() { delete(recipes, name) })
}

// pickTwo is a test recipe: from the tar.gz source "src.tar.gz" it keeps the members under keep/
// and writes them as a canonical tar (out.tar.gz) and a listing of their names (list.txt).
var pickTwo = recipe{
	sources: []string{"src.tar.gz"},
	outputs: []string{"out.tar.gz", "list.txt"},
	build: func(ctx context.Context, b *build) (string, error) {
		m, err := b.readTar(ctx, "src.tar.gz", func(p string) (string, bool) { return p, strings.HasPrefix(p, "keep/") })
		if err != nil {
			return "", err
		}
		if len(m) != 2 {
			return "", fmt.Errorf("%d members under keep/, want 2: %w", len(m), errMissing)
		}
		if err := b.writeTar("out.tar.gz", testEpoch, m, m.sorted()); err != nil {
			return "", err
		}
		return "", b.create("list.txt", func(w io.Writer) error {
			_, err := io.WriteString(w, strings.Join(m.sorted(), "\n")+"\n")
			return err
		})
	},
}

// pickTwoSpec describes a data set made by pickTwo from the double's src.tar.gz at base+path.
// The expected sha256 of out.tar.gz is that of a canonical tar of the two members, computed
// byte by byte from the tar format's definition in canonicalTwo.
func pickTwoSpec(base, path, srcSHA string) Spec {
	return Spec{Name: "recipeset", Task: "corpus",
		Files: []FileSpec{
			{Name: "out.tar.gz", Recipe: "pick-two", Compression: "gzip", SHA256: sha256Hex(canonicalTwo())},
			{Name: "list.txt", Recipe: "pick-two", SHA256: sha256Hex([]byte("keep/a\nkeep/b\n"))},
		},
		Sources: []UpstreamSpec{{Name: "src.tar.gz", URL: base + path, SHA256: srcSHA}},
	}
}

// canonicalTwo is the canonical tar of keep/a = "alpha" and keep/b = "beta" (mtime testEpoch),
// written out field by field: 512-byte GNU headers (name, mode 0000644, uid and gid 0000000,
// size and mtime as 11 octal digits, checksum as 6 octal digits, NUL, space, type '0', magic
// "ustar  "), data padded to 512 bytes, two zero blocks, and zeros up to 10,240 bytes.
func canonicalTwo() []byte {
	out := make([]byte, 0, 10240)
	for _, m := range []struct{ name, data string }{{"keep/a", "alpha"}, {"keep/b", "beta"}} {
		h := make([]byte, 512)
		copy(h, m.name)
		copy(h[100:], "0000644\x00")
		copy(h[108:], "0000000\x00")
		copy(h[116:], "0000000\x00")
		copy(h[124:], fmt.Sprintf("%011o\x00", len(m.data)))
		copy(h[136:], fmt.Sprintf("%011o\x00", testEpoch.Unix()))
		copy(h[148:], "        ")
		h[156] = '0'
		copy(h[257:], "ustar  \x00")
		sum := 0
		for _, c := range h {
			sum += int(c)
		}
		copy(h[148:], fmt.Sprintf("%06o\x00 ", sum))
		out = append(out, h...)
		block := make([]byte, 512)
		copy(block, m.data)
		out = append(out, block...)
	}
	return append(out, make([]byte, 10240-len(out))...)
}

func pickTwoSource(t *testing.T) []byte {
	return tarGz(t, map[string][]byte{"keep/b": []byte("beta"), "keep/a": []byte("alpha"), "drop/c": []byte("gamma")})
}

// A recipe downloads its source, builds its outputs, checks them against the manifest's sha256
// and moves them into the cache, where they are then read like downloaded files.
func TestRecipeBuildsVerifiedFilesIntoTheCache(t *testing.T) {
	withRecipe(t, "pick-two", pickTwo)
	src := pickTwoSource(t)
	srv := upstreamDouble(t, map[string][]byte{"src.tar.gz": src})
	spec := pickTwoSpec(srv.URL, "/src.tar.gz", sha256Hex(src))
	if err := checkRecipes(spec); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	cache := t.TempDir()
	s := Source{Cache: cache, Log: &log, Client: srv.Client()}
	if err := s.fetchSpec(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	got := filesUnder(t, cache)
	want := []string{filepath.Join(cache, "recipeset", "list.txt"), filepath.Join(cache, "recipeset", "out.tar.gz")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("cache holds %v, want %v (no staging folder, no source left)", got, want)
	}
	rc, err := s.open(context.Background(), spec, spec.Files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, _ := io.ReadAll(rc)
	if string(data) != string(canonicalTwo()) {
		t.Fatal("the built tar differs from the canonical bytes")
	}
	if !strings.Contains(log.String(), "building out.tar.gz, list.txt from upstream (recipe pick-two") {
		t.Errorf("log %q does not say what is built", log.String())
	}
}

// Every way a recipe can fail leaves the cache without any output and without its staging
// folder, and says what went wrong.
func TestRecipeFailuresLeaveNothing(t *testing.T) {
	withRecipe(t, "pick-two", pickTwo)
	src := pickTwoSource(t)
	short := tarGz(t, map[string][]byte{"keep/a": []byte("alpha")})
	other := tarGz(t, map[string][]byte{"keep/a": []byte("ALPHA"), "keep/b": []byte("beta")})
	srv := upstreamDouble(t, map[string][]byte{"src.tar.gz": src, "short.tar.gz": short, "other.tar.gz": other})
	cases := []struct {
		name, path, sha, want string
	}{
		{"server error", "/error/src.tar.gz", sha256Hex(src), "HTTP 500"},
		{"not found", "/nothing.tar.gz", sha256Hex(src), "HTTP 404"},
		{"truncated download", "/truncated/src.tar.gz", sha256Hex(src), "unexpected EOF"},
		{"wrong checksum", "/src.tar.gz", sha256Hex([]byte("other")), "checksum mismatch: sha256 of the download is"},
		{"member missing", "/short.tar.gz", sha256Hex(short), "missing from the upstream archive"},
		{"content differs", "/other.tar.gz", sha256Hex(other), "the upstream data differ from the reference copy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cache := t.TempDir()
			s := Source{Cache: cache, Client: srv.Client()}
			err := s.fetchSpec(context.Background(), pickTwoSpec(srv.URL, c.path, c.sha))
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "recipeset") {
				t.Fatalf("error %v, want one naming the data set and saying %q", err, c.want)
			}
			if left := filesUnder(t, cache); len(left) > 0 {
				t.Fatalf("the cache keeps %v after the failure", left)
			}
			if entries, _ := os.ReadDir(filepath.Join(cache, "recipeset")); len(entries) > 0 {
				t.Fatalf("the cache keeps %v after the failure", entries)
			}
		})
	}
}

// A cancelled context stops a recipe's download with the context's error and leaves nothing.
func TestRecipeCancelled(t *testing.T) {
	withRecipe(t, "pick-two", pickTwo)
	src := pickTwoSource(t)
	srv := upstreamDouble(t, map[string][]byte{"src.tar.gz": src})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cache := t.TempDir()
	s := Source{Cache: cache, Client: srv.Client()}
	err := s.fetchSpec(ctx, pickTwoSpec(srv.URL, "/src.tar.gz", sha256Hex(src)))
	if err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("error %v, want the cancellation", err)
	}
	if left := filesUnder(t, cache); len(left) > 0 {
		t.Fatalf("the cache keeps %v", left)
	}
}

// An output a recipe declares loose is kept although its bytes differ from the reference, with a
// note naming its sha256; the note makes later verifications accept exactly that file, and a
// changed file is rejected again.
func TestLooseRecipeOutputIsKeptWithItsNote(t *testing.T) {
	loose := pickTwo
	loose.loose = map[string]bool{"out.tar.gz": true}
	loose.build = func(ctx context.Context, b *build) (string, error) {
		if _, err := pickTwo.build(ctx, b); err != nil {
			return "", err
		}
		return "checked by the test recipe", nil
	}
	withRecipe(t, "pick-two", loose)
	other := tarGz(t, map[string][]byte{"keep/a": []byte("ALPHA"), "keep/b": []byte("beta")})
	srv := upstreamDouble(t, map[string][]byte{"other.tar.gz": other})
	spec := pickTwoSpec(srv.URL, "/other.tar.gz", sha256Hex(other))
	cache := t.TempDir()
	s := Source{Cache: cache, Client: srv.Client()}
	if err := s.fetchSpec(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cache, "recipeset", "out.tar.gz")
	note, err := os.ReadFile(path + recipeNoteSuffix)
	if err != nil || !strings.Contains(string(note), "recipe pick-two\nchecked by the test recipe") {
		t.Fatalf("note %q (%v)", note, err)
	}
	forget := func() {
		verified.Lock()
		delete(verified.stamps, path)
		verified.Unlock()
	}
	forget()
	if err := s.verifyFile(context.Background(), path, spec.Name, spec.Files[0]); err != nil {
		t.Fatalf("the noted output is rejected: %v", err)
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, tarGz(t, map[string][]byte{"keep/a": []byte("alpha!")}), 0o644)
	forget()
	if err := s.verifyFile(context.Background(), path, spec.Name, spec.Files[0]); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("a changed output is accepted: %v (was %d bytes)", err, len(data))
	}
}

// Every file the loaders need can be had without the mirror: it has an upstream URL, or a recipe
// that exists and reads only the data set's declared sources.
func TestEveryNeededFileHasAnUpstream(t *testing.T) {
	specs, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range specs {
		for _, f := range (Source{}).neededFiles(spec) {
			if f.URL == "" && f.Recipe == "" {
				t.Errorf("%s/%s: needed, but neither an upstream url nor a recipe", spec.Name, f.Name)
			}
		}
		for _, f := range spec.Files {
			if !f.Optional && f.URL == "" && f.Recipe == "" {
				t.Errorf("%s/%s: required, but neither an upstream url nor a recipe", spec.Name, f.Name)
			}
		}
		if err := checkRecipes(spec); err != nil {
			t.Errorf("%s: %v", spec.Name, err)
		}
	}
	// The check itself fails on such a file.
	bad := Spec{Name: "x", Task: "corpus", Files: []FileSpec{{Name: "f", DerivedFrom: "by hand", SHA256: strings.Repeat("0", 64)}}}
	if err := validateFile(bad.Files[0]); err == nil {
		t.Error("validateFile accepts a needed file with neither url nor recipe")
	}
	bad.Files[0].Recipe = "no-such-recipe"
	if err := checkRecipes(bad); err == nil {
		t.Error("checkRecipes accepts an unknown recipe")
	}
}

// Every recipe of the manifest fails cleanly when its upstream fails: a server error, a
// truncated body, an archive whose checksum is not the pinned one (or, for sources without a
// published checksum, whose content is not the data): an error naming the data set, and nothing
// left in the cache.
func TestEachRecipeFailsCleanly(t *testing.T) {
	junk := tarGz(t, map[string][]byte{"unrelated/file": []byte("not the data")})
	srv := upstreamDouble(t, map[string][]byte{"junk.tar.gz": junk})
	specs, err := Manifest()
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, spec := range specs {
		if len(spec.Sources) == 0 {
			continue
		}
		tested++
		for _, mode := range []struct{ name, path, want string }{
			{"server error", "/error/junk.tar.gz", "HTTP 500"},
			{"truncated download", "/truncated/junk.tar.gz", "unexpected EOF"},
			{"wrong archive", "/junk.tar.gz", ""},
		} {
			t.Run(spec.Name+"/"+mode.name, func(t *testing.T) {
				s := spec
				s.Sources = append([]UpstreamSpec(nil), spec.Sources...)
				for i := range s.Sources {
					s.Sources[i].URL = srv.URL + mode.path
				}
				cache := t.TempDir()
				src := Source{Cache: cache, Client: srv.Client()}
				err := src.fetchSpec(context.Background(), s)
				if err == nil || !strings.Contains(err.Error(), "dataset "+spec.Name) || !strings.Contains(err.Error(), mode.want) {
					t.Fatalf("error %v, want one naming %s and saying %q", err, spec.Name, mode.want)
				}
				if mode.want == "" && !strings.Contains(err.Error(), "checksum mismatch") && !strings.Contains(err.Error(), "recipe") {
					t.Fatalf("error %v says neither the checksum nor the recipe", err)
				}
				if left := filesUnder(t, cache); len(left) > 0 {
					t.Fatalf("the cache keeps %v", left)
				}
			})
		}
	}
	if tested != 5 {
		t.Errorf("%d data sets with recipes, want 5", tested)
	}
}
