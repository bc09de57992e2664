package plotting

import (
	"bytes"
	"image"
	"image/color"
	"testing"
	"time"

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
	if err := AddBands(p, Band{Label: "DAC (m = √n)", Method: "dac", X: []float64{1, 2}, Mean: []float64{1, 2}, Lo: []float64{0, 1}, Hi: []float64{2, 3}}); err != nil {
		t.Fatal(err)
	}
	f.Set(0, 0, p)
	w, h := f.Size()
	pdf, err := encodePDF(f, w, h)
	if err != nil || len(pdf) < 1000 {
		t.Fatalf("PDF of %d bytes, error %v", len(pdf), err)
	}
}

func TestPDFImagesAreMirroredForVgpdf(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 2))
	img.Set(0, 0, color.White)
	img.Set(0, 1, color.Black)
	rec := &imageRecorder{}
	pdfDrawImage(rec.draw, img)
	if len(rec.got) != 1 || !sameColor(rec.got[0].At(0, 0), color.Black) || !sameColor(rec.got[0].At(0, 1), color.White) {
		t.Error("image not mirrored vertically")
	}
}

type imageRecorder struct{ got []image.Image }

func (r *imageRecorder) draw(img image.Image) { r.got = append(r.got, img) }

// The same figure gives the same PDF bytes at any time: the writer's clock dates are fixed.
func TestPDFIsReproducible(t *testing.T) {
	p := NewPrint("t", "x", "y")
	if err := AddBands(p, Band{Label: "dac", Method: "dac", X: []float64{1, 2}, Mean: []float64{1, 2}}); err != nil {
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
