package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset/internal/mirrortest"
)

// readGzipLines returns the lines (with their "\n") of a gzipped mirror file.
func readGzipLines(t *testing.T, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i := range lines {
		lines[i] = append(lines[i], '\n')
	}
	return lines
}

// A file laid out like the UCI one at the rows the mirror knows passes the full-file check; the
// shape-only fake of the issue (the 20,000 known rows repeated to 581,012) fails it.
func TestCovtypeFullFileCheck(t *testing.T) {
	dir := filepath.Join(mirrortest.Dir(t), "covtype")
	prefix := readGzipLines(t, filepath.Join(dir, "covtype.20k.data.gz"))
	sample := readGzipLines(t, filepath.Join(dir, "covsample.data.gz"))
	spec, err := Lookup("covtype")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := spec.File("covtype.20k.data.gz")
	s, _ := spec.File("covsample.data.gz")
	build := func(line func(i int) []byte) io.Reader {
		pr, pw := io.Pipe()
		go func() {
			for i := 1; i <= CovtypeRows; i++ {
				if _, err := pw.Write(line(i)); err != nil {
					return
				}
			}
			pw.Close()
		}()
		return pr
	}
	known := func(i int) []byte {
		switch {
		case i <= len(prefix):
			return prefix[i-1]
		case (i-15121)%50 == 0 && (i-15121)/50 < len(sample):
			return sample[(i-15121)/50]
		}
		return prefix[i%len(prefix)]
	}
	gotP, gotS, err := covtypeKnownRowsHashes(build(known))
	if err != nil || gotP != p.SHA256 || gotS != s.SHA256 {
		t.Fatalf("UCI-like file: %s %s %v", gotP, gotS, err)
	}
	repeated := func(i int) []byte { return prefix[(i-1)%len(prefix)] }
	gotP, gotS, err = covtypeKnownRowsHashes(build(repeated))
	if err != nil || gotP != p.SHA256 || gotS == s.SHA256 {
		t.Fatalf("repeated rows: prefix %v, sample hash accepted %v, %v", gotP == p.SHA256, gotS == s.SHA256, err)
	}
	if !strings.HasPrefix(p.SHA256, "55ff5c85") {
		t.Errorf("manifest sha256 of the prefix changed: %s", p.SHA256)
	}
}

// Label calls Covertype whole only for the full UCI file, and its partial copy by the rows it
// holds: the loaded subset's count, from the mirror's SOURCE.md (a 20,000-row prefix and an
// 11,318-row sample sharing 98 rows), is the number the label states.
func TestCovtypeLabel(t *testing.T) {
	const subset = "covtype (subset: 31,220 of 581,012 rows)"
	for _, c := range []struct{ name, variant, want string }{
		{"covtype", CovtypeFull, "covtype"},
		{"covtype", CovtypeSubset, subset},
		{"covtype", "", subset},
		{"kc1", "promise", "kc1"},
		{"adult", "", "adult"},
	} {
		if got := Label(c.name, c.variant); got != c.want {
			t.Errorf("Label(%q, %q) = %q, want %q", c.name, c.variant, got, c.want)
		}
		if got := Partial(c.name, c.variant); got != (c.want != c.name) {
			t.Errorf("Partial(%q, %q) = %v", c.name, c.variant, got)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 31220: "31,220", 581012: "581,012", 1234567: "1,234,567"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
	tab, err := mirrorSource(t).Table(context.Background(), "covtype", Variant(CovtypeSubset))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 20000+11318-98 || tab.Len() != CovtypeSubsetRows || Label(tab.Name, tab.Variant) != subset {
		t.Errorf("subset: %d rows, labelled %q", tab.Len(), Label(tab.Name, tab.Variant))
	}
}
