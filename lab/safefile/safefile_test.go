package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteCreatesParentsAndContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "out.csv")
	if err := WriteBytes(path, []byte("x,y\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "x,y\n" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestFailedWriteKeepsOldFileAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half of the new content")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("want the fill error, got %v", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "old" {
		t.Fatalf("destination changed to %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary file left behind: %v", entries)
	}
}

// An error about the temporary file (a full disk, say) names the destination instead; the
// caller's own errors pass through unchanged.
func TestErrorsNameTheDestination(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fig.png")
	full := errors.New("no space left on device")
	err := Write(path, func(w io.Writer) error {
		matches, _ := filepath.Glob(filepath.Join(dir, ".fig.png.tmp-*"))
		if len(matches) != 1 {
			return errors.New("no temporary file")
		}
		return &fs.PathError{Op: "write", Path: matches[0], Err: full}
	})
	if !errors.Is(err, full) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), ".tmp-") {
		t.Fatalf("got %v", err)
	}
	mine := errors.New("plot failed")
	if err := Write(path, func(io.Writer) error { return mine }); err != mine {
		t.Fatalf("caller's error changed: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("a failed write left the destination")
	}
}
