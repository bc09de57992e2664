package run

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable time source for the progress reporter.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestPlainProgressPrintsEveryFivePercent(t *testing.T) {
	var buf bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := NewTerminalProgress(&buf).(*terminalProgress)
	p.now = clock.now
	if p.redraw {
		t.Fatal("a buffer is not a terminal")
	}
	p.Start("e", 100, 0)
	for range 100 {
		p.TaskDone("e", "k", time.Millisecond, nil)
	}
	p.Finish("e", time.Second)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1+20+1 {
		t.Fatalf("%d lines, want start + 20 steps + finish:\n%s", len(lines), buf.String())
	}
	if lines[1] != "e: 5/100" || lines[20] != "e: 100/100" || lines[21] != "e: 100/100 tasks done in 1s" {
		t.Fatalf("lines %q, %q, %q", lines[1], lines[20], lines[21])
	}
}

func TestPlainProgressPrintsEveryTenSecondsAndFailures(t *testing.T) {
	var buf bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := NewTerminalProgress(&buf).(*terminalProgress)
	p.now = clock.now
	p.Start("e", 1000, 400)
	clock.t = clock.t.Add(3 * time.Second)
	p.TaskDone("e", "k1", time.Second, nil) // 401/1000: no new 5% step, 3 s: quiet
	clock.t = clock.t.Add(8 * time.Second)
	p.TaskDone("e", "k2", time.Second, nil) // 11 s since the last line: 2 tasks in 11 s, 598 left, ETA 3289 s
	p.TaskDone("e", "k3", time.Second, errors.New("boom"))
	p.Logf("note %d\n", 7)
	want := "e: 1000 tasks (400 already done)\n" +
		"e: 402/1000, 0.182 tasks/s, ETA 54m49s\n" +
		"e: task k3 failed after 1s: boom\n" +
		"note 7\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestRedrawnBar(t *testing.T) {
	var buf bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := &terminalProgress{w: &buf, redraw: true, now: clock.now, states: map[string]*barState{}}
	p.Start("e", 4, 0)
	clock.t = clock.t.Add(2 * time.Second)
	p.TaskDone("e", "k", time.Second, nil)
	if want := "\r\x1b[Ke [#######.......................] 1/4, 0.5 tasks/s, ETA 6s"; !strings.HasSuffix(buf.String(), want) {
		t.Fatalf("got %q, want suffix %q", buf.String(), want)
	}
	p.Logf("hello")
	if !strings.HasSuffix(buf.String(), "\r\x1b[Khello\n"+p.barLine) {
		t.Fatalf("log did not keep the bar: %q", buf.String())
	}
	p.Finish("e", 2*time.Second)
	if !strings.HasSuffix(buf.String(), "\r\x1b[Ke: 1/4 tasks done in 2s\n") {
		t.Fatalf("finish: %q", buf.String())
	}
}

func TestProgressIsSafeForConcurrentUse(t *testing.T) {
	var buf bytes.Buffer
	p := NewTerminalProgress(&buf)
	p.Start("e", 400, 0)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				p.TaskDone("e", "k", 0, nil)
				p.Logf("x")
			}
		})
	}
	wg.Wait()
	p.Finish("e", 0)
	if !strings.Contains(buf.String(), "e: 400/400 tasks done") {
		t.Fatalf("final line missing:\n%s", buf.String()[max(0, buf.Len()-200):])
	}
}
