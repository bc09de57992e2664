package plotting

import (
	"bytes"
	"cmp"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func samplePlot(t *testing.T, title string) *plot.Plot {
	t.Helper()
	p := New(title, "x (s)", "y (m)")
	err := AddBands(p, Band{Label: "mean", X: []float64{1, 2, 3}, Mean: []float64{1, 4, 9}, Lo: []float64{0.5, 3, 8}, Hi: []float64{2, 5, 10}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkPNG decodes the file and checks its pixel size.
func checkPNG(t *testing.T, data []byte, w, h int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("PNG is %d × %d pixels, want %d × %d", b.Dx(), b.Dy(), w, h)
	}
}

func checkSVG(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("<?xml")) && !bytes.HasPrefix(data, []byte("<svg")) {
		t.Errorf("%s starts with %q, not an SVG", path, data[:min(len(data), 20)])
	}
}

func TestSavePlotWritesPNGAndSVG(t *testing.T) {
	base := filepath.Join(t.TempDir(), "sub", "fig")
	if err := SavePlot(base, samplePlot(t, "t"), 4*vg.Inch, 3*vg.Inch); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, data, 4*DPI, 3*DPI)
	checkSVG(t, base+".svg")

	inline, err := PlotPNG(samplePlot(t, "t"), 2*vg.Inch, 1*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, inline, 2*DPI, DPI)
}

func TestSavePlotErrors(t *testing.T) {
	dir := t.TempDir()
	p := samplePlot(t, "t")
	for _, tc := range []struct {
		name string
		base string
		p    *plot.Plot
		w, h vg.Length
	}{
		{"nil plot", filepath.Join(dir, "a"), nil, vg.Inch, vg.Inch},
		{"zero width", filepath.Join(dir, "a"), p, 0, vg.Inch},
		{"huge height", filepath.Join(dir, "a"), p, vg.Inch, 1e6 * vg.Inch},
		{"extension", filepath.Join(dir, "a.png"), p, vg.Inch, vg.Inch},
		{"empty name", "", p, vg.Inch, vg.Inch},
	} {
		if err := SavePlot(tc.base, tc.p, tc.w, tc.h); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed saves left files: %v", entries)
	}
}

// panicky is a plotter that fails while drawing, as gonum/plot plotters do on some bad data.
type panicky struct{}

func (panicky) Plot(draw.Canvas, *plot.Plot) { panic("bad data") }

func TestDrawingPanicBecomesError(t *testing.T) {
	p := samplePlot(t, "t")
	p.Add(panicky{})
	base := filepath.Join(t.TempDir(), "fig")
	err := SavePlot(base, p, 3*vg.Inch, 2*vg.Inch)
	if err == nil || !strings.Contains(err.Error(), "bad data") {
		t.Fatalf("error %v, want the drawing failure", err)
	}
	if _, statErr := os.Stat(base + ".png"); !os.IsNotExist(statErr) {
		t.Error("a failed drawing wrote a PNG")
	}
}

func TestFigurePanelsAreLettered(t *testing.T) {
	titles := []string{"loss", "", "time", "memory"}
	f := NewFigure(2, 2, 3*vg.Inch, 2*vg.Inch)
	var plots []*plot.Plot
	for k, title := range titles {
		p := samplePlot(t, title)
		plots = append(plots, p)
		f.Set(k/2, k%2, p)
	}
	rec, c := newRecorder(6*vg.Inch, 4*vg.Inch)
	f.Draw(c)
	for _, want := range []string{"(a) loss", "(b)", "(c) time", "(d) memory"} {
		if !slices.Contains(rec.texts, want) {
			t.Errorf("title %q not drawn; texts: %q", want, rec.texts)
		}
	}
	for k, p := range plots {
		if p.Title.Text != titles[k] {
			t.Errorf("panel %d title left as %q, want %q", k, p.Title.Text, titles[k])
		}
	}
	data, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, data, 6*DPI, 4*DPI)
	base := filepath.Join(t.TempDir(), "figure")
	if err := f.Save(base); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, base+".svg")
}

func TestFigureSkipsEmptyPanelsInLettering(t *testing.T) {
	f := NewFigure(1, 3, 2*vg.Inch, 2*vg.Inch)
	f.Set(0, 0, samplePlot(t, "first"))
	f.Set(0, 2, samplePlot(t, "third"))
	rec, c := newRecorder(6*vg.Inch, 2*vg.Inch)
	f.Draw(c)
	if !slices.Contains(rec.texts, "(a) first") || !slices.Contains(rec.texts, "(b) third") {
		t.Errorf("texts %q lack (a) first and (b) third", rec.texts)
	}
}

func TestFigureErrors(t *testing.T) {
	if _, err := NewFigure(0, 2, vg.Inch, vg.Inch).PNG(); err == nil {
		t.Error("0 rows: no error")
	}
	if _, err := NewFigure(1, 1, -vg.Inch, vg.Inch).PNG(); err == nil {
		t.Error("negative panel width: no error")
	}
	f := NewFigure(1, 2, vg.Inch, vg.Inch)
	f.Set(0, 2, samplePlot(t, "t"))
	if err := f.Save(filepath.Join(t.TempDir(), "f")); err == nil || !strings.Contains(err.Error(), "(0, 2)") {
		t.Errorf("panel out of range: %v", err)
	}
	var nilFigure *Figure
	if _, err := nilFigure.PNG(); err == nil {
		t.Error("nil figure: no error")
	}
}

func TestPanelLetter(t *testing.T) {
	for k, want := range map[int]string{0: "(a)", 3: "(d)", 25: "(z)", 26: "(aa)", 27: "(ab)", 52: "(ba)"} {
		if got := panelLetter(k); got != want {
			t.Errorf("panelLetter(%d) = %q, want %q", k, got, want)
		}
	}
}

func TestOddDataDrawsWithoutError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		log   bool
		build func(p *plot.Plot) error
	}{
		{"single point band", false, func(p *plot.Plot) error {
			return AddBands(p, Band{Label: "one", X: []float64{1}, Mean: []float64{2}, Lo: []float64{1}, Hi: []float64{3}})
		}},
		{"constant line", false, func(p *plot.Plot) error { return AddLine(p, []float64{1, 1}, []float64{5, 5}, "c", 0, false) }},
		{"extreme values", false, func(p *plot.Plot) error {
			return AddScatter(p, []float64{-1e308, 1e308}, []float64{-1e308, 1e308}, "far", 0)
		}},
		{"tiny values on log axes", true, func(p *plot.Plot) error {
			return AddBands(p, Band{Label: "tiny", X: []float64{1e-300, 1e300}, Mean: []float64{1e-300, 1}, Lo: []float64{1e-301, 0.5}, Hi: []float64{1e-299, 2}})
		}},
		{"only a horizontal line on a log axis", true, func(p *plot.Plot) error { return AddHLine(p, 0.5, "level", 0) }},
		{"many legend entries", false, func(p *plot.Plot) error {
			for i := range 30 {
				if err := AddLine(p, []float64{0, 1}, []float64{float64(i), float64(i)}, "entry", i, i%2 == 0); err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(tc.name, "x", "y")
			if tc.log {
				if err := LogX(p); err != nil {
					t.Fatal(err)
				}
				if err := LogY(p); err != nil {
					t.Fatal(err)
				}
			}
			if err := tc.build(p); err != nil {
				t.Fatal(err)
			}
			if _, err := PlotPNG(p, 3*vg.Inch, 2*vg.Inch); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// An x-axis label wider than its panel stays inside the figure: on a page-wide row of four print
// panels with a long label (fig6_2's, which ran off the right edge as "pruned size (% of the
// forest"), the figure's outer columns of pixels, narrower than its inset, stay white. Both
// outer panels are checked (the leftmost label ran off the left edge in the same way), with a
// linear x axis and with a log one, whose label this package draws itself (axisLabel).
func TestFigureKeepsAxisLabelsInside(t *testing.T) {
	for _, logX := range []bool{false, true} {
		f := NewPrintFigure(1, 4, PageWidth, 1.6*vg.Inch)
		for col := range 4 {
			p := NewPrint("panel", "pruned size (% of the forest, in trees)", "test accuracy")
			if err := AddLine(p, []float64{1, 2, 3}, []float64{0.5, 0.7, 0.9}, "OMP", 0, false); err != nil {
				t.Fatal(err)
			}
			if logX {
				if err := LogX(p); err != nil {
					t.Fatal(err)
				}
			}
			f.Set(0, col, p)
		}
		encoded, err := f.PNG()
		if err != nil {
			t.Fatal(err)
		}
		checkWhiteEdges(t, encoded)
	}
}

// TestFigureTitlesDoNotOverlap: in a print figure whose outer margins widen to keep long x-axis
// labels inside, panel titles of every length are wrapped to the panels' final width, so that no
// two titles on the same baseline overlap.
func TestFigureTitlesDoNotOverlap(t *testing.T) {
	const long = "kernel ridge regression on the forest cover types with Nyström features and leverage scores"
	for n := 10; n <= len(long); n += 2 {
		title := strings.TrimSpace(long[:n])
		f := NewPrintFigure(1, 4, PageWidth, 1.6*vg.Inch)
		for col := range 4 {
			p := NewPrint(title, "pruned size (% of the forest, in trees, kept by OMP)", "test accuracy")
			if err := AddLine(p, []float64{1, 2, 3}, []float64{0.5, 0.7, 0.9}, "OMP", 0, false); err != nil {
				t.Fatal(err)
			}
			f.Set(0, col, p)
		}
		rec, c := newRecorder(PageWidth, 1.6*vg.Inch)
		f.Draw(c)
		byLine := map[vg.Length][]placedText{}
		for _, p := range rec.placed {
			if strings.HasPrefix(p.s, "(") || strings.Contains(long, p.s) {
				byLine[p.at.Y] = append(byLine[p.at.Y], p)
			}
		}
		for y, line := range byLine {
			slices.SortFunc(line, func(a, b placedText) int { return cmp.Compare(a.at.X, b.at.X) })
			for i := 1; i < len(line); i++ {
				if end := line[i-1].at.X + line[i-1].width; end > line[i].at.X {
					t.Fatalf("title %q: at y = %.1f, %q ends at %.1f, after it %q starts at %.1f", title, y, line[i-1].s, end, line[i].s, line[i].at.X)
				}
			}
		}
	}
}

// checkWhiteEdges fails if the outer three columns of pixels of the PNG on either side hold
// anything but white.
func checkWhiteEdges(t *testing.T, encoded []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(encoded))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	edge := 3 // pixels: less than the figure's inset at PrintDPI
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for i := range edge {
			for _, x := range []int{b.Min.X + i, b.Max.X - 1 - i} {
				if r, g, bl, _ := img.At(x, y).RGBA(); r < 0xf000 || g < 0xf000 || bl < 0xf000 {
					t.Fatalf("pixel (%d, %d) at the figure's edge is not white: something runs off the figure", x, y)
				}
			}
		}
	}
}

// LivePNG holds the same pixels as PNG, encoded at another zlib level.
func TestLivePNGHasPNGsPixels(t *testing.T) {
	f := NewFigure(1, 2, 4*vg.Inch, 3*vg.Inch)
	f.Set(0, 0, samplePlot(t, "left"))
	f.Set(0, 1, samplePlot(t, "right"))
	a, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.LivePNG()
	if err != nil {
		t.Fatal(err)
	}
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		t.Fatalf("bounds %v and %v", ia.Bounds(), ib.Bounds())
	}
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				t.Fatalf("pixel (%d, %d): %v and %v", x, y, ia.At(x, y), ib.At(x, y))
			}
		}
	}
	if _, err := new(Figure).LivePNG(); err == nil {
		t.Fatal("LivePNG of a zero Figure: no error")
	}
}
