package run

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/fastkernels/kernellab/lab/safefile"
)

// Merge gathers the part files of e at scale sc from the result roots of shard runs (srcs) and
// writes <dst>/<sc>/<ID>.csv, its parts and its meta file, the table and parts byte for byte as an
// unsharded Execute would. A task with no part in any source is an error naming it; two sources
// holding different parts for one task, or a part that fails its checksum, is an error too. Every
// part is read and checked before anything is written, so a failed merge leaves dst as it was.
// The parts folder records the sources' revision (REVISION) when they agree on one. dst may be one
// of the sources; it is locked for the duration like a run.
func Merge(e *Experiment, sc Scale, dst string, srcs ...string) error {
	if err := e.validate(); err != nil {
		return err
	}
	e = e.Producer()
	if dst == "" {
		return fmt.Errorf("run: merge %s: destination directory not set", e.ID)
	}
	if len(srcs) == 0 {
		return fmt.Errorf("run: merge %s: no source directories", e.ID)
	}
	started := time.Now()
	tasks, err := planTasks(e, sc)
	if err != nil {
		return err
	}
	out := layoutOf(dst, sc, e.ID)
	type found struct {
		data []byte
		at   string
	}
	parts := make([]found, len(tasks))
	var rows []Row
	var missing []string
	for j, t := range tasks {
		for _, src := range srcs {
			path := layoutOf(src, sc, e.ID).part(t.file)
			data, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return fmt.Errorf("run: merge %s: %w", e.ID, err)
			}
			if parts[j].data != nil && !bytes.Equal(parts[j].data, data) {
				return fmt.Errorf("run: merge %s: task %q has different results in %s and %s", e.ID, t.Key, parts[j].at, path)
			}
			parts[j] = found{data, path}
		}
		if parts[j].data == nil {
			missing = append(missing, t.Key)
			continue
		}
		taskRows, err := readPart(parts[j].data, parts[j].at, e.ID, t.Task)
		if err != nil {
			return fmt.Errorf("run: merge %s: %w", e.ID, err)
		}
		rows = append(rows, taskRows...)
	}
	if len(missing) > 0 {
		shown := missing[:min(len(missing), 5)]
		more := ""
		if len(missing) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(missing)-len(shown))
		}
		return fmt.Errorf("run: merge %s at scale %s: %d of %d tasks have no part in %s: %s%s",
			e.ID, sc, len(missing), len(tasks), strings.Join(srcs, ", "), strings.Join(shown, ", "), more)
	}
	revision := ""
	for i, src := range srcs {
		data, _ := os.ReadFile(layoutOf(src, sc, e.ID).revision())
		r := strings.TrimSpace(string(data))
		if i > 0 && r != revision {
			revision = ""
			break
		}
		revision = r
	}

	unlock, err := out.lock(e.ID)
	if err != nil {
		return err
	}
	defer unlock()
	for j, t := range tasks {
		if err := copyPart(parts[j].data, parts[j].at, out.part(t.file)); err != nil {
			return fmt.Errorf("run: merge %s: %w", e.ID, err)
		}
	}
	if revision != "" {
		if err := safefile.WriteBytes(out.revision(), []byte(revision+"\n")); err != nil {
			return fmt.Errorf("run: merge %s: %w", e.ID, err)
		}
	}
	var table bytes.Buffer
	if err := writeTable(&table, rows); err != nil {
		return fmt.Errorf("run: merge %s: %w", e.ID, err)
	}
	if err := safefile.WriteBytes(out.table(), table.Bytes()); err != nil {
		return fmt.Errorf("run: merge %s: %w", e.ID, err)
	}
	m := newMeta(e, sc, len(tasks), len(rows), table.Bytes(), started)
	m.MergedFrom = srcs
	if err := m.write(out.meta()); err != nil {
		return fmt.Errorf("run: merge %s: %w", e.ID, err)
	}
	return nil
}

// copyPart writes a part into the destination unless it already holds these exact bytes (which
// covers merging into one of the sources).
func copyPart(data []byte, from, to string) error {
	if old, err := os.ReadFile(to); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := safefile.WriteBytes(to, data); err != nil {
		return fmt.Errorf("copying %s: %w", from, err)
	}
	return nil
}
