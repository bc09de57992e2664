package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// errLocked is what tryLock returns when another process holds the lock.
var errLocked = errors.New("locked")

// lock takes the experiment's lock at one scale, <root>/<scale>/<ID>.lock, for the whole of a run or
// a merge: two `lab run` on one results folder would otherwise both do all the work and race on
// its files. The lock is an advisory file lock (flock on Unix), released by the kernel when the
// process ends however it ends, so a killed run never leaves a stale lock. A second run refuses at
// once with a message naming the holder (its pid and start time, which the holder writes into the
// lock file). Once the lock is held, temporary files left in the experiment's folders by a killed
// run are removed: no live writer can own them.
func (l layout) lock(id string) (unlock func(), err error) {
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return nil, fmt.Errorf("run: %s: %w", id, err)
	}
	path := filepath.Join(l.dir, l.id+".lock")
	if !writable(l.dir) {
		// A read-only results folder (finished results shared read-only, say) can be read but not
		// written by anyone, so there is nothing to lock; a run that needs to write fails there.
		return func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("run: %s: %w", id, err)
	}
	if err := tryLock(f); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("run: %s: another run is working on %s (%s); wait for it to finish or stop it",
				id, filepath.Join(l.dir, l.id), strings.TrimSpace(string(holder)))
		}
		return nil, fmt.Errorf("run: %s: locking %s: %w", id, path, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte("pid "+strconv.Itoa(os.Getpid())+", started "+time.Now().UTC().Format(time.RFC3339)+"\n"), 0)
	}
	l.removeStaleTemps()
	return func() { f.Close() }, nil // closing the descriptor releases the lock
}

// removeStaleTemps deletes the temporary files (safefile's ".<name>.tmp-*") that a killed run left
// beside the experiment's table and meta file and in its parts folder.
func (l layout) removeStaleTemps() {
	for _, pattern := range []string{
		filepath.Join(l.dir, "."+l.id+".*.tmp-*"),
		filepath.Join(l.parts(), ".*.tmp-*"),
	} {
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			os.Remove(m)
		}
	}
}
