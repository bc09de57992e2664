package run

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Overview is what [NewOverallProgress] knows of a whole run before it starts.
type Overview struct {
	// Tasks is the number of tasks of each experiment in this run (its shard), by ID: the
	// experiments whose Execute reports to the Progress.
	Tasks map[string]int
	// PerTask is the expected wall time that one task of an experiment adds to the run, on the
	// run's workers (a task's time divided by the workers, or whole for a Serial experiment), by
	// ID; an experiment without one is paced by the tasks finished so far.
	PerTask map[string]time.Duration
}

// OverallOptions are where [NewOverallProgress] writes.
type OverallOptions struct {
	// Detail, when set, receives the per-experiment report (NewTerminalProgress's plain lines) and
	// every note and failure: the run's log file. nil writes no log.
	Detail io.Writer
	// Verbose also writes the per-experiment report to the status writer.
	Verbose bool
	// Interval is the least time between two status lines when the status writer is not a
	// terminal (a CI log); 0 means 20 s. On a terminal the line is redrawn in place every second.
	Interval time.Duration
}

// OverallProgress is a Progress that shows one status line for the whole run: experiments done of
// all, tasks done of all, elapsed time, an estimate of the time left, and the experiment running.
// Failed tasks and the runtime's notes (warnings) are always shown, above the status line; the
// tasks' own notes (TaskNote) only in the per-experiment report.
type OverallProgress struct {
	mu       sync.Mutex
	w        io.Writer
	redraw   bool
	verbose  bool
	interval time.Duration
	detail   Progress // per-experiment report into OverallOptions.Detail (and w when verbose)
	now      func() time.Time
	drawn    string // the status line currently drawn (redraw mode)
	lastLine time.Time
	stop     chan struct{}
	stopped  sync.WaitGroup
	closing  sync.Once
	state    overallState
}

// built says whether p was made by NewOverallProgress: the zero OverallProgress (and a nil one)
// reports nothing, so that a report that was never set up cannot crash the run it watches.
func (p *OverallProgress) built() bool { return p != nil && p.detail != nil }

// NewOverallProgress returns an [OverallProgress] writing its status line to w (redrawn in place on
// a terminal, else a plain line at most every Interval and at the end). Call Close when the run
// ends: it stops the clock that refreshes the line and prints the last status.
func NewOverallProgress(w io.Writer, ov Overview, o OverallOptions) *OverallProgress {
	if w == nil {
		w = io.Discard
	}
	p := &OverallProgress{w: w, redraw: isTerminal(w), verbose: o.Verbose, interval: o.Interval, now: time.Now, stop: make(chan struct{})}
	if p.interval <= 0 {
		p.interval = 20 * time.Second
	}
	var detail []io.Writer
	if o.Detail != nil {
		detail = append(detail, o.Detail)
	}
	if o.Verbose {
		detail = append(detail, lineWriter{p})
	}
	p.detail = SilentProgress()
	if len(detail) > 0 {
		p.detail = NewTerminalProgress(io.MultiWriter(detail...))
	}
	p.state = newOverallState(ov, p.now())
	p.lastLine = p.state.started
	p.stopped.Add(1)
	go p.tick()
	return p
}

// tick refreshes the status line while nothing else happens (a long task): every second on a
// terminal, every interval otherwise.
func (p *OverallProgress) tick() {
	defer p.stopped.Done()
	every := p.interval
	if p.redraw {
		every = time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.status(false)
			p.mu.Unlock()
		}
	}
}

// Close stops the refreshing clock and prints the final status line; later calls do nothing.
func (p *OverallProgress) Close() {
	if !p.built() {
		return
	}
	p.closing.Do(func() {
		close(p.stop)
		p.stopped.Wait()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.status(true)
		if p.redraw && p.drawn != "" {
			fmt.Fprintln(p.w)
			p.drawn = ""
		}
	})
}

func (p *OverallProgress) Start(id string, total, alreadyDone int) {
	if !p.built() {
		return
	}
	p.detail.Start(id, total, alreadyDone)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.start(id, total, alreadyDone)
	p.status(false)
}

func (p *OverallProgress) TaskDone(id, key string, elapsed time.Duration, err error) {
	if !p.built() {
		return
	}
	p.detail.TaskDone(id, key, elapsed, err)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if !p.verbose {
			p.line(fmt.Sprintf("%s: task %s failed after %s: %v", id, key, roundDuration(elapsed), err))
		}
		return
	}
	p.state.taskDone(id)
	p.status(false)
}

func (p *OverallProgress) Finish(id string, elapsed time.Duration) {
	if !p.built() {
		return
	}
	p.detail.Finish(id, elapsed)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.finish(id)
	p.status(false)
}

func (p *OverallProgress) Logf(format string, args ...any) {
	if !p.built() {
		return
	}
	p.detail.Logf(format, args...)
	if p.verbose {
		return // the detail report showed it
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.line(strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
}

// TaskNote keeps a task's note with the per-experiment report (see [TaskNoter]).
func (p *OverallProgress) TaskNote(id, key, note string) {
	if !p.built() {
		return
	}
	p.detail.Logf("%s %s: %s", id, key, note)
}

// status shows the status line: redrawn on a terminal, else printed when the interval has passed
// since the last one (or when final).
func (p *OverallProgress) status(final bool) {
	now := p.now()
	s := p.state.line(now)
	if p.redraw {
		p.drawn = s
		fmt.Fprintf(p.w, "\r\x1b[K%s", s)
		return
	}
	if final || now.Sub(p.lastLine) >= p.interval {
		p.lastLine = now
		fmt.Fprintln(p.w, s)
	}
}

// line writes a whole line above the status line (redrawn below it on a terminal).
func (p *OverallProgress) line(msg string) {
	if p.redraw && p.drawn != "" {
		fmt.Fprintf(p.w, "\r\x1b[K%s\n%s", msg, p.drawn)
		return
	}
	fmt.Fprintln(p.w, msg)
}

// lineWriter passes the detail report's lines (one per Write) to the status writer, above the line.
type lineWriter struct{ p *OverallProgress }

func (l lineWriter) Write(b []byte) (int, error) {
	l.p.mu.Lock()
	defer l.p.mu.Unlock()
	l.p.line(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// overallState counts a run's progress; its methods are pure, for the tests.
type overallState struct {
	ov      Overview
	started time.Time
	// done counts finished tasks by experiment, kept ones included; ran those run here.
	done               map[string]int
	ran                int
	experimentsDone    int
	tasks, experiments int
	running            string
}

func newOverallState(ov Overview, started time.Time) overallState {
	s := overallState{started: started, done: map[string]int{}, experiments: len(ov.Tasks)}
	// Its own copy of the task counts: start adds experiments the overview left out.
	s.ov = Overview{Tasks: make(map[string]int, len(ov.Tasks)), PerTask: ov.PerTask}
	for id, n := range ov.Tasks {
		s.ov.Tasks[id] = n
		s.tasks += n
	}
	return s
}

func (s *overallState) start(id string, total, alreadyDone int) {
	if _, known := s.ov.Tasks[id]; !known {
		// An experiment the overview left out: count it from here on.
		s.ov.Tasks[id] = total
		s.tasks += total
		s.experiments++
	}
	s.done[id] = alreadyDone
	s.running = id
}

func (s *overallState) taskDone(id string) {
	s.done[id]++
	s.ran++
}

func (s *overallState) finish(id string) {
	s.experimentsDone++
	if s.running == id {
		s.running = ""
	}
}

// left estimates the time the run still needs: each task not yet done at its experiment's
// PerTask, and at the pace of the tasks run so far where there is none. ok is false when some
// tasks have neither (no task finished yet).
func (s *overallState) left(now time.Time) (time.Duration, bool) {
	var pace time.Duration
	if s.ran > 0 {
		pace = now.Sub(s.started) / time.Duration(s.ran)
	}
	var total time.Duration
	for id, n := range s.ov.Tasks {
		todo := n - s.done[id]
		if todo <= 0 {
			continue
		}
		per, ok := s.ov.PerTask[id]
		if !ok {
			if pace == 0 {
				return 0, false
			}
			per = pace
		}
		total += per * time.Duration(todo)
	}
	return total, true
}

// line is the status line: "[ 7/32 experiments · 120/400 tasks · 3m12s elapsed · ETA 9m · fig5_1]".
func (s *overallState) line(now time.Time) string {
	done := 0
	for _, n := range s.done {
		done += n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%*d/%d experiments · %*d/%d tasks · %s elapsed", digits(s.experiments), s.experimentsDone, s.experiments,
		digits(s.tasks), done, s.tasks, formatElapsed(now.Sub(s.started)))
	if left, ok := s.left(now); ok && done < s.tasks {
		b.WriteString(" · ETA " + formatETA(left))
	}
	if s.running != "" {
		b.WriteString(" · " + s.running)
	}
	b.WriteString("]")
	return b.String()
}

// digits is the width of n in decimal, so that the counts keep their place as they grow.
func digits(n int) int { return len(fmt.Sprint(n)) }

// formatElapsed writes a duration to the second: 42s, 3m12s, 1h05m12s.
func formatElapsed(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, sec := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, sec)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, sec)
	}
	return fmt.Sprintf("%ds", sec)
}

// formatETA writes an estimate no more precisely than it is: seconds under a minute, whole
// minutes under ten hours, whole hours beyond.
func formatETA(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	case d < 10*time.Hour:
		d = d.Round(time.Minute)
		if h := int(d.Hours()); h > 0 {
			return fmt.Sprintf("%dh%02dm", h, int(d.Minutes())%60)
		}
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh", int(d.Round(time.Hour).Hours()))
}
