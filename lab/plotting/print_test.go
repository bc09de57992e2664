package plotting

import (
	"bytes"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// curvePanel is a log-log panel with a band per method (styled by method when byMethod), a
// bound, and labels that are the method names.
func curvePanel(t *testing.T, newPlot func(title, x, y string) *plot.Plot, title string, methods []string, byMethod bool) *plot.Plot {
	t.Helper()
	p := newPlot(title, "landmarks m", "relative error")
	if err := LogX(p); err != nil {
		t.Fatal(err)
	}
	if err := LogY(p); err != nil {
		t.Fatal(err)
	}
	xs := []float64{37, 100, 400, 2300}
	var bands []Band
	for k, m := range methods {
		b := Band{Label: m, X: xs}
		if byMethod {
			s := testStyle(t, m)
			b.Style = &s
		}
		for _, x := range xs {
			e := math.Pow(x, -0.5-0.1*float64(k))
			b.Mean, b.Lo, b.Hi = append(b.Mean, e), append(b.Lo, 0.8*e), append(b.Hi, 1.25*e)
		}
		bands = append(bands, b)
	}
	if err := AddBands(p, bands...); err != nil {
		t.Fatal(err)
	}
	if err := AddStyledHLine(p, 0.004, "bound", testStyle(t, "bound")); err != nil {
		t.Fatal(err)
	}
	return p
}

var ch3Methods = []string{"uniform", "uniform-rls", "recursive", "dac", "exact"}

// testStyle is the style a caller's registry would give each test method (here the catalogue's).
func testStyle(t *testing.T, method string) SeriesStyle {
	t.Helper()
	type palette struct {
		hue   Hue
		glyph Glyph
		dash  Dash
	}
	p, ok := map[string]palette{
		"uniform": {Orange, Diamond, Dotted}, "uniform-rls": {Green, Triangle, DashDot},
		"recursive": {Blue, Box, Solid}, "dac": {Vermillion, Circle, Solid},
		"exact": {Black, Cross, Dashed}, "bound": {Black, NoGlyph, DashDot},
	}[method]
	if !ok {
		t.Fatalf("no test style for %q", method)
	}
	s, err := Style(p.hue, p.glyph, p.dash)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// printFigure is a page-wide figure of two curve panels and a heat map.
func printFigure(t *testing.T) *Figure {
	t.Helper()
	f := NewPrintFigure(1, 3, PageWidth, 4.5*vg.Centimeter)
	f.Set(0, 0, curvePanel(t, NewPrint, "KC1", ch3Methods, true))
	f.Set(0, 1, curvePanel(t, NewPrint, "Houses with a title too long for its panel", ch3Methods[1:], true))
	h := NewPrint("Gram matrix", "column", "row")
	gram := mat.NewDense(6, 6, nil)
	for i := range 6 {
		for j := range 6 {
			gram.Set(i, j, math.Exp(-float64((i-j)*(i-j))/4))
		}
	}
	if err := HeatMap(h, gram, HeatMapOptions{BarLabel: "k(x, x′)"}); err != nil {
		t.Fatal(err)
	}
	f.Set(0, 2, h)
	return f
}

func TestSharedLegendListsEachEntryOnce(t *testing.T) {
	f := printFigure(t)
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range append(slices.Clone(ch3Methods), "bound") {
		if n := bytes.Count(svg, []byte(">"+label+"</text>")); n != 1 {
			t.Errorf("%q drawn %d times, want once in the shared legend", label, n)
		}
	}
	// The panels get their own legends back after drawing.
	for _, p := range f.panels[0][:2] {
		if p.Legend.Rectangle(draw0()).Size().X == 0 {
			t.Error("panel lost its legend after the figure was drawn")
		}
	}
}

// The shared legend goes into the empty slots that end the last row when it fits there (issue
// 33: fig6_6 left three slots empty under a legend that grew the figure), and below otherwise:
// the figure keeps its rows' height in the first case and grows by the legend in the other.
func TestSharedLegendFillsTheEmptySlots(t *testing.T) {
	const panelH = 4 * vg.Centimeter
	for _, tc := range []struct {
		panels int
		grows  bool
	}{
		{3, false}, // the empty slot, half the page wide, holds the short entries
		{4, true},  // no empty slot
	} {
		f := NewPrintFigure(2, 2, PageWidth, panelH)
		for i := range tc.panels {
			f.Set(i/2, i%2, curvePanel(t, NewPrint, "KC1", ch3Methods, true))
		}
		_, h := f.Size()
		if grew := h > 2*panelH; grew != tc.grows {
			t.Errorf("%d panels in 2 × 2: height %v (2 rows: %v), want growth %v", tc.panels, h, 2*panelH, tc.grows)
		}
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		for _, label := range ch3Methods {
			if n := bytes.Count(svg, []byte(">"+label+"</text>")); n != 1 {
				t.Errorf("%d panels: %q drawn %d times, want once", tc.panels, label, n)
			}
		}
	}
}

func TestPrintSaveWritesPNGAt300DPISVGAndPDF(t *testing.T) {
	base := filepath.Join(t.TempDir(), "fig")
	f := printFigure(t)
	if err := f.Save(base); err != nil {
		t.Fatal(err)
	}
	w, h := f.Size()
	png, err := os.ReadFile(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	checkPNG(t, png, int(w.Dots(PrintDPI)+0.5), int(h.Dots(PrintDPI)+0.5))
	checkSVG(t, base+".svg")
	pdf, err := os.ReadFile(base + ".pdf")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.Contains(pdf, []byte("/FontFile2")) {
		t.Errorf("PDF of %d bytes: header %q, embedded TrueType font %v", len(pdf), pdf[:min(8, len(pdf))], bytes.Contains(pdf, []byte("/FontFile2")))
	}
	if err := f.Save(base + ".pdf"); err == nil {
		t.Error("Save accepts a name with the .pdf extension")
	}
}

func TestPrintFigureWidth(t *testing.T) {
	for _, width := range []vg.Length{ColumnWidth, PageWidth} {
		f := NewPrintFigure(2, 2, width, 4*vg.Centimeter)
		f.SetLegend(LegendInside)
		if w, h := f.Size(); w != width || h != 8*vg.Centimeter {
			t.Errorf("figure %v × %v, want %v × %v", w, h, width, 8*vg.Centimeter)
		}
	}
	f := NewPrintFigure(1, 1, ColumnWidth, 4*vg.Centimeter)
	f.SetLegend(LegendPlacement(7))
	if _, err := f.PNG(); err == nil {
		t.Error("an unknown legend placement is not reported")
	}
}

func TestLogTicksLabelTheEndsInPrint(t *testing.T) {
	for _, tc := range []struct {
		lo, hi         float64
		wantLo, wantHi float64
		want           []string
	}{
		// The ends go to the next one-digit value m·10^k past the data (issue 33: 2109 ran to
		// 5000), labelled where they keep room from the decades; on an axis of under three
		// decades the 2× and 5× multiples are labelled too, where they fit (50 is too close to 30,
		// 2000 to 3000).
		{37, 2300, 30, 3000, []string{"30", "100", "200", "500", "1000", "3000"}},
		{1e-3, 0.8, 1e-3, 0.8, []string{"10^−3", "10^−2", "10^−1", "8×10^−1"}},
		{0.011, 0.8, 0.01, 0.8, []string{"0.01", "0.02", "0.05", "0.1", "0.2", "0.8"}},
		// Eight decades: every second one is labelled (at most maxLogLabels without a known
		// length), and the end 6×10⁻⁶ is too close to 10⁻⁴ for 1.5 times the smallest gap.
		{6e-6, 4e2, 6e-6, 4e2, []string{"10^−4", "10^−2", "10^0", "10^2"}},
	} {
		lo, hi := roundLog(tc.lo, false), roundLog(tc.hi, true)
		if lo != tc.wantLo || hi != tc.wantHi {
			t.Errorf("rounded [%g, %g] to [%g, %g], want [%g, %g]", tc.lo, tc.hi, lo, hi, tc.wantLo, tc.wantHi)
		}
		if labels := majors((logTicks{ends: true}).Ticks(lo, hi)); !slices.Equal(labels, tc.want) {
			t.Errorf("labels on [%g, %g] = %q, want %q", lo, hi, labels, tc.want)
		}
	}
	// No axis ends at 7 or 9 times a power of ten: data up to 8.9 end at 10, from 6.6e-3 at 8e-3.
	for _, tc := range [][3]float64{{8.9, 10, 1}, {6.6e-3, 8e-3, 1}, {0.75, 0.8, 1}, {7.5e-3, 6e-3, 0}, {95, 80, 0}} {
		if got := roundLog(tc[0], tc[2] == 1); math.Abs(got-tc[1]) > 1e-12*tc[1] {
			t.Errorf("roundLog(%g, up %v) = %g, want %g", tc[0], tc[2] == 1, got, tc[1])
		}
	}
	// A short axis keeps both decades and drops the end label that would crowd one (5000 sits
	// 17.5 pt from 1000, less than 1.5 times the 17.9 pt their labels need).
	lt := logTicks{ends: true, room: 60, size: MinPrintFont}
	ticks := lt.Ticks(20, 5000)
	if labels, want := majors(ticks), []string{"20", "100", "1000"}; !slices.Equal(labels, want) || !lt.fits(ticks, 20, 5000) {
		t.Errorf("labels on a 60 pt axis %q: want %q, fitting", labels, want)
	}
}

func TestPrintLogTicksKeepTheDecadesOverTheEnds(t *testing.T) {
	// fig4_3's axes run from 10² to 2×10⁴: on a 150 pt axis the end label 2×10⁴ would sit
	// 20 pt from 10⁴, so it is dropped and 10⁴ keeps its label.
	lt := logTicks{ends: true, room: 150, size: MinPrintFont}
	ticks := lt.Ticks(100, 20000)
	if labels, want := majors(ticks), []string{"10^2", "10^3", "10^4"}; !slices.Equal(labels, want) || !lt.fits(ticks, 100, 20000) {
		t.Errorf("labels on a 150 pt axis from 100 to 20000: %q, want %q, fitting", labels, want)
	}
	// With room for all of them, none is dropped.
	wide := logTicks{ends: true, room: 600, size: MinPrintFont}
	if labels, want := majors(wide.Ticks(100, 20000)), []string{"10^2", "10^3", "10^4", "2×10^4"}; !slices.Equal(labels, want) {
		t.Errorf("labels on a 600 pt axis: %q, want %q", labels, want)
	}
}

func TestPrintLogTicksLabelEveryDecade(t *testing.T) {
	// The ranges of the review's log axes that had lost decade labels to their end labels
	// (issue 33: fig4_2 (b) paper, fig4_5 (b), fig3_2 (a), notes_fig_rff), on axes of print size.
	for _, tc := range []struct {
		lo, hi   float64
		room     vg.Length
		vertical bool
		want     []string
	}{
		{5e-8, 0.1, 105, true, []string{"10^−7", "10^−6", "10^−5", "10^−4", "10^−3", "10^−2", "10^−1"}},
		{5e-3, 2, 105, true, []string{"0.01", "0.1", "1"}},
		{5e-3, 2, 300, true, []string{"5×10^−3", "10^−2", "10^−1", "10^0", "2×10^0"}},
		{2e-8, 0.01, 105, true, []string{"10^−7", "10^−6", "10^−5", "10^−4", "10^−3", "10^−2"}},
		{2e-3, 0.5, 110, true, []string{"2×10^−3", "5×10^−3", "10^−2", "2×10^−2", "5×10^−2", "10^−1", "2×10^−1", "5×10^−1"}}, // two decades: 2× and 5× too
		{2e-5, 1e-4, 105, true, []string{"2×10^−5", "5×10^−5", "10^−4"}},                                                     // one decade: 2× and 5× too
		{100, 1e5, 170, false, []string{"10^2", "10^3", "10^4", "10^5"}},
	} {
		lt := logTicks{ends: true, room: tc.room, size: MinPrintFont, vertical: tc.vertical}
		ticks := lt.Ticks(tc.lo, tc.hi)
		labels := majors(ticks)
		if !slices.Equal(labels, tc.want) {
			t.Errorf("[%g, %g] on %v pt: labels %q, want %q", tc.lo, tc.hi, tc.room, labels, tc.want)
		}
		if !lt.fits(ticks, tc.lo, tc.hi) {
			t.Errorf("[%g, %g] on %v pt: labels %q collide", tc.lo, tc.hi, tc.room, labels)
		}
		// Every power of ten on the axis carries a label (they all fit these axes).
		for k := -9; k <= 9; k++ {
			v := math.Pow10(k)
			if v < tc.lo || v > tc.hi {
				continue
			}
			if !slices.ContainsFunc(ticks, func(tk plot.Tick) bool { return tk.Label != "" && math.Abs(tk.Value-v) <= 1e-12*v }) {
				t.Errorf("[%g, %g] on %v pt: the decade 10^%d has no label (%q)", tc.lo, tc.hi, tc.room, k, labels)
			}
		}
	}
}

func TestPrintHeatMapUsesViridisAndLabelsTheBar(t *testing.T) {
	p := NewPrint("", "column", "row")
	if err := HeatMap(p, mat.NewDense(2, 2, []float64{1, 2, 3, 4}), HeatMapOptions{BarLabel: "value (units)"}); err != nil {
		t.Fatal(err)
	}
	rec, c := newRecorder(200, 150)
	p.Draw(c)
	if !slices.Contains(rec.texts, "value (units)") {
		t.Errorf("texts %q lack the bar label", rec.texts)
	}
	v := viridis()
	for _, want := range []color.Color{v[0], v[len(v)-1]} {
		if len(rec.fillsOf(want)) == 0 {
			t.Errorf("colour bar lacks viridis colour %v", want)
		}
	}
	// The screen style keeps its map and draws no bar label.
	q := New("", "column", "row")
	if err := HeatMap(q, mat.NewDense(2, 2, []float64{1, 2, 3, 4}), HeatMapOptions{}); err != nil {
		t.Fatal(err)
	}
	rec, c = newRecorder(200, 150)
	q.Draw(c)
	if len(rec.fillsOf(v[0])) != 0 {
		t.Error("New's heat map uses viridis")
	}
}

func TestViridisTable(t *testing.T) {
	v := viridis()
	if len(v) != 256 || v[0] != (color.NRGBA{R: 68, G: 1, B: 84, A: 255}) || v[255] != (color.NRGBA{R: 253, G: 231, B: 37, A: 255}) {
		t.Fatalf("viridis has %d colours from %v to %v, want 256 from #440154 to #FDE725", len(v), v[0], v[len(v)-1])
	}
	// Viridis's lightness rises monotonically (it was designed so): a mistyped entry breaks that.
	for i := 1; i < len(viridisData); i++ {
		l0, l1 := lightness(floatColor(viridisData[i-1])), lightness(floatColor(viridisData[i]))
		if !(l1 > l0) {
			t.Errorf("viridis lightness falls from entry %d (%.4f) to %d (%.4f)", i-1, l0, i, l1)
		}
	}
}

func floatColor(c [3]float64) color.Color {
	return color.RGBA64{R: uint16(c[0] * 0xffff), G: uint16(c[1] * 0xffff), B: uint16(c[2] * 0xffff), A: 0xffff}
}

func TestWrapText(t *testing.T) {
	sty := NewPrint("t", "x", "y").Title.TextStyle
	long := "(b) Houses with a title too long for its panel"
	got := wrapText(sty, long, sty.Width("(b) Houses with a title"))
	if !strings.Contains(got, "\n") || strings.ReplaceAll(got, "\n", " ") != long {
		t.Errorf("wrapText = %q", got)
	}
	for _, line := range strings.Split(got, "\n") {
		if sty.Width(line) > sty.Width("(b) Houses with a title") {
			t.Errorf("line %q is wider than the panel", line)
		}
	}
	if wrapText(sty, "short", 100) != "short" {
		t.Error("a short title is wrapped")
	}
}

// draw0 is an empty canvas for measuring legends.
func draw0() draw.Canvas { return draw.Canvas{} }
