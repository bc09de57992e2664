package plotting

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

func TestAddBandsRejectsBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	x := []float64{1, 2, 3}
	ok := Band{Label: "ok", X: x, Mean: []float64{1, 2, 3}, Lo: []float64{0.5, 1, 2}, Hi: []float64{2, 3, 4}}
	for _, tc := range []struct {
		name string
		band Band
		want string
	}{
		{"no points", Band{}, "no points"},
		{"short mean", Band{X: x, Mean: []float64{1, 2}}, "len(Mean) = 2"},
		{"only Lo", Band{X: x, Mean: x, Lo: x}, "both"},
		{"short Hi", Band{X: x, Mean: x, Lo: x, Hi: x[:2]}, "len(Hi) = 2"},
		{"NaN mean", Band{X: x, Mean: []float64{1, nan, 3}}, "y[1] = NaN"},
		{"infinite x", Band{X: []float64{1, 2, inf}, Mean: x}, "x[2] = +Inf"},
		{"NaN Lo", Band{X: x, Mean: x, Lo: []float64{nan, 1, 2}, Hi: x}, "Lo[0] = NaN"},
		{"Lo above Hi", Band{X: x, Mean: x, Lo: []float64{0, 3, 2}, Hi: x}, "Lo[1] = 3 is above Hi[1] = 2"},
		{"decreasing X", Band{X: []float64{1, 3, 2}, Mean: x}, "non-decreasing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New("", "", "")
			err := AddBands(p, ok, tc.band)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "band 1") {
				t.Fatalf("error %v, want one about band 1 containing %q", err, tc.want)
			}
			if !math.IsInf(p.X.Min, 1) {
				t.Error("a rejected call added data to the plot")
			}
		})
	}
	if err := AddBands(nil, ok); err == nil {
		t.Error("no error for a nil plot")
	}
}

func TestAddBandsWidensRangeToTheBand(t *testing.T) {
	p := New("", "", "")
	err := AddBands(p,
		Band{X: []float64{1, 2}, Mean: []float64{5, 6}, Lo: []float64{4, 3}, Hi: []float64{7, 9}},
		Band{X: []float64{0, 3}, Mean: []float64{5, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 0 || p.X.Max != 3 || p.Y.Min != 3 || p.Y.Max != 9 {
		t.Errorf("range x [%g, %g] y [%g, %g], want x [0, 3] y [3, 9]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
}

func TestSeriesErrors(t *testing.T) {
	p := New("", "", "")
	if err := AddLine(p, []float64{1, 2}, []float64{1}, "l", 0, false); err == nil || !strings.Contains(err.Error(), "len(y) = 1") {
		t.Errorf("AddLine with mismatched lengths: %v", err)
	}
	if err := AddLine(p, nil, nil, "l", 0, true); err == nil {
		t.Error("AddLine without points: no error")
	}
	if err := AddScatter(p, []float64{1, math.NaN()}, []float64{1, 2}, "s", 0); err == nil || !strings.Contains(err.Error(), "x[1] = NaN") {
		t.Errorf("AddScatter with NaN: %v", err)
	}
	if err := AddScatter(nil, []float64{1}, []float64{1}, "s", 0); err == nil {
		t.Error("AddScatter on a nil plot: no error")
	}
	if err := AddHLine(p, math.Inf(-1), "h", 0); err == nil {
		t.Error("AddHLine at -Inf: no error")
	}
	if err := AddHLine(nil, 1, "h", 0); err == nil {
		t.Error("AddHLine on a nil plot: no error")
	}
}

func TestScatterDrawsEveryPoint(t *testing.T) {
	p := New("", "", "")
	x := make([]float64, 40)
	for j := range x {
		x[j] = float64(j)
	}
	if err := AddScatter(p, x, x, "points", 2); err != nil {
		t.Fatal(err)
	}
	rec, c := newRecorder(300, 200)
	p.Draw(c)
	// 40 filled triangles in the plot and one in the legend.
	if n := len(rec.fillsOf(Color(2))); n != 41 {
		t.Errorf("%d glyphs in Color(2), want 41", n)
	}
}

func TestHLineWidensOnlyY(t *testing.T) {
	p := New("", "", "")
	if err := AddLine(p, []float64{1, 2}, []float64{1, 2}, "", 0, false); err != nil {
		t.Fatal(err)
	}
	if err := AddHLine(p, 5, "level", 1); err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 1 || p.X.Max != 2 || p.Y.Min != 1 || p.Y.Max != 5 {
		t.Errorf("range x [%g, %g] y [%g, %g], want x [1, 2] y [1, 5]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
}

func TestLongSeriesGetEvenlySpacedGlyphs(t *testing.T) {
	xy := make(plotter.XYs, 151)
	for j := range xy {
		xy[j] = plotter.XY{X: float64(j), Y: 0}
	}
	s := &series{xy: xy, glyph: plotGlyph(0)}
	got := s.glyphPoints()
	if len(got) != glyphsAtMost {
		t.Fatalf("%d glyphs, want %d", len(got), glyphsAtMost)
	}
	for j, pt := range got { // 150 / 15 = 10 points apart
		if pt.X != float64(10*j) {
			t.Errorf("glyph %d at x = %g, want %d", j, pt.X, 10*j)
		}
	}
	short := &series{xy: xy[:5], glyph: plotGlyph(0)}
	if n := len(short.glyphPoints()); n != 5 {
		t.Errorf("a 5-point series got %d glyphs, want 5", n)
	}
}

func TestSampleSegment(t *testing.T) {
	boxes := sampleSegment(nil, 0, 0, 0.05, 0)
	if len(boxes) != 5 {
		t.Fatalf("%d samples on a 0.05 segment, want 5", len(boxes))
	}
	for k, b := range boxes {
		if math.Abs(b.X-0.01*float64(k+1)) > 1e-12 || b.Y != 0 || b.Size().X != 0 || b.Size().Y != 0 {
			t.Errorf("sample %d = %+v, want a zero-size box at x = %g", k, b, 0.01*float64(k+1))
		}
	}
	if n := len(sampleSegment(nil, 0, 0, 100, 0)); n != sampleMax {
		t.Errorf("%d samples on a long segment, want the cap %d", n, sampleMax)
	}
}

func TestTranslucentKeepsHue(t *testing.T) {
	want := color.NRGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 128}
	if got := translucent(Color(1), 0.5); got != want {
		t.Errorf("translucent vermillion = %v, want %v", got, want)
	}
}

func plotGlyph(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: Color(i), Radius: glyphRadius, Shape: Marker(i)}
}
