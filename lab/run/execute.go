package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/dataset"
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
	// First, when > 0 and below the number of tasks, makes a partial run: only the first First
	// tasks of the plan run, and the table and meta file are written as if the plan ended there
	// (the meta file records the plan's number of tasks as plan_tasks). Their parts are those of
	// a whole run, so a later run with a larger First, or none, resumes from them. Only for an
	// experiment with PartialRuns (whose figure and claims say what part of the plan they show),
	// and not with a Shard or Keys. Zero runs the whole plan.
	First int
	// Data is where the tasks' data sets come from (Env.Data). The zero Source has no mirror and
	// no cache, so no data: a program passes dataset.DefaultSource() for the environment's, or a
	// Source of its own settings.
	Data dataset.Source
	// Cache, when set, is shared by the tasks of every Execute call given it, so that what they
	// load (Cached) is loaded once per program run; nil makes one for this call.
	Cache *Cache
}

// Execute runs the tasks of the experiment (its shard) that have no part file yet, writing each
// finished task's rows to its own part file atomically as soon as it finishes, so an interrupted run
// resumes where it stopped. Unsharded, it then writes <ID>.csv (all rows in plan order) atomically
// and <ID>.meta.json (id, scale, seed, tasks, Go and module versions, BLAS library and kernels,
// start/end time, elapsed); with Options.First, of the plan's first First tasks only (a partial
// run). Sharded, it writes parts only. The first task error cancels the rest and is returned
// wrapped with the task key (parts already written stay). Cancelling ctx stops promptly: no new
// task starts and running tasks see ctx cancelled. The returned Results hold the rows of this
// shard's tasks in plan order.
func Execute(ctx context.Context, e *Experiment, opts Options) (*Results, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	e = e.Producer()
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
	planned := len(tasks)
	if tasks, err = firstTasks(e, opts, tasks); err != nil {
		return nil, err
	}
	partial := len(tasks) < planned
	lay := layoutOf(opts.Dir, opts.Scale, e.ID)
	unlock, err := lay.lock(e.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if opts.Fresh {
		if err := lay.discard(tasks, opts.Shard, partial); err != nil {
			return nil, fmt.Errorf("run: %s: discarding kept results: %w", e.ID, err)
		}
	}

	only, err := onlyKeys(e.ID, opts, tasks)
	if err != nil {
		return nil, err
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
	cache := opts.Cache
	if cache == nil {
		cache = new(Cache)
	}
	r := &runner{e: e, scale: opts.Scale, data: opts.Data, cache: cache, lay: lay, tasks: tasks, rows: rowsByTask, progress: progress}
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
		m := newMeta(e, opts.Scale, len(tasks), len(res.Rows), table.Bytes(), started)
		m.TasksRun, m.TasksKept, m.Workers, m.KeptFromRevision = len(pending), kept, workers, keptFrom
		if partial {
			m.PlanTasks = planned
		}
		info := blasbackend.Describe()
		m.BLAS = &info
		if err := m.write(lay.meta()); err != nil {
			return nil, fmt.Errorf("run: %s: %w", e.ID, err)
		}
	}
	return res, nil
}

// firstTasks returns the tasks a run with opts.First runs: the first First of the plan, or all of
// them when First is 0 or at least their number. It refuses a negative First, and a partial run
// of an experiment without PartialRuns or with a Shard or Keys.
func firstTasks(e *Experiment, opts Options, tasks []plannedTask) ([]plannedTask, error) {
	switch {
	case opts.First < 0:
		return nil, fmt.Errorf("run: %s: first = %d tasks, want ≥ 0 (0 = the whole plan)", e.ID, opts.First)
	case opts.First == 0 || opts.First >= len(tasks):
		return tasks, nil
	case !e.PartialRuns:
		return nil, fmt.Errorf("run: %s: a partial run (the first %d of %d tasks) is refused: its figure and claims would not say "+
			"that they show part of the plan; run it whole, or by shards and merge", e.ID, opts.First, len(tasks))
	case !opts.Shard.whole() || len(opts.Keys) > 0:
		return nil, fmt.Errorf("run: %s: a partial run (the first %d tasks) takes no shard or task keys", e.ID, opts.First)
	}
	return tasks[:opts.First], nil
}

// onlyKeys is the set of opts.Keys, nil when none is given. A key that no task of the plan has is
// an error naming every such key, in sorted order.
func onlyKeys(id string, opts Options, tasks []plannedTask) (map[string]bool, error) {
	if len(opts.Keys) == 0 {
		return nil, nil
	}
	only := make(map[string]bool, len(opts.Keys))
	for _, k := range opts.Keys {
		only[k] = true
	}
	unknown := maps.Clone(only)
	for _, t := range tasks {
		delete(unknown, t.Key)
	}
	switch keys := slices.Sorted(maps.Keys(unknown)); len(keys) {
	case 0:
		return only, nil
	case 1:
		return nil, fmt.Errorf("run: %s: no task with key %q at scale %s", id, keys[0], opts.Scale)
	default:
		quoted := make([]string, len(keys))
		for i, k := range keys {
			quoted[i] = strconv.Quote(k)
		}
		return nil, fmt.Errorf("run: %s: no task with keys %s at scale %s", id, strings.Join(quoted, ", "), opts.Scale)
	}
}

// plannedTask is a task with the name of its part file.
type plannedTask struct {
	Task
	file string
}

// planTasks calls the plan and checks what the runtime relies on: keys non-empty and unique (also
// as part file names on case-insensitive file systems), Run set, Rep >= 0. Every way into a plan
// goes through here, so a plan is only ever called with one of the three scales (PerScale.At).
func planTasks(e *Experiment, sc Scale) ([]plannedTask, error) {
	if err := sc.validate(); err != nil {
		return nil, err
	}
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

// discard removes kept results: everything of the experiment for a whole run, the table, meta
// file and the tasks' part files for a partial one (Options.First; the later tasks' parts are
// another run's), only the shard's part files for a sharded one (other shards may share the folder).
func (l layout) discard(tasks []plannedTask, sh Shard, partial bool) error {
	if sh.whole() {
		for _, p := range []string{l.table(), l.meta()} {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		if !partial {
			return os.RemoveAll(l.parts())
		}
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

// runner executes the pending tasks of one Execute call.
type runner struct {
	e        *Experiment
	scale    Scale
	data     dataset.Source
	cache    *Cache
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
	env := &Env{Scale: r.scale, RNG: taskRNG(r.e.Seed, t.Key), Log: log, Data: r.data, Cache: r.cache}
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
