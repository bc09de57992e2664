package run

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestFormatDurations(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 42*time.Second + 400*time.Millisecond: "42s", 3*time.Minute + 12*time.Second: "3m12s",
		time.Hour + 5*time.Minute + 12*time.Second: "1h05m12s",
	} {
		if got := formatElapsed(d); got != want {
			t.Errorf("formatElapsed(%v) = %q, want %q", d, got, want)
		}
	}
	for d, want := range map[time.Duration]string{
		40 * time.Second: "40s", 9*time.Minute + 20*time.Second: "9m", 9*time.Minute + 40*time.Second: "10m",
		80 * time.Minute: "1h20m", 11*time.Hour + 40*time.Minute: "12h",
	} {
		if got := formatETA(d); got != want {
			t.Errorf("formatETA(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestOverallLineAndETA follows a run of two experiments: b with lab plan's estimate, a without
// one (paced by the tasks run so far), a starting with kept tasks.
func TestOverallLineAndETA(t *testing.T) {
	t0 := time.Unix(0, 0)
	s := newOverallState(Overview{
		Tasks:   map[string]int{"a": 10, "b": 20},
		PerTask: map[string]time.Duration{"b": 3 * time.Second},
	}, t0)
	// Nothing finished, a has no estimate: no ETA.
	if got, want := s.line(t0), "[0/2 experiments ·  0/30 tasks · 0s elapsed]"; got != want {
		t.Fatalf("start:\n%q\nwant\n%q", got, want)
	}
	s.start("a", 10, 4)
	for range 2 {
		s.taskDone("a")
	}
	// 2 tasks run in 10 s: a's 4 left at 5 s each, b's 20 at 3 s each: 80 s.
	now := t0.Add(10 * time.Second)
	if left, ok := s.left(now); !ok || left != 80*time.Second {
		t.Fatalf("left = %v, %v; want 80s", left, ok)
	}
	if got, want := s.line(now), "[0/2 experiments ·  6/30 tasks · 10s elapsed · ETA 1m · a]"; got != want {
		t.Fatalf("running a:\n%q\nwant\n%q", got, want)
	}
	for range 4 {
		s.taskDone("a")
	}
	s.finish("a")
	s.start("b", 20, 0)
	s.taskDone("b")
	now = t0.Add(2 * time.Minute)
	// Only b's estimate counts now: 19 × 3 s.
	if left, ok := s.left(now); !ok || left != 57*time.Second {
		t.Fatalf("left = %v, %v; want 57s", left, ok)
	}
	if got, want := s.line(now), "[1/2 experiments · 11/30 tasks · 2m00s elapsed · ETA 57s · b]"; got != want {
		t.Fatalf("running b:\n%q\nwant\n%q", got, want)
	}
	for range 19 {
		s.taskDone("b")
	}
	s.finish("b")
	if got, want := s.line(now), "[2/2 experiments · 30/30 tasks · 2m00s elapsed]"; got != want {
		t.Fatalf("done:\n%q\nwant\n%q", got, want)
	}
	// An experiment the overview did not announce is counted when it starts, paced by the 26 tasks
	// run in 2 min: 5 × 4.6 s.
	s.start("c", 5, 0)
	if got, want := s.line(now), "[2/3 experiments · 30/35 tasks · 2m00s elapsed · ETA 23s · c]"; got != want {
		t.Fatalf("unannounced c:\n%q\nwant\n%q", got, want)
	}
}

// TestOverallPlainOutput: not on a terminal, a status line at most every interval and at the end;
// failures and notes always; the per-experiment report only in the detail writer, or also on the
// status writer with Verbose.
func TestOverallPlainOutput(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var out, log bytes.Buffer
		clock := &fakeClock{t: time.Unix(0, 0)}
		p := NewOverallProgress(&out, Overview{Tasks: map[string]int{"e": 3}}, OverallOptions{Detail: &log, Verbose: verbose, Interval: time.Hour})
		p.mu.Lock()
		p.now = clock.now
		p.state.started, p.lastLine = clock.t, clock.t
		p.mu.Unlock()
		p.Start("e", 3, 0)
		clock.t = clock.t.Add(30 * time.Minute)
		p.TaskDone("e", "k1", time.Second, nil)
		p.TaskDone("e", "k2", time.Second, errors.New("boom"))
		p.Logf("e: a warning\n")
		p.TaskNote("e", "k3", "stage one done")
		clock.t = clock.t.Add(40 * time.Minute) // past the interval: 2 tasks run in 70 min, 1 left
		p.TaskDone("e", "k3", time.Second, nil)
		p.Finish("e", time.Second)
		p.Close()

		status := []string{
			"[0/1 experiments · 2/3 tasks · 1h10m00s elapsed · ETA 35m · e]",
			"[1/1 experiments · 2/3 tasks · 1h10m00s elapsed · ETA 35m]",
		}
		failure, note := "e: task k2 failed after 1s: boom", "e: a warning"
		for _, want := range append(status, failure, note) {
			if !strings.Contains(out.String(), want+"\n") {
				t.Errorf("verbose %v: output lacks %q:\n%s", verbose, want, out.String())
			}
		}
		if n := strings.Count(out.String(), failure); n != 1 {
			t.Errorf("verbose %v: the failure shown %d times:\n%s", verbose, n, out.String())
		}
		for _, detail := range []string{"e: 3 tasks", "e k3: stage one done"} {
			if strings.Contains(out.String(), detail) != verbose {
				t.Errorf("verbose %v: %q on the status writer: %v\n%s", verbose, detail, !verbose, out.String())
			}
		}
		for _, want := range []string{"e: 3 tasks", "e k3: stage one done", failure, note, "e: 2/3 tasks done"} {
			if !strings.Contains(log.String(), want) {
				t.Errorf("verbose %v: log lacks %q:\n%s", verbose, want, log.String())
			}
		}
	}
}

// Issue 34's sweep: every method of the zero OverallProgress dereferenced its missing report, a
// nil writer crashed at Close, and Close twice closed a closed channel.
func TestOverallProgressZeroNilAndTwiceClosed(t *testing.T) {
	var zero OverallProgress
	zero.Start("a", 2, 0)
	zero.TaskDone("a", "k", time.Second, nil)
	zero.TaskNote("a", "k", "note")
	zero.Logf("x %d", 1)
	zero.Finish("a", time.Second)
	zero.Close()
	p := NewOverallProgress(nil, Overview{Tasks: map[string]int{"a": 1}}, OverallOptions{})
	p.Start("a", 1, 0)
	p.TaskDone("a", "k", time.Second, errors.New("failed"))
	p.Close()
	p.Close()
	NewTerminalProgress(nil).Logf("to nowhere")
	if _, err := Cached[int](nil, "k", func() (int, error) { return 1, nil }); err == nil {
		t.Error("Cached with a nil env: nil error")
	}
	if _, err := Cached[int](&Env{}, "k", nil); err == nil {
		t.Error("Cached with a nil load: nil error")
	}
}
