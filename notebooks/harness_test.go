package notebooks_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The checks of the browser run can fail: a notebook whose second cell panics, run by the same
// harness in its own Jupyter Notebook, is reported with the panic's message, and one that runs
// cleanly but shows no figure is reported too.
func TestBrowserRunReportsFailures(t *testing.T) {
	if os.Getenv(browserVariable) == "" {
		t.Skipf("set %s=1 to run the notebooks in headless Chromium", browserVariable)
	}
	jupyter, chromium := tool(t, "jupyter", "/usr/bin/jupyter"), tool(t, "chromium", "/usr/bin/chromium")
	dir := t.TempDir()
	writeNotebook(t, filepath.Join(dir, "panics.ipynb"), "%%\nfmt.Println(\"first cell ran\")", "%%\npanic(\"deliberate failure\")")
	writeNotebook(t, filepath.Join(dir, "nofigure.ipynb"), "%%\nfmt.Println(\"no figure here\")")
	server := startJupyter(t, jupyter, dir)
	browser := launchBrowser(t, chromium)
	for name, want := range map[string]string{"panics.ipynb": "deliberate failure", "nofigure.ipynb": "no figure"} {
		err := runNotebook(t, browser, server, name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, want)
		}
	}
}

// cellErrors flags error outputs and Go failures on stderr, and nothing else.
func TestCellErrors(t *testing.T) {
	nb := `{"cells": [
		{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout", "text": ["panic: in stdout is fine\n"]}]},
		{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr", "text": "progress 3/4 tasks\n"}]},
		{"cell_type": "code", "outputs": [{"output_type": "error", "ename": "ERROR", "evalue": "failed to run"}]},
		{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr", "text": ["panic: boom\n", "goroutine 1\n"]}]},
		{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr", "text": "main.go:12:3: undefined: x\n"}]},
		{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stderr", "text": "exit status 2\n"}]}
	]}`
	got := cellErrors([]byte(nb))
	if len(got) != 4 || !strings.HasPrefix(got[0], "cell 2:") || !strings.Contains(got[1], "boom") ||
		!strings.Contains(got[2], "undefined: x") || !strings.Contains(got[3], "exit status 2") {
		t.Fatalf("cellErrors = %q, want cells 2, 3, 4 and 5", got)
	}
	if got := cellErrors([]byte("{")); len(got) != 1 {
		t.Fatalf("bad JSON: %q, want one message", got)
	}
}

// notebook.Live in a real browser: the figure drawn at the default is shown, the slider appears,
// moving it redraws the figure with the new value in its alt text (runNotebook checks it), and
// Done ends the cell. The notebook draws a solid square whose colour depends on the value.
func TestLiveFigureInBrowser(t *testing.T) {
	if os.Getenv(browserVariable) == "" {
		t.Skipf("set %s=1 to run the notebooks in headless Chromium", browserVariable)
	}
	jupyter, chromium := tool(t, "jupyter", "/usr/bin/jupyter"), tool(t, "chromium", "/usr/bin/chromium")
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeNotebook(t, filepath.Join(dir, "live.ipynb"),
		"!*rm -f go.work && go work init && go work use . "+root+"\n%goworkfix\n%noautoget",
		`import (
	"bytes"
	"image"
	"image/png"

	"github.com/fastkernels/kernellab/lab/notebook"
)

%%
controls := []notebook.Control{{Label: "shade", Min: 0, Max: 255, Value: 40}}
err := notebook.Live("square", controls, func(v []int) (notebook.Frame, error) {
	img := image.NewGray(image.Rect(0, 0, 40, 40))
	for i := range img.Pix {
		img.Pix[i] = uint8(v[0])
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return notebook.Frame{}, err
	}
	return notebook.Frame{PNG: buf.Bytes(), Alt: notebook.AltText(controls, v)}, nil
})
if err != nil {
	panic(err)
}`)
	server := startJupyter(t, jupyter, dir)
	browser := launchBrowser(t, chromium)
	if err := runNotebook(t, browser, server, "live.ipynb"); err != nil {
		t.Fatal(err)
	}
}

// writeNotebook writes a GoNB notebook of the given code cells, without outputs, to path.
func writeNotebook(t *testing.T, path string, cells ...string) {
	t.Helper()
	var nb struct {
		Cells    []map[string]any `json:"cells"`
		Metadata map[string]any   `json:"metadata"`
		Format   int              `json:"nbformat"`
		Minor    int              `json:"nbformat_minor"`
	}
	nb.Metadata = map[string]any{"kernelspec": map[string]any{"name": "gonb", "display_name": "Go (gonb)", "language": "go"}}
	nb.Format, nb.Minor = 4, 5
	for i, src := range cells {
		nb.Cells = append(nb.Cells, map[string]any{"cell_type": "code", "id": fmt.Sprintf("c%d", i),
			"execution_count": nil, "metadata": map[string]any{}, "outputs": []any{}, "source": src})
	}
	data, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
