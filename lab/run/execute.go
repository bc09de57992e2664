package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/safefile"
)

// Options controls one Execute call.
type Options struct {
	// Scale is the scale to run at; it must be set (the empty Scale is an error).
	Scale Scale
	// Dir is the results root; files: <Dir>/<scale>/<ID>.csv, parts in <Dir>/<scale>/<ID>.parts/.
	// It must be set (the empty Dir is an error, not the working directory).
	Dir string
	// Workers is the number of tasks run at once; 0 means runtime.GOMAXPROCS(0). Serial
	// experiments always use 1.
	Workers int
	// Shard selects the tasks of this machine; the zero value runs them all.
	Shard Shard
	// Fresh discards kept parts (of this shard's tasks) first instead of resuming from them.
	Fresh bool
	// Progress receives the run's events; nil is silent.
	Progress Progress
	// Keys, when set, runs only the tasks with these keys (of the shard), like a shard: parts
	// only, no table; nil runs every task. `lab plan` measures a sample of tasks this way; an unknown key is an error.
	Keys []string
}

// Execute runs the tasks of the experiment (its shard) that have no part file yet, writing each
// finished task's rows to its own part file atomically as soon as it finishes, so an interrupted run
// resumes where it stopped. Unsharded, it then writes <ID>.csv (all rows in plan order) atomically
// and <ID>.meta.json (id, scale, seed, tasks, Go and module versions, BLAS library and kernels,
// start/end time, elapsed).
// Sharded, it writes parts only. The first task error cancels the rest and is returned wrapped with
// the task key (parts already written stay). Cancelling ctx stops promptly: no new task starts and
// running tasks see ctx cancelled. The returned Results hold the rows of this shard's tasks in plan
// order.
func Execute(ctx context.Context, e *Experiment, opts Options) (*Results, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	e = e.Producer()
	if err := opts.Scale.validate(); err != nil {
		return nil, err
	}
	if opts.Dir == "" {
		return nil, fmt.Errorf("run: %s: results directory not set", e.ID)
	}
	if err := opts.Shard.validate(); err != nil {
		return nil, err
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("run: %s: workers = %d, want >= 0 (0 = all cores)", e.ID, opts.Workers)
	}
	progress := opts.Progress
	if progress == nil {
		progress = SilentProgress()
	}
	tasks, err := planTasks(e, opts.Scale)
	if err != nil {
		return nil, err
	}
	lay := layoutOf(opts.Dir, opts.Scale, e.ID)
	unlock, err := lay.lock(e.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if opts.Fresh {
		if err := lay.discard(tasks, opts.Shard); err != nil {
			return nil, fmt.Errorf("run: %s: discarding kept results: %w", e.ID, err)
		}
	}

	var only map[string]bool
	if len(opts.Keys) > 0 {
		only = make(map[string]bool, len(opts.Keys))
		for _, k := range opts.Keys {
			only[k] = true
		}
		for _, t := range tasks {
			delete(only, t.Key)
		}
		for k := range only {
			return nil, fmt.Errorf("run: %s: no task with key %q at scale %s", e.ID, k, opts.Scale)
		}
		for _, k := range opts.Keys {
			only[k] = true
		}
	}
	rowsByTask := make([][]Row, len(tasks))
	var mine, pending []int
	for j, t := range tasks {
		if !opts.Shard.owns(j) || (only != nil && !only[t.Key]) {
			continue
		}
		mine = append(mine, j)
		path := lay.part(t.file)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			pending = append(pending, j)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("run: %s: reading kept part: %w", e.ID, err)
		}
		if rowsByTask[j], err = readPart(data, path, e.ID, t.Task); err != nil {
			return nil, err
		}
	}

	kept := len(mine) - len(pending)
	keptFrom, err := lay.checkRevision(e.ID, kept, len(pending), progress)
	if err != nil {
		return nil, err
	}

	workers := opts.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if e.Serial {
		workers = 1
	}
	started := time.Now()
	progress.Start(e.ID, len(mine), kept)
	r := &runner{e: e, scale: opts.Scale, lay: lay, tasks: tasks, rows: rowsByTask, progress: progress}
	err = r.runAll(ctx, pending, workers)
	progress.Finish(e.ID, time.Since(started))
	if err != nil {
		return nil, err
	}

	res := &Results{ID: e.ID, Scale: opts.Scale}
	for _, j := range mine {
		res.Rows = append(res.Rows, rowsByTask[j]...)
	}
	if opts.Shard.whole() && only == nil {
		var table bytes.Buffer
		if err := writeTable(&table, res.Rows); err != nil {
			return nil, fmt.Errorf("run: %s: %w", e.ID, err)
		}
		if old, err := os.ReadFile(lay.table()); err == nil && len(pending) == 0 && !writable(lay.dir) && bytes.Equal(old, table.Bytes()) {
			return res, nil // finished results in a read-only folder: current as they are
		}
		if err := safefile.WriteBytes(lay.table(), table.Bytes()); err != nil {
			return nil, fmt.Errorf("run: %s: %w", e.ID, err)
		}
		m := newMeta(e, opts.Scale, len(tasks), len(res.Rows), started)
		m.TasksRun, m.TasksKept, m.Workers, m.KeptFromRevision = len(pending), kept, workers, keptFrom
		info := blasbackend.Describe()
		m.BLAS = &info
		if err := m.write(lay.meta()); err != nil {
			return nil, fmt.Errorf("run: %s: %w", e.ID, err)
		}
	}
	return res, nil
}

// plannedTask is a task with the name of its part file.
type plannedTask struct {
	Task
	file string
}

// planTasks calls the plan and checks what the runtime relies on: keys non-empty and unique (also
// as part file names on case-insensitive file systems), Run set, Rep >= 0.
func planTasks(e *Experiment, sc Scale) ([]plannedTask, error) {
	tasks, err := e.Plan(sc)
	if err != nil {
		return nil, fmt.Errorf("run: %s: planning at scale %s: %w", e.ID, sc, err)
	}
	planned := make([]plannedTask, len(tasks))
	byFile := make(map[string]string, len(tasks))
	for j, t := range tasks {
		where := fmt.Sprintf("run: %s: plan at scale %s: task %d", e.ID, sc, j+1)
		if t.Key == "" {
			return nil, fmt.Errorf("%s has an empty key", where)
		}
		if t.Run == nil {
			return nil, fmt.Errorf("%s (%q) has no Run", where, t.Key)
		}
		if t.Rep < 0 {
			return nil, fmt.Errorf("%s (%q) has repetition %d < 0", where, t.Key, t.Rep)
		}
		file := partFileName(t.Key)
		if other, dup := byFile[strings.ToLower(file)]; dup {
			if other == t.Key {
				return nil, fmt.Errorf("%s: key %q appears twice", where, t.Key)
			}
			return nil, fmt.Errorf("%s: keys %q and %q map to the same part file", where, other, t.Key)
		}
		byFile[strings.ToLower(file)] = t.Key
		planned[j] = plannedTask{Task: t, file: file}
	}
	return planned, nil
}

// partFileName makes a file name from a task key: a readable prefix (characters outside
// [A-Za-z0-9._=-] become _) and the key's 64-bit FNV-1a hash, which keeps distinct keys apart.
func partFileName(key string) string {
	const maxReadable = 64
	var b strings.Builder
	for i := 0; i < len(key) && b.Len() < maxReadable; i++ {
		c := key[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._=-", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	return fmt.Sprintf("%s-%016x.csv", b.String(), hashKey(key))
}

func hashKey(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// taskRNG is the generator of the task with this key: PCG seeded from the experiment seed and the
// key's FNV-1a hash, mixed by SplitMix64. Fixed forever: changing it changes every result.
func taskRNG(seed uint64, key string) *rand.Rand {
	hi := splitMix64(seed ^ splitMix64(hashKey(key)))
	return rand.New(rand.NewPCG(hi, splitMix64(hi)))
}

// splitMix64 is one step of the SplitMix64 generator (Steele, Lea and Flood 2014), a bijective
// mixer that spreads every input bit over the output.
func splitMix64(x uint64) uint64 {
	z := x + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// layout names the files of one experiment at one scale under a results root.
type layout struct{ dir, id string }

func layoutOf(root string, sc Scale, id string) layout {
	return layout{dir: filepath.Join(root, string(sc)), id: id}
}

func (l layout) table() string           { return filepath.Join(l.dir, l.id+".csv") }
func (l layout) meta() string            { return filepath.Join(l.dir, l.id+".meta.json") }
func (l layout) parts() string           { return filepath.Join(l.dir, l.id+".parts") }
func (l layout) part(file string) string { return filepath.Join(l.parts(), file) }

// revision is the file in the parts folder naming the source revision of the program that started
// computing them.
func (l layout) revision() string { return filepath.Join(l.parts(), "REVISION") }

// checkRevision guards resumed runs against results computed by older code. A run that starts an
// empty parts folder records currentRevision() in it. A run that reuses kept parts recorded under
// another revision says so through progress (the rows are still reused: a change elsewhere in the
// program need not touch this experiment) and returns that revision for the meta file.
func (l layout) checkRevision(id string, kept, pending int, progress Progress) (keptFrom string, err error) {
	current := currentRevision()
	if current == "" {
		return "", nil
	}
	if kept == 0 {
		if pending == 0 {
			return "", nil
		}
		if err := safefile.WriteBytes(l.revision(), []byte(current+"\n")); err != nil {
			return "", fmt.Errorf("run: %s: %w", id, err)
		}
		return "", nil
	}
	data, err := os.ReadFile(l.revision())
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil // kept parts from before revisions were recorded: nothing to compare
	}
	if err != nil {
		return "", fmt.Errorf("run: %s: %w", id, err)
	}
	recorded := strings.TrimSpace(string(data))
	if recorded == current {
		return "", nil
	}
	progress.Logf("%s: reusing %d kept task results computed by revision %s; this program is revision %s. "+
		"If %s's code changed in between, run it again with --fresh (or delete %s*).",
		id, kept, recorded, current, id, filepath.Join(l.dir, l.id+"."))
	return recorded, nil
}

// currentRevision is Revision, a variable so that tests can set it.
var currentRevision = sync.OnceValue(Revision)

// Revision names the source of this program: the VCS revision that go build stamped into it, with
// "+modified" when the source had uncommitted changes; "" when none was stamped (go test, a
// notebook cell built outside the repository). go build counts every file git status lists,
// untracked ones and a run's own outputs included, so a program rebuilt after a run that rewrote
// figures/ would name another revision than the run's kept results; when the working directory is
// a checkout of the stamped revision, "+modified" is therefore decided by sourceChanged instead.
func Revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision != "" && modified == "true" && sourceChanged(".", revision) {
		revision += "+modified"
	}
	return revision
}

// sourceChanged reports whether the checkout around dir may hold other source than revision: true
// unless it is a checkout of revision whose tracked files outside figures/ (the committed outputs,
// which no build reads) are unchanged. Untracked files are not counted: a run's outputs in a folder
// git does not ignore are not source; a new source file must be added to git to count.
func sourceChanged(dir, revision string) bool {
	head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil || strings.TrimSpace(string(head)) != revision {
		return true
	}
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no", "--",
		":(top)", ":(top,exclude)figures").Output()
	return err != nil || len(bytes.TrimSpace(status)) > 0
}

// discard removes kept results: everything of the experiment for a whole run, only the shard's
// part files for a sharded one (other shards may share the folder).
func (l layout) discard(tasks []plannedTask, sh Shard) error {
	if sh.whole() {
		for _, p := range []string{l.table(), l.meta()} {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return os.RemoveAll(l.parts())
	}
	for j, t := range tasks {
		if !sh.owns(j) {
			continue
		}
		if err := os.Remove(l.part(t.file)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// readPart verifies a part file's checksum, parses it and checks it belongs to the task (a stale part from another plan
// or experiment is an error, not silently mixed in).
func readPart(data []byte, path, id string, t Task) ([]Row, error) {
	table, err := verifyPart(data, path)
	if err != nil {
		return nil, err
	}
	rows, err := readTable(bytes.NewReader(table), path)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		if r.ID != id || r.Rep != t.Rep {
			return nil, fmt.Errorf("run: %s:%d: row of id=%s rep=%d in the part of task %q (id=%s rep=%d): stale results from another plan; run fresh to discard them",
				path, i+2, r.ID, r.Rep, t.Key, id, t.Rep)
		}
	}
	return rows, nil
}

// runner executes the pending tasks of one Execute call.
type runner struct {
	e        *Experiment
	scale    Scale
	lay      layout
	tasks    []plannedTask
	rows     [][]Row // by plan index; each index written by one worker only
	progress Progress
}

// runAll runs the pending tasks on workers goroutines; it returns the first task error, or the
// cancellation of ctx if that stopped the run before every task was done.
func (r *runner) runAll(parent context.Context, pending []int, workers int) error {
	if len(pending) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	jobs := make(chan int)
	for range min(workers, len(pending)) {
		wg.Go(func() {
			for j := range jobs {
				if ctx.Err() != nil {
					continue
				}
				ran, err := r.runTask(ctx, j)
				mu.Lock()
				if ran {
					done++
				}
				if err != nil && firstErr == nil {
					firstErr = err
					cancel(err)
				}
				mu.Unlock()
			}
		})
	}
feed:
	for _, j := range pending {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if done < len(pending) {
		return fmt.Errorf("run: %s: stopped with %d of %d pending tasks done (finished ones are kept; run again to resume): %w",
			r.e.ID, done, len(pending), context.Cause(parent))
	}
	return nil
}

// runTask runs task j and writes its part file. ran reports that the part was written; an abort
// caused by the cancellation of ctx is neither ran nor an error.
func (r *runner) runTask(ctx context.Context, j int) (ran bool, err error) {
	t := r.tasks[j]
	log := newTaskLog(r.e.ID, t.Key, r.progress)
	env := &Env{Scale: r.scale, RNG: taskRNG(r.e.Seed, t.Key), Log: log}
	start := time.Now()
	recs, err := callTask(ctx, t.Task, env)
	log.flush()
	if err != nil && ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return false, nil
	}
	var rows []Row
	if err == nil {
		rows, err = rowsFromRecords(r.e.ID, t.Rep, recs)
	}
	var part []byte
	if err == nil {
		part, err = encodePart(rows)
	}
	if err == nil {
		err = safefile.WriteBytes(r.lay.part(t.file), part)
	}
	elapsed := time.Since(start)
	if err != nil {
		err = fmt.Errorf("run: %s task %q: %w", r.e.ID, t.Key, err)
		r.progress.TaskDone(r.e.ID, t.Key, elapsed, err)
		return false, err
	}
	r.rows[j] = rows
	r.progress.TaskDone(r.e.ID, t.Key, elapsed, nil)
	return true, nil
}

// callTask runs a task, turning a panic into an error so that one broken task cannot take down a
// notebook kernel or a whole catalogue run.
func callTask(ctx context.Context, t Task, env *Env) (recs []Record, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return t.Run(ctx, env)
}

// taskLog forwards whole lines written by a task to the progress reporter: to its TaskNote when
// it has one, else to Logf prefixed with the experiment and task.
type taskLog struct {
	mu   sync.Mutex
	emit func(line string)
	buf  []byte
}

// TaskNoter is implemented by a Progress that keeps a task's notes (what it writes to Env.Log)
// apart from the runtime's own notes, which Logf receives: [OverallProgress] shows the notes only in
// its detailed report.
type TaskNoter interface {
	TaskNote(id, key, note string)
}

func newTaskLog(id, key string, p Progress) *taskLog {
	if tn, ok := p.(TaskNoter); ok {
		return &taskLog{emit: func(line string) { tn.TaskNote(id, key, line) }}
	}
	return &taskLog{emit: func(line string) { p.Logf("%s %s: %s", id, key, line) }}
}

func (l *taskLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		l.emit(string(l.buf[:i]))
		l.buf = l.buf[i+1:]
	}
	return len(p), nil
}

// flush sends a last unterminated line, if any.
func (l *taskLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		l.emit(string(l.buf))
		l.buf = nil
	}
}

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
	if err := sc.validate(); err != nil {
		return err
	}
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
	if err := safefile.Write(out.table(), func(w io.Writer) error { return writeTable(w, rows) }); err != nil {
		return fmt.Errorf("run: merge %s: %w", e.ID, err)
	}
	m := newMeta(e, sc, len(tasks), len(rows), started)
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

// runMeta is the provenance file written next to a results table.
type runMeta struct {
	ID         string   `json:"id"`
	Title      string   `json:"title,omitempty"`
	Scale      Scale    `json:"scale"`
	Seed       uint64   `json:"seed"`
	Tasks      int      `json:"tasks"`
	TasksRun   int      `json:"tasks_run"`
	TasksKept  int      `json:"tasks_kept"`
	Workers    int      `json:"workers,omitempty"`
	Rows       int      `json:"rows"`
	MergedFrom []string `json:"merged_from,omitempty"`
	GoVersion  string   `json:"go_version"`
	GOOS       string   `json:"goos"`
	GOARCH     string   `json:"goarch"`
	Revision   string   `json:"revision,omitempty"`
	// KeptFromRevision is set when kept parts recorded another revision (see checkRevision).
	KeptFromRevision string `json:"kept_from_revision,omitempty"`
	// BLAS is the BLAS library and kernels of the run (not of a merge): other kernels change the
	// results' last bits and the timings.
	BLAS           *blasbackend.Info `json:"blas,omitempty"`
	Module         string            `json:"module,omitempty"`
	Modules        []string          `json:"modules,omitempty"`
	Started        time.Time         `json:"started"`
	Finished       time.Time         `json:"finished"`
	ElapsedSeconds float64           `json:"elapsed_seconds"`
}

func newMeta(e *Experiment, sc Scale, tasks, rows int, started time.Time) *runMeta {
	finished := time.Now()
	m := &runMeta{
		ID: e.ID, Title: e.Title, Scale: sc, Seed: e.Seed, Tasks: tasks, Rows: rows,
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Revision: currentRevision(),
		Started: started.UTC(), Finished: finished.UTC(), ElapsedSeconds: finished.Sub(started).Seconds(),
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		m.Module = strings.TrimSpace(bi.Main.Path + " " + bi.Main.Version)
		for _, d := range bi.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			m.Modules = append(m.Modules, d.Path+" "+d.Version)
		}
	}
	return m
}

func (m *runMeta) write(path string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteBytes(path, append(data, '\n'))
}

// TaskKeys lists the keys of the experiment's tasks at the scale, in plan order.
func TaskKeys(e *Experiment, sc Scale) ([]string, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	e = e.Producer()
	tasks, err := planTasks(e, sc)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(tasks))
	for j, t := range tasks {
		keys[j] = t.Key
	}
	return keys, nil
}

// Missing counts the tasks of the shard that have no kept part under the results root dir: 0 means
// the shard is finished (a resubmitted cluster job need not run it again).
func Missing(e *Experiment, sc Scale, dir string, sh Shard) (int, error) {
	if err := sh.validate(); err != nil {
		return 0, err
	}
	if err := e.validate(); err != nil {
		return 0, err
	}
	e = e.Producer()
	tasks, err := planTasks(e, sc)
	if err != nil {
		return 0, err
	}
	lay := layoutOf(dir, sc, e.ID)
	n := 0
	for j, t := range tasks {
		if !sh.owns(j) {
			continue
		}
		if _, err := os.Stat(lay.part(t.file)); err != nil {
			n++
		}
	}
	return n, nil
}
