package plottest_test

import (
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/plotting/plottest"
)

// curvePanel is a log-log panel with a band per method (styled by method when byMethod), a
// bound, and labels that are the method names.
func curvePanel(t *testing.T, newPlot func(title, x, y string) *plot.Plot, title string, methods []string, byMethod bool) *plot.Plot {
	t.Helper()
	p := newPlot(title, "landmarks m", "relative error")
	if err := plotting.LogX(p); err != nil {
		t.Fatal(err)
	}
	if err := plotting.LogY(p); err != nil {
		t.Fatal(err)
	}
	xs := []float64{37, 100, 400, 2300}
	var bands []plotting.Band
	for k, m := range methods {
		b := plotting.Band{Label: m, X: xs}
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
	if err := plotting.AddBands(p, bands...); err != nil {
		t.Fatal(err)
	}
	if err := plotting.AddStyledHLine(p, 0.004, "bound", testStyle(t, "bound")); err != nil {
		t.Fatal(err)
	}
	return p
}

var ch3Methods = []string{"uniform", "uniform-rls", "recursive", "dac", "exact"}

// testStyle is the style a caller's registry would give each test method (here the catalogue's).
func testStyle(t *testing.T, method string) plotting.SeriesStyle {
	t.Helper()
	type palette struct {
		hue   plotting.Hue
		glyph plotting.Glyph
		dash  plotting.Dash
	}
	p, ok := map[string]palette{
		"uniform": {plotting.Orange, plotting.Diamond, plotting.Dotted}, "uniform-rls": {plotting.Green, plotting.Triangle, plotting.DashDot},
		"recursive": {plotting.Blue, plotting.Box, plotting.Solid}, "dac": {plotting.Vermillion, plotting.Circle, plotting.Solid},
		"exact": {plotting.Black, plotting.Cross, plotting.Dashed}, "bound": {plotting.Black, plotting.NoGlyph, plotting.DashDot},
	}[method]
	if !ok {
		t.Fatalf("no test style for %q", method)
	}
	s, err := plotting.Style(p.hue, p.glyph, p.dash)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// printFigure is a page-wide figure of two curve panels and a heat map.
func printFigure(t *testing.T) *plotting.Figure {
	t.Helper()
	f := plotting.NewPrintFigure(1, 3, plotting.PageWidth, 4.5*vg.Centimeter)
	f.Set(0, 0, curvePanel(t, plotting.NewPrint, "KC1", ch3Methods, true))
	f.Set(0, 1, curvePanel(t, plotting.NewPrint, "Houses with a title too long for its panel", ch3Methods[1:], true))
	h := plotting.NewPrint("Gram matrix", "column", "row")
	gram := mat.NewDense(6, 6, nil)
	for i := range 6 {
		for j := range 6 {
			gram.Set(i, j, math.Exp(-float64((i-j)*(i-j))/4))
		}
	}
	if err := plotting.HeatMap(h, gram, plotting.HeatMapOptions{BarLabel: "k(x, x′)"}); err != nil {
		t.Fatal(err)
	}
	f.Set(0, 2, h)
	return f
}

func TestPrintFigureFontsAreAtLeast7pt(t *testing.T) {
	for _, legend := range []plotting.LegendPlacement{plotting.LegendBelow, plotting.LegendRight, plotting.LegendInside} {
		f := printFigure(t)
		f.SetLegend(legend)
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if err := plottest.CheckPrintFonts(svg, plotting.PageWidth); err != nil {
			t.Errorf("legend %d: %v", legend, err)
		}
		sizes, err := plottest.SVGFontSizes(svg, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(sizes) < 20 || slices.Min(sizes) < plotting.MinPrintFont {
			t.Errorf("legend %d: %d texts, smallest %.2f pt", legend, len(sizes), slices.Min(sizes))
		}
		_, texts, _ := plottest.ParseSVG(svg)
		var all []string
		for _, tx := range texts {
			all = append(all, tx.Text)
		}
		// The exponents of log-axis labels and the colour bar's label are texts of their own.
		for _, want := range []string{"−1", "k(x, x′)", "landmarks m"} {
			if !slices.Contains(all, want) {
				t.Errorf("legend %d: no text %q among %q", legend, want, all)
			}
		}
		if w, _ := f.Size(); math.Abs(float64(w-plotting.PageWidth)) > 1e-9 && legend != plotting.LegendRight {
			t.Errorf("legend %d: figure %v wide, want %v", legend, w, plotting.PageWidth)
		}
	}
}

func TestCheckPrintFontsFailsOnScreenFigures(t *testing.T) {
	// The case: a three-panel figure laid out 26.7 cm wide and printed at page width.
	f := plotting.NewFigure(1, 3, 3.5*vg.Inch, 2.8*vg.Inch)
	for col := range 3 {
		f.Set(0, col, curvePanel(t, plotting.New, "panel", ch3Methods, false))
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	err = plottest.CheckPrintFonts(svg, plotting.PageWidth)
	if err == nil || !strings.Contains(err.Error(), "landmarks m") {
		t.Errorf("CheckPrintFonts of a screen figure scaled to the page = %v, want the axis labels reported", err)
	}
	// At its own width it still fails: the exponents of plotting.New's log axes are 6.5 pt.
	if err := plottest.CheckPrintFonts(svg, 0); err == nil {
		t.Error("CheckPrintFonts accepts 6.5 pt exponents")
	}
	sizes, err := plottest.SVGFontSizes(svg, plotting.PageWidth)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := slices.Max(sizes), 11*plotting.PageWidth.Points()/(3*3.5*vg.Inch).Points(); math.Abs(got-want) > 0.01 {
		t.Errorf("largest font at page width %.3f pt, want the 11 pt title scaled, %.3f", got, want)
	}
}

func TestLegendEntriesUseTheirStylesColours(t *testing.T) {
	labels := map[string]color.Color{"bound": testStyle(t, "bound").Color}
	for _, m := range ch3Methods {
		labels[m] = testStyle(t, m).Color
	}
	for _, legend := range []plotting.LegendPlacement{plotting.LegendBelow, plotting.LegendRight, plotting.LegendInside} {
		f := printFigure(t)
		f.SetLegend(legend)
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if err := plottest.CheckLegendColors(svg, labels); err != nil {
			t.Errorf("legend %d: %v", legend, err)
		}
	}
	// Styled by position instead of by method, DAC (4th) is drawn in the 4th colour, not in its own.
	f := plotting.NewPrintFigure(1, 1, plotting.ColumnWidth, 5*vg.Centimeter)
	f.Set(0, 0, curvePanel(t, plotting.NewPrint, "", ch3Methods, false))
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	err = plottest.CheckLegendColors(svg, labels)
	if err == nil || !strings.Contains(err.Error(), `"dac"`) {
		t.Errorf("CheckLegendColors of index-styled bands = %v, want dac reported", err)
	}
	// With a legend per panel, every panel's entry is checked: the second panel's DAC is wrong.
	two := plotting.NewPrintFigure(1, 2, plotting.PageWidth, 5*vg.Centimeter)
	two.SetLegend(plotting.LegendInside)
	two.Set(0, 0, curvePanel(t, plotting.NewPrint, "", ch3Methods, true))
	two.Set(0, 1, curvePanel(t, plotting.NewPrint, "", ch3Methods, false))
	svg2, err := two.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if err := plottest.CheckLegendColors(svg2, map[string]color.Color{"dac": testStyle(t, "dac").Color}); err == nil {
		t.Error("CheckLegendColors misses a wrong colour in the second panel's legend")
	}
	if err := plottest.CheckLegendColors(svg, map[string]color.Color{"no such label": testStyle(t, "dac").Color}); err == nil {
		t.Error("CheckLegendColors accepts a missing legend entry")
	}
}
