// Package safefile writes files atomically: the content goes to a temporary file in the
// destination's folder, is synced, and is renamed over the destination only when complete.
// A crash or an error therefore never leaves a half-written result, figure or download behind.
package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write creates path (and its parent folders) atomically with the bytes that fill writes.
// If fill returns an error, the destination is left untouched and the temporary file removed.
func Write(path string, fill func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	buf := bufio.NewWriterSize(tmp, 1<<16)
	if err = fill(buf); err != nil {
		return targetError(err, tmp.Name(), path)
	}
	if err = buf.Flush(); err != nil {
		return targetError(err, tmp.Name(), path)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("safefile: syncing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("safefile: closing %s: %w", path, err)
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("safefile: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("safefile: renaming into %s: %w", path, err)
	}
	return nil
}

// targetError names the destination in an error about the temporary file (a full disk while
// writing, say): the user knows the file they asked for, not the temporary name. Other errors
// (the caller's own, from fill) are returned as they are.
func targetError(err error, tmp, path string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == tmp {
		return fmt.Errorf("safefile: writing %s: %w", path, pe.Err)
	}
	return err
}

// WriteBytes is Write for content already in memory.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
