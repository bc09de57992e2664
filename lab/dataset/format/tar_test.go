package format

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// buildTar writes a small archive with a folder, two files and a symbolic link.
func buildTar(t testing.TB) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(hdr *tar.Header, body string) {
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, body); err != nil {
			t.Fatal(err)
		}
	}
	add(&tar.Header{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755}, "")
	add(&tar.Header{Name: "d/a.txt", Typeflag: tar.TypeReg, Mode: 0o644, Size: 5}, "hello")
	add(&tar.Header{Name: "d/link", Typeflag: tar.TypeSymlink, Linkname: "a.txt"}, "")
	add(&tar.Header{Name: "b.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: 3}, "\x00\x01\x02")
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWalkTar(t *testing.T) {
	type member struct {
		path string
		size int64
		body string
	}
	var got []member
	err := WalkTar(bytes.NewReader(buildTar(t)), "t.tar", func(path string, size int64, body io.Reader) error {
		b, err := io.ReadAll(body)
		got = append(got, member{path, size, string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []member{{"d/a.txt", 5, "hello"}, {"b.bin", 3, "\x00\x01\x02"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestWalkTarStopsOnVisitError(t *testing.T) {
	stop := errors.New("stop here")
	visits := 0
	err := WalkTar(bytes.NewReader(buildTar(t)), "t.tar", func(string, int64, io.Reader) error {
		visits++
		return stop
	})
	if !errors.Is(err, stop) || visits != 1 || !strings.HasPrefix(err.Error(), "t.tar: d/a.txt: stop here") {
		t.Errorf("got %v after %d visits", err, visits)
	}
}

func TestWalkTarErrors(t *testing.T) {
	archive := buildTar(t)
	skip := func(string, int64, io.Reader) error { return nil }
	cases := []struct {
		name  string
		input []byte
		visit func(string, int64, io.Reader) error
		want  string
	}{
		{"empty", nil, skip, "t.tar: offset 0: empty input, not a tar archive"},
		{"garbage", bytes.Repeat([]byte("x"), 1024), skip, "t.tar: offset 512: bad tar archive"},
		{"truncated", archive[:600], skip, "t.tar: offset 600: bad tar archive: unexpected EOF"},
		{"nil visit", archive, nil, "t.tar: visit function is nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := WalkTar(bytes.NewReader(c.input), "t.tar", c.visit)
			var pe *ParseError
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &pe) {
				t.Errorf("got error %v, want a *ParseError with prefix %q", err, c.want)
			}
		})
	}
}

func FuzzWalkTar(f *testing.F) {
	archive := buildTar(f)
	f.Add(archive)
	f.Add(archive[:600])
	f.Add(bytes.Repeat([]byte{0}, 1024))
	f.Add([]byte("not a tar"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var total int64
		err := WalkTar(bytes.NewReader(data), "fuzz.tar", func(path string, size int64, body io.Reader) error {
			n, err := io.Copy(io.Discard, body)
			if err == nil && n != size {
				t.Fatalf("%s: read %d bytes, header says %d", path, n, size)
			}
			total += n
			return err
		})
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.tar") {
			t.Fatalf("error without the file name: %v", err)
		}
		if total > int64(len(data)) {
			t.Fatalf("read %d bytes of members from a %d-byte archive", total, len(data))
		}
	})
}

// TarWriter's archives read back member for member, are whole 10,240-byte records, and refuse
// names GNU tar would need an extension header for. (Their bytes against GNU tar's layout are
// checked in lab/dataset's recipe tests.)
func TestTarWriterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	tw := NewTarWriter(&buf, time.Unix(1262304000, 0))
	want := map[string]string{"a/one": "1", "a/two": strings.Repeat("x", 700), "empty": ""}
	for _, name := range []string{"a/one", "a/two", "empty"} {
		if err := tw.Add(name, []byte(want[name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Add(strings.Repeat("n", 100), nil); err == nil {
		t.Error("a 100-byte name is accepted")
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.Len()%10240 != 0 {
		t.Fatalf("archive of %d bytes, not whole records", buf.Len())
	}
	got := map[string]string{}
	err := WalkTar(&buf, "x.tar", func(p string, _ int64, body io.Reader) error {
		b, err := io.ReadAll(body)
		got[p] = string(b)
		return err
	})
	if err != nil || len(got) != len(want) || got["a/two"] != want["a/two"] || got["a/one"] != "1" {
		t.Fatalf("read back %d members (%v)", len(got), err)
	}
}
