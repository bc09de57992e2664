package plotting

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// unitRatio is the length on the page of one unit of x over that of one unit of y in data area c.
func unitRatio(xSpan, ySpan float64, c draw.Canvas) float64 {
	return float64(c.Max.X-c.Min.X) / xSpan / (float64(c.Max.Y-c.Min.Y) / ySpan)
}

func TestEqualAspectDrawsCirclesRound(t *testing.T) {
	// A circle of radius 1 and one of radius 0.3 in a plot twice as wide as tall: the y axis
	// (fewer units per point) is kept, the x axis widened about its centre.
	p := NewPrint("", "x", "y")
	var xs, ys []float64
	for k := range 64 {
		s, c := math.Sincos(2 * math.Pi * float64(k) / 64)
		xs, ys = append(xs, 1+c, 1+0.3*c), append(ys, s, 0.3*s)
	}
	if err := AddScatter(p, xs, ys, "", 0); err != nil {
		t.Fatal(err)
	}
	if err := EqualAspect(p); err != nil {
		t.Fatal(err)
	}
	_, c := newRecorder(400, 200)
	insetPlot{p}.Draw(c)
	data := p.DataCanvas(draw.Crop(c, figureInset, -figureInset, figureInset, -figureInset))
	if r := unitRatio(p.X.Max-p.X.Min, p.Y.Max-p.Y.Min, data); math.Abs(r-1) > 0.01 {
		t.Errorf("one unit of x is %.3f times one unit of y on the page, want 1", r)
	}
	if mid := (p.X.Min + p.X.Max) / 2; math.Abs(mid-1) > 1e-9 || p.Y.Min > -1 || p.Y.Max < 1 {
		t.Errorf("ranges x [%g, %g], y [%g, %g]: want x centred on 1 and every point in", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
}

func TestEqualAspectKeepsHeatMapCellsSquareInAFigure(t *testing.T) {
	// Two 50×50 images with one shared colour bar, in panels 20% taller than wide (slides_fig2's
	// stretched faces): every image is drawn square.
	f := NewPrintFigure(1, 2, 12*vg.Centimeter, 7*vg.Centimeter)
	img := mat.NewDense(50, 50, nil)
	for i := range 50 {
		for j := range 50 {
			img.Set(i, j, math.Sin(float64(i*j)/50))
		}
	}
	for col := range 2 {
		p := NewPrint("", "", "")
		if err := HeatMap(p, img, HeatMapOptions{Limit: 1, NoBar: col == 0}); err != nil {
			t.Fatal(err)
		}
		p.HideAxes()
		if err := EqualAspect(p); err != nil {
			t.Fatal(err)
		}
		f.Set(0, col, p)
	}
	rec, c := newRecorder(12*vg.Centimeter, 7*vg.Centimeter)
	f.Draw(c)
	if len(rec.rects) != 2 {
		t.Fatalf("%d images drawn, want 2", len(rec.rects))
	}
	for k, r := range rec.rects {
		if w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y; math.Abs(float64(w/h)-1) > 0.01 {
			t.Errorf("image %d drawn %.1f × %.1f pt, want square", k, w, h)
		}
	}
}

func TestEqualAspectErrors(t *testing.T) {
	logPlot := NewPrint("", "", "")
	if err := LogY(logPlot); err != nil {
		t.Fatal(err)
	}
	if err := EqualAspect(logPlot); err == nil || !strings.Contains(err.Error(), "log") {
		t.Errorf("EqualAspect on a log axis: %v", err)
	}
	if err := EqualAspect(nil); err == nil {
		t.Error("EqualAspect on a nil plot: no error")
	}
}

func TestHeatMapLimitSharesOneSymmetricBar(t *testing.T) {
	m := mat.NewDense(2, 2, []float64{-0.5, 0.25, 1, 0})
	with := NewPrint("", "", "")
	if err := HeatMap(with, m, HeatMapOptions{Limit: 2}); err != nil {
		t.Fatal(err)
	}
	rec, c := newRecorder(200, 150)
	with.Draw(c)
	// The bar spans ±Limit, not the entries' ±1, and prints a true minus.
	for _, want := range []string{"−2", "2"} {
		if !slices.Contains(rec.texts, want) {
			t.Errorf("bar labels %q lack %q", rec.texts, want)
		}
	}
	without := NewPrint("", "", "")
	if err := HeatMap(without, m, HeatMapOptions{Limit: 2, NoBar: true}); err != nil {
		t.Fatal(err)
	}
	rec, c = newRecorder(200, 150)
	without.Draw(c)
	if slices.Contains(rec.texts, "−2") {
		t.Errorf("NoBar drew bar labels %q", rec.texts)
	}
}
