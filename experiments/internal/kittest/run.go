package kittest

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/experiments/styles"
	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/plotting/plottest"
	"github.com/fastkernels/kernellab/lab/run"
	"gonum.org/v1/plot/vg"
)

// RunAndCheck executes e at scale sc into dir (data from the environment's source, which
// UseDataMirror points at the mirror), renders it and checks its claims, failing the test on
// any error, a missing figure, or (with requirePass) a claim that is not supported; with
// requirePass false a claim that is not supported is only logged (at smoke scale the statistics
// are often inconclusive, and a claim may honestly fail on our data), while a claim that cannot be
// evaluated still fails.
func RunAndCheck(t *testing.T, e *run.Experiment, sc run.Scale, dir string, requirePass bool) []run.ClaimResult {
	t.Helper()
	res, err := run.Execute(context.Background(), e, run.Options{Scale: sc, Dir: dir, Data: dataset.DefaultSource()})
	if err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	figDir := filepath.Join(dir, "figures")
	if err := run.Render(e, res, figDir); err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	for _, ext := range []string{".png", ".svg"} {
		if fi, err := os.Stat(filepath.Join(figDir, e.ID+ext)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: no %s figure (%v)", e.ID, ext, err)
		}
	}
	claims := run.CheckClaims(e, res)
	if len(claims) != len(e.Claims) {
		t.Fatalf("%s: %d claim results for %d claims", e.ID, len(claims), len(e.Claims))
	}
	for _, c := range claims {
		t.Logf("%s %s: %s — %s", e.ID, c.ClaimID, c.Status, c.Evidence)
		if c.Status != run.StatusSupported && (requirePass || c.Status == run.StatusError || c.Status == run.StatusNotRun) {
			t.Errorf("%s %s: %s — %s", e.ID, c.ClaimID, c.Status, c.Evidence)
		}
	}
	return claims
}

// UseDataMirror points the data loaders at the offline mirror (LAB_DATA_MIRROR, else
// /work/shared/datasets) and skips the test when there is none.
func UseDataMirror(t *testing.T) {
	t.Helper()
	dir := os.Getenv("LAB_DATA_MIRROR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "datasets")
	}
	if _, err := os.Stat(filepath.Join(dir, "houses")); err != nil {
		t.Skipf("no data mirror with houses at %s (set LAB_DATA_MIRROR)", dir)
	}
	t.Setenv("LAB_DATA_MIRROR", dir)
}

// RequireDataMirror is UseDataMirror for tests and benchmarks alike: a test gets UseDataMirror, a
// benchmark (which cannot set the environment) skips unless LAB_DATA_MIRROR is set.
func RequireDataMirror(tb testing.TB) {
	tb.Helper()
	if t, ok := tb.(*testing.T); ok {
		UseDataMirror(t)
	} else if os.Getenv("LAB_DATA_MIRROR") == "" {
		tb.Skip("no data mirror: set LAB_DATA_MIRROR")
	}
}

// CheckPrintFigure checks a figure rendered into figDir for print: its SVG is laid out at page or
// column width, no text of it is below plotting.MinPrintFont points at that size, every legend
// entry of labels (label → registered method) is drawn in its method's registered colour, and a
// caption <ID>.md lies beside it.
func CheckPrintFigure(t *testing.T, figDir, id string, labels map[string]string) {
	t.Helper()
	svg, err := os.ReadFile(filepath.Join(figDir, id+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	width, _, err := plottest.ParseSVG(svg)
	if err != nil {
		t.Fatal(err)
	}
	if w := vg.Length(width); math.Abs(float64(w-plotting.PageWidth)) > 0.5 && math.Abs(float64(w-plotting.ColumnWidth)) > 0.5 {
		t.Errorf("%s: SVG %.1f pt wide, want page (%.1f pt) or column width (%.1f pt)", id, width, plotting.PageWidth.Points(), plotting.ColumnWidth.Points())
	}
	if err := plottest.CheckPrintFonts(svg, 0); err != nil {
		t.Errorf("%s: %v", id, err)
	}
	if sizes, err := plottest.SVGFontSizes(svg, 0); err == nil && len(sizes) > 0 {
		t.Logf("%s: %.0f pt wide, smallest font %.2f pt", id, width, slices.Min(sizes))
	}
	if err := plottest.CheckLegendColors(svg, LegendColors(t, labels)); err != nil {
		t.Errorf("%s: %v", id, err)
	}
	if md, err := os.ReadFile(filepath.Join(figDir, id+".md")); err != nil || len(md) < 200 {
		t.Errorf("%s: no caption %s.md beside the figure (%v, %d bytes)", id, id, err, len(md))
	}
}

// RowsOf builds a Results from (dataset, method, params, rep, metric, value) rows.
func RowsOf(id string, rows ...run.Row) *run.Results {
	for i := range rows {
		rows[i].ID = id
	}
	return &run.Results{ID: id, Scale: run.Smoke, Rows: rows}
}

// LegendColors maps each legend label of labels (label → registered method) to the colour of its
// method's registered style (styles.Of), failing the test on an unregistered method.
func LegendColors(t *testing.T, labels map[string]string) map[string]color.Color {
	t.Helper()
	colors := make(map[string]color.Color, len(labels))
	for label, method := range labels {
		s, err := styles.Of(method)
		if err != nil {
			t.Fatalf("legend %q: %v", label, err)
		}
		colors[label] = s.Color
	}
	return colors
}

// CheckFrame checks a live figure's frame (lab/notebook.Live): its PNG decodes to at least
// minWidth × minHeight pixels and its alt text contains every string of alt.
func CheckFrame(tb testing.TB, f notebook.Frame, minWidth, minHeight int, alt ...string) {
	tb.Helper()
	img, err := png.Decode(bytes.NewReader(f.PNG))
	if err != nil {
		tb.Fatalf("the frame is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < minWidth || b.Dy() < minHeight {
		tb.Errorf("the frame is %d × %d pixels, want at least %d × %d", b.Dx(), b.Dy(), minWidth, minHeight)
	}
	for _, want := range alt {
		if !strings.Contains(f.Alt, want) {
			tb.Errorf("alt text %q lacks %q", f.Alt, want)
		}
	}
}
