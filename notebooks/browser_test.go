// Package notebooks_test runs the teaching notebooks the way a reader does: in Jupyter Notebook,
// in a real browser (headless Chromium), cell after cell, and moves their live controls.
//
// GoNB's own driver, cmd/nbexec, drives JupyterLab's application object (Jupyter Notebook 7 with
// --expose-app-in-browser); Debian ships Notebook 6.4 and no registry this project can reach
// serves Notebook 7, so this test drives Notebook 6.4's page API (Jupyter.notebook) instead, with
// go-rod (nbexec's browser library).
package notebooks_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// BrowserVariable enables the browser test: reproduce.sh test sets it, and CI=true makes a missing
// Jupyter Notebook or Chromium a failure instead of a skip.
const browserVariable = "LAB_BROWSER_TEST"

// notebookTimeout bounds one notebook's run at smoke scale (the slowest takes a few minutes).
const notebookTimeout = 20 * time.Minute

// TestNotebooksInBrowser executes every notebook in Jupyter Notebook through headless Chromium:
// all cells in order, as Cell › Run All does. It fails on any cell error (an error output, a Go
// compile error or panic on stderr) and on a notebook without a figure, and, in the first live
// figure of each notebook that has one, moves a slider and checks that the figure is redrawn: its
// image changes and its alt text carries the slider's new value. The notebooks run in place with
// autosave off and are never saved; the test checks that their files are unchanged afterwards.
func TestNotebooksInBrowser(t *testing.T) {
	if os.Getenv(browserVariable) == "" {
		t.Skipf("set %s=1 (reproduce.sh test does) to run the notebooks in headless Chromium", browserVariable)
	}
	jupyter, chromium := tool(t, "jupyter", "/usr/bin/jupyter"), tool(t, "chromium", "/usr/bin/chromium")
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.ipynb"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no notebooks in %s (%v)", dir, err)
	}
	before := map[string][]byte{}
	for _, n := range names {
		if before[n], err = os.ReadFile(n); err != nil {
			t.Fatal(err)
		}
	}
	server := startJupyter(t, jupyter, dir)
	browser := launchBrowser(t, chromium)
	for _, path := range names {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".ipynb"), func(t *testing.T) {
			if err := runNotebook(t, browser, server, name); err != nil {
				t.Fatal(err)
			}
			// Every figure a cell is meant to show, as check_images.py counts them (the same check
			// as for the headless run).
			executed := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(executed, lastExecuted, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("python3", "check_images.py", executed).CombinedOutput(); err != nil {
				t.Fatalf("figures missing: %v\n%s", err, out)
			}
		})
	}
	for _, n := range names {
		if after, err := os.ReadFile(n); err != nil || !bytes.Equal(after, before[n]) {
			t.Errorf("%s changed on disk during the run (autosave?)", filepath.Base(n))
		}
	}
}

// tool finds a program: name on PATH, else fallback; missing, the test skips, or fails in CI.
func tool(t *testing.T, name, fallback string) string {
	t.Helper()
	if p, err := exec.LookPath(fallback); err == nil {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	msg := fmt.Sprintf("%s is missing (Debian: apt-get install jupyter-notebook chromium)", name)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// jupyterServer is a running Jupyter Notebook: its base URL and token.
type jupyterServer struct {
	base, token string
}

// startJupyter starts Jupyter Notebook on dir at a free loopback port with a random token, and
// stops it when the test ends. Its kernels inherit the test's environment, with live figures
// waiting a few seconds for a slider instead of ten minutes (LAB_LIVE_IDLE) and a probe for the
// browser of twenty seconds (LAB_LIVE_PROBE, the browser is there but may be slow to connect).
func startJupyter(t *testing.T, jupyter, dir string) jupyterServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		t.Fatal(err)
	}
	token := hex.EncodeToString(buf)
	runtime := t.TempDir()
	args := []string{"notebook", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--NotebookApp.token=" + token, "--NotebookApp.notebook_dir=" + dir, "--NotebookApp.port_retries=0"}
	if os.Getuid() == 0 {
		args = append(args, "--allow-root") // Jupyter refuses root without it
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, jupyter, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JUPYTER_RUNTIME_DIR="+runtime, "JUPYTER_CONFIG_DIR="+t.TempDir(),
		"LAB_LIVE_IDLE=5", "LAB_LIVE_PROBE=20", "BROWSER=")
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	ready := make(chan struct{})
	var log bytes.Buffer
	go func() {
		sc := bufio.NewScanner(out)
		once := false
		for sc.Scan() {
			line := sc.Text()
			log.WriteString(line + "\n")
			if !once && strings.Contains(line, fmt.Sprintf("127.0.0.1:%d/", port)) {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatalf("Jupyter Notebook did not start in 60 s:\n%s", log.String())
	}
	return jupyterServer{base: fmt.Sprintf("http://127.0.0.1:%d/", port), token: token}
}

// launchBrowser starts headless Chromium with the flags this machine's closed network needs and
// closes it when the test ends.
func launchBrowser(t *testing.T, chromium string) *rod.Browser {
	t.Helper()
	l := launcher.New().Bin(chromium).Headless(true).Leakless(false).NoSandbox(true).
		Set("disable-gpu").Set("disable-quic").Set("no-first-run").Set("disable-background-networking").
		Set("disable-component-update").Set("disable-sync").UserDataDir(t.TempDir())
	u, err := l.Launch()
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		t.Fatalf("connecting to Chromium: %v", err)
	}
	t.Cleanup(func() {
		_ = b.Close()
		l.Cleanup()
	})
	return b
}

// eval runs a JavaScript function on the page and decodes its JSON result into out.
func eval(page *rod.Page, js string, out any) error {
	res, err := page.Eval(js)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(res.Value.JSON("", "")), out)
}

// lastExecuted is the JSON of the notebook runNotebook ran last, with its outputs.
var lastExecuted []byte

// runNotebook opens the notebook, runs all its cells, exercises its first live figure and checks
// the outputs; it logs what it saw on t and keeps the executed notebook in lastExecuted.
func runNotebook(t *testing.T, browser *rod.Browser, server jupyterServer, name string) error {
	page, err := browser.Page(proto.TargetCreateTarget{URL: server.base + "notebooks/" + name + "?token=" + server.token})
	if err != nil {
		return err
	}
	defer page.Close()
	deadline := time.Now().Add(notebookTimeout)
	// The kernel must be up before Run All (GoNB starts in a second or two).
	if err := waitFor(deadline, func() (bool, error) {
		var ok bool
		err := eval(page, `() => !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded &&
			Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected())`, &ok)
		return ok, err
	}); err != nil {
		return fmt.Errorf("the notebook or its kernel did not load: %w", err)
	}
	var started bool
	if err := eval(page, `() => { Jupyter.notebook.set_autosave_interval(0); Jupyter.notebook.clear_all_output();
		Jupyter.notebook.execute_all_cells(); return true; }`, &started); err != nil {
		return err
	}
	sliderMoved := false
	if err := waitFor(deadline, func() (bool, error) {
		if !sliderMoved {
			moved, err := moveFirstSlider(t, page)
			if err != nil {
				return false, err
			}
			sliderMoved = moved
		}
		var st struct{ Busy, Pending int }
		err := eval(page, `() => {
			let busy = 0, pending = 0;
			for (const c of Jupyter.notebook.get_cells()) {
				if (c.cell_type !== "code" || c.get_text().trim() === "") continue;
				if (c.input_prompt_number === "*") busy++;
				else if (typeof c.input_prompt_number !== "number") pending++;
			}
			return {Busy: busy, Pending: pending};
		}`, &st)
		return err == nil && st.Busy == 0 && st.Pending == 0, err
	}); err != nil {
		return fmt.Errorf("the cells did not all run: %w", err)
	}
	var nb string
	if err := eval(page, `() => JSON.stringify(Jupyter.notebook.toJSON())`, &nb); err != nil {
		return err
	}
	lastExecuted = []byte(nb)
	if msgs := cellErrors([]byte(nb)); len(msgs) > 0 {
		return fmt.Errorf("%d cell(s) failed:\n%s", len(msgs), strings.Join(msgs, "\n"))
	}
	if !strings.Contains(nb, `"image/png"`) && !strings.Contains(nb, "data:image/png;base64") {
		return errors.New("the notebook showed no figure")
	}
	if strings.Contains(nb, "notebook.Live(") && !sliderMoved {
		return errors.New("the notebook has a live figure but no slider appeared")
	}
	return nil
}

// waitFor polls cond every 500 ms until it holds, fails, or the deadline passes.
func waitFor(deadline time.Time, cond func() (bool, error)) error {
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("timed out")
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// moveFirstSlider looks for a live figure's slider; when there is one, it moves it to the far end
// of its range, waits for the figure beside it to be redrawn (a new image whose alt text names the
// new value), then presses the figure's Done button. It reports whether it found a slider.
func moveFirstSlider(t *testing.T, page *rod.Page) (bool, error) {
	var before struct {
		Found    bool
		Alt, Src string
		Value    string
	}
	err := eval(page, `() => {
		const s = document.querySelector(".output_area input[type=range]");
		if (!s) return {Found: false};
		const cell = s.closest(".cell");
		const img = cell && cell.querySelector("img[alt]");
		if (!img) return {Found: false};
		const v = (Number(s.value) === Number(s.max)) ? s.min : s.max;
		s.value = v;
		s.dispatchEvent(new Event("input"));
		s.dispatchEvent(new Event("change"));
		return {Found: true, Alt: img.alt, Src: img.src.slice(-64), Value: String(v)};
	}`, &before)
	if err != nil || !before.Found {
		return false, err
	}
	deadline := time.Now().Add(30 * time.Second)
	var after struct{ Alt, Src, Value string }
	err = waitFor(deadline, func() (bool, error) {
		err := eval(page, `() => {
			const s = document.querySelector(".output_area input[type=range]");
			const cell = s && s.closest(".cell");
			const img = cell && cell.querySelector("img[alt]");
			const span = s && s.parentElement.querySelector("span[id]");
			return {Alt: img ? img.alt : "", Src: img ? img.src.slice(-64) : "", Value: span ? span.textContent : ""};
		}`, &after)
		return err == nil && after.Alt != before.Alt && after.Src != before.Src, err
	})
	if err != nil {
		return true, fmt.Errorf("the live figure was not redrawn after the slider moved to %s (alt text still %q): %v", before.Value, before.Alt, err)
	}
	if after.Value == "" || !strings.Contains(after.Alt, after.Value) {
		return true, fmt.Errorf("after the slider moved, the figure's alt text %q does not name the shown value %q", after.Alt, after.Value)
	}
	t.Logf("live figure redrawn: alt text %q → %q", before.Alt, after.Alt)
	var pressed bool
	err = eval(page, `() => {
		const s = document.querySelector(".output_area input[type=range]");
		const cell = s && s.closest(".cell");
		for (const b of (cell ? cell.querySelectorAll("button") : [])) {
			if (b.textContent.trim() === "Done") { b.click(); return true; }
		}
		return false;
	}`, &pressed)
	if err == nil && !pressed {
		err = errors.New("the live figure has no Done button")
	}
	return true, err
}

// goFailure matches what GoNB prints on stderr when a cell does not compile or its program fails.
var goFailure = regexp.MustCompile(`(?m)^(panic: |exit status \d|.*\.go:\d+:\d+: )`)

// cellErrors returns a line for every code cell of the notebook JSON nb that failed: an error
// output, or a Go failure on stderr.
func cellErrors(nb []byte) []string {
	var doc struct {
		Cells []struct {
			CellType string `json:"cell_type"`
			Outputs  []struct {
				OutputType string          `json:"output_type"`
				Name       string          `json:"name"`
				Text       json.RawMessage `json:"text"`
				Ename      string          `json:"ename"`
				Evalue     string          `json:"evalue"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(nb, &doc); err != nil {
		return []string{"the notebook JSON does not parse: " + err.Error()}
	}
	var msgs []string
	for i, c := range doc.Cells {
		for _, o := range c.Outputs {
			text := joinText(o.Text)
			switch {
			case o.OutputType == "error":
				msgs = append(msgs, fmt.Sprintf("cell %d: %s: %s", i, o.Ename, o.Evalue))
			case o.OutputType == "stream" && o.Name == "stderr" && goFailure.MatchString(text):
				msgs = append(msgs, fmt.Sprintf("cell %d: %s", i, strings.TrimSpace(text)))
			}
		}
	}
	return msgs
}

// joinText reads a notebook text field: a string or a list of strings.
func joinText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	_ = json.Unmarshal(raw, &parts)
	return strings.Join(parts, "")
}
