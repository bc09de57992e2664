package plotting

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
)

func TestStraightColorUndoesPremultiplication(t *testing.T) {
	band := translucent(okabeIto[1], bandAlpha) // a band fill: vermillion at 22%
	r, g, b, a := straightColor(color.NRGBAModel.Convert(band).(color.NRGBA)).RGBA()
	if r>>8 != 0xD5 || g>>8 != 0x5E || b>>8 != 0x00 || a>>8 != 56 {
		t.Errorf("straight components %x %x %x %x, want d5 5e 0 38", r>>8, g>>8, b>>8, a>>8)
	}
}

func TestEncodableRunes(t *testing.T) {
	for s, want := range map[string]bool{"a": true, "×": true, "ö": true, "–": true, "−": false, "√n": false, "λ": false, "′": false} {
		if got := encodable(s); got != want {
			t.Errorf("encodable(%q) = %v, want %v", s, got, want)
		}
	}
}

// The PDF of a figure whose text needs outlines (−, √, λ) and whose bands are translucent is
// written without error; its look was checked with pdftoppm against the PNG.
func TestPDFOfPrintFigure(t *testing.T) {
	f := printFigure(t)
	p := NewPrint("λ = 10^−3, m = √n", "σ²", "x′")
	dac := testStyle(t, "dac")
	if err := AddBands(p, Band{Label: "DAC (m = √n)", Style: &dac, X: []float64{1, 2}, Mean: []float64{1, 2}, Lo: []float64{0, 1}, Hi: []float64{2, 3}}); err != nil {
		t.Fatal(err)
	}
	f.Set(0, 0, p)
	w, h := f.Size()
	pdf, err := encodePDF(f, w, h)
	if err != nil || len(pdf) < 1000 {
		t.Fatalf("PDF of %d bytes, error %v", len(pdf), err)
	}
}

// An image becomes one filled rectangle per run of equal pixels in a row, identical rows merged,
// its top row at the top of the rectangle, each cell reaching a quarter pixel under its right and
// lower neighbours, translucent pixels composited over white.
func TestPDFImageCells(t *testing.T) {
	a, b := color.NRGBA{R: 200, A: 255}, color.NRGBA{B: 200, A: 255}
	half := color.NRGBA{G: 255, A: 128} // composited over white: (127, 255, 127)
	img := image.NewNRGBA(image.Rect(0, 0, 3, 3))
	for y, row := range [][]color.NRGBA{{a, a, b}, {a, a, b}, {half, half, half}} {
		for x, c := range row {
			img.SetNRGBA(x, y, c)
		}
	}
	rec, _ := newRecorder(30, 30)
	drawImageCells(rec, vg.Rectangle{Max: vg.Point{X: 30, Y: 30}}, img)
	box := func(x0, y0, x1, y1 vg.Length) vg.Rectangle {
		return vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}
	}
	want := []recordedFill{
		{a, box(0, 7.5, 22.5, 30)},
		{b, box(20, 7.5, 30, 30)},
		{color.NRGBA{R: 127, G: 255, B: 127, A: 255}, box(0, 0, 30, 10)},
	}
	if len(rec.fills) != len(want) {
		t.Fatalf("%d fills, want %d: %v", len(rec.fills), len(want), rec.fills)
	}
	for i, w := range want {
		if got := rec.fills[i]; !sameColor(got.color, w.color) || got.box != w.box {
			t.Errorf("fill %d: %v in %v, want %v in %v", i, got.color, got.box, w.color, w.box)
		}
	}
}

// A figure with several heat maps of one size gives the same PDF bytes every time (with vgpdf's
// images, fpdf wrote them in the order of a Go map: slides_fig2's basis images).
func TestPDFWithSeveralHeatMapsIsReproducible(t *testing.T) {
	f := NewPrintFigure(1, 4, PageWidth, 4*vg.Centimeter)
	for k := range 4 {
		h := NewPrint("basis image", "", "")
		m := mat.NewDense(5, 5, nil)
		for i := range 5 {
			for j := range 5 {
				m.Set(i, j, math.Sin(float64(k*25+i*5+j)))
			}
		}
		if err := HeatMap(h, m, HeatMapOptions{}); err != nil {
			t.Fatal(err)
		}
		f.Set(0, k, h)
	}
	w, h := f.Size()
	first, err := encodePDF(f, w, h)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := encodePDF(f, w, h)
		if err != nil || !bytes.Equal(first, again) {
			t.Fatalf("two encodings differ (%v)", err)
		}
	}
}

// The same figure gives the same PDF bytes at any time: the writer's clock dates are fixed.
func TestPDFIsReproducible(t *testing.T) {
	p := NewPrint("t", "x", "y")
	dac := testStyle(t, "dac")
	if err := AddBands(p, Band{Label: "dac", Style: &dac, X: []float64{1, 2}, Mean: []float64{1, 2}}); err != nil {
		t.Fatal(err)
	}
	a, err := encodePDF(insetPlot{p}, ColumnWidth, 5*vg.Centimeter)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // the dates have a resolution of one second
	b, err := encodePDF(insetPlot{p}, ColumnWidth, 5*vg.Centimeter)
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("two encodings differ (%v)", err)
	}
	if !bytes.Contains(a, []byte("/CreationDate (D:20000101000000)")) {
		t.Error("creation date not fixed")
	}
}

// Importing plotting leaves fpdf's process-wide defaults alone: another fpdf document of the same
// program still gets the clock's date and fpdf's own catalog order.
func TestPDFLeavesFpdfDefaults(t *testing.T) {
	if _, err := encodePDF(insetPlot{NewPrint("t", "x", "y")}, ColumnWidth, 5*vg.Centimeter); err != nil {
		t.Fatal(err)
	}
	doc := fpdf.New("P", "mm", "A4", "")
	doc.AddPage()
	var buf bytes.Buffer
	if err := doc.Output(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("/CreationDate (D:20000101000000)")) {
		t.Error("a plain fpdf document got plotting's fixed date")
	}
}
