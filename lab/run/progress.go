package run

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress receives the events of Execute, so the CLI can show a bar and notebooks can stay quiet.
// Implementations must be safe for concurrent use: tasks finish on several goroutines.
type Progress interface {
	// Start announces an experiment with total tasks in this run (its shard), alreadyDone of them
	// kept from an earlier run.
	Start(id string, total, alreadyDone int)
	// TaskDone reports one task finished after elapsed, with its error (nil on success).
	TaskDone(id, key string, elapsed time.Duration, err error)
	// Finish closes the experiment's report; it follows every Start, also after an error.
	Finish(id string, elapsed time.Duration)
	// Logf is a note (from the runtime or a task's Env.Log).
	Logf(format string, args ...any)
}

// SilentProgress returns a Progress that discards everything.
func SilentProgress() Progress { return silentProgress{} }

type silentProgress struct{}

func (silentProgress) Start(string, int, int)                        {}
func (silentProgress) TaskDone(string, string, time.Duration, error) {}
func (silentProgress) Finish(string, time.Duration)                  {}
func (silentProgress) Logf(string, ...any)                           {}

// NewTerminalProgress returns a Progress writing to w: a redrawn one-line bar (done/total, rate,
// ETA) when w is a terminal, otherwise a plain line every ~5% of the tasks or 10 s (what a log file
// or a cluster job's output wants). Failed tasks and log notes always get their own line.
// It is safe for concurrent use. A nil w reports nothing.
func NewTerminalProgress(w io.Writer) Progress {
	if w == nil {
		return SilentProgress()
	}
	return &terminalProgress{w: w, redraw: isTerminal(w), now: time.Now, states: map[string]*barState{}}
}

// isTerminal reports whether w is a character device (a terminal), using the standard library only.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// Plain-output pacing: a line when the done count crosses another 1/plainSteps of the total (5%),
// or when plainInterval passed since the last line.
const (
	plainSteps    = 20
	plainInterval = 10 * time.Second
)

type terminalProgress struct {
	mu      sync.Mutex
	w       io.Writer
	redraw  bool
	now     func() time.Time
	states  map[string]*barState
	barLine string // the bar currently drawn (redraw mode), "" if none
}

type barState struct {
	total, already, done, failed int
	started, lastLine            time.Time
	lastStep                     int
}

func (p *terminalProgress) Start(id string, total, alreadyDone int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	s := &barState{total: total, already: alreadyDone, started: now, lastLine: now}
	if total > 0 {
		s.lastStep = alreadyDone * plainSteps / total
	}
	p.states[id] = s
	if p.redraw {
		p.drawBar(id, s)
		return
	}
	msg := fmt.Sprintf("%s: %d tasks", id, total)
	if alreadyDone > 0 {
		msg += fmt.Sprintf(" (%d already done)", alreadyDone)
	}
	p.line(msg)
}

func (p *terminalProgress) TaskDone(id, key string, elapsed time.Duration, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.states[id]
	if !ok {
		s = &barState{started: p.now(), lastLine: p.now()}
		p.states[id] = s
	}
	if err != nil {
		s.failed++
		p.line(fmt.Sprintf("%s: task %s failed after %s: %v", id, key, roundDuration(elapsed), err))
		return
	}
	s.done++
	if p.redraw {
		p.drawBar(id, s)
		return
	}
	now := p.now()
	step := 0
	if s.total > 0 {
		step = (s.already + s.done) * plainSteps / s.total
	}
	if step > s.lastStep || now.Sub(s.lastLine) >= plainInterval {
		s.lastStep = step
		s.lastLine = now
		p.line(p.status(id, s, now))
	}
}

func (p *terminalProgress) Finish(id string, elapsed time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.states[id]
	if !ok {
		s = &barState{}
	}
	delete(p.states, id)
	msg := fmt.Sprintf("%s: %d/%d tasks done in %s", id, s.already+s.done, s.total, roundDuration(elapsed))
	if s.already > 0 {
		msg += fmt.Sprintf(" (%d kept from an earlier run)", s.already)
	}
	if s.failed > 0 {
		msg += fmt.Sprintf(", %d failed", s.failed)
	}
	if p.redraw && p.barLine != "" {
		p.barLine = ""
		fmt.Fprintf(p.w, "\r\x1b[K%s\n", msg)
		return
	}
	p.line(msg)
}

func (p *terminalProgress) Logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.line(strings.TrimRight(fmt.Sprintf(format, args...), "\n"))
}

// line writes a whole line, keeping the bar (if any) drawn below it.
func (p *terminalProgress) line(msg string) {
	if p.redraw && p.barLine != "" {
		fmt.Fprintf(p.w, "\r\x1b[K%s\n%s", msg, p.barLine)
		return
	}
	fmt.Fprintln(p.w, msg)
}

// drawBar redraws the one-line bar in place.
func (p *terminalProgress) drawBar(id string, s *barState) {
	const width = 30
	filled := width
	if s.total > 0 {
		filled = width * (s.already + s.done) / s.total
	}
	bar := strings.Repeat("#", filled) + strings.Repeat(".", width-filled)
	p.barLine = fmt.Sprintf("%s [%s] %s", id, bar, p.status("", s, p.now()))
	fmt.Fprintf(p.w, "\r\x1b[K%s", p.barLine)
}

// status is "id: done/total, rate, ETA" (the id part omitted when id is empty).
func (p *terminalProgress) status(id string, s *barState, now time.Time) string {
	var b strings.Builder
	if id != "" {
		b.WriteString(id + ": ")
	}
	fmt.Fprintf(&b, "%d/%d", s.already+s.done, s.total)
	elapsed := now.Sub(s.started)
	if s.done > 0 && elapsed > 0 {
		rate := float64(s.done) / elapsed.Seconds()
		fmt.Fprintf(&b, ", %.3g tasks/s", rate)
		if left := s.total - s.already - s.done; left > 0 {
			eta := time.Duration(float64(left) / rate * float64(time.Second))
			fmt.Fprintf(&b, ", ETA %s", roundDuration(eta))
		}
	}
	return b.String()
}

// roundDuration keeps durations readable: whole seconds above a minute, milliseconds below.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}
