package plotting

import (
	"fmt"
	"image/color"
	"reflect"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func TestColorIsOkabeItoAndCycles(t *testing.T) {
	if !sameColor(Color(0), color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}) {
		t.Errorf("Color(0) = %v, want Okabe-Ito blue #0072B2", Color(0))
	}
	if !sameColor(Color(6), color.Black) {
		t.Errorf("Color(6) = %v, want black", Color(6))
	}
	if !sameColor(Color(8), Color(0)) || !sameColor(Color(-1), Color(7)) || !sameColor(Color(17), Color(1)) {
		t.Error("Color does not cycle with period 8")
	}
	for i := range 8 {
		for j := range i {
			if sameColor(Color(i), Color(j)) {
				t.Errorf("Color(%d) = Color(%d)", i, j)
			}
		}
	}
}

func TestMarkersAreDistinctAndShift(t *testing.T) {
	for i := range 8 {
		for j := range i {
			if reflect.DeepEqual(Marker(i), Marker(j)) {
				t.Errorf("Marker(%d) = Marker(%d)", i, j)
			}
		}
	}
	// The ninth series repeats the first colour and takes the second shape.
	if !reflect.DeepEqual(Marker(8), Marker(1)) || !reflect.DeepEqual(Marker(-1), Marker(7)) {
		t.Error("Marker does not shift by one shape per round of 8 colours")
	}
}

func TestShapeGlyphScalesWithRadius(t *testing.T) {
	rec, c := newRecorder(100, 100)
	diamond := Marker(3)
	diamond.DrawGlyph(&c, draw.GlyphStyle{Color: color.Black, Radius: 2, Shape: diamond}, vg.Point{X: 10, Y: 20})
	if len(rec.fills) != 1 {
		t.Fatalf("%d fills, want 1", len(rec.fills))
	}
	want := vg.Rectangle{Min: vg.Point{X: 10 - 2.1, Y: 20 - 2.5}, Max: vg.Point{X: 10 + 2.1, Y: 20 + 2.5}}
	if got := rec.fills[0].box; !closeRect(got, want) {
		t.Errorf("diamond box %v, want %v", got, want)
	}
}

func TestStrokedGlyphDrawsItsSegments(t *testing.T) {
	rec, c := newRecorder(100, 100)
	cross := Marker(5)
	cross.DrawGlyph(&c, draw.GlyphStyle{Color: Color(5), Radius: 2, Shape: cross}, vg.Point{X: 10, Y: 20})
	if len(rec.strokes) != 2 || len(rec.fills) != 0 {
		t.Fatalf("%d strokes and %d fills, want the 2 strokes of a cross", len(rec.strokes), len(rec.fills))
	}
	want := vg.Rectangle{Min: vg.Point{X: 10 - 1.8, Y: 20 - 1.8}, Max: vg.Point{X: 10 + 1.8, Y: 20 + 1.8}}
	for _, s := range rec.strokes {
		if !closeRect(s.box, want) || !sameColor(s.color, Color(5)) {
			t.Errorf("stroke %+v, want a diagonal of %v in Color(5)", s, want)
		}
	}
}

func closeRect(a, b vg.Rectangle) bool {
	near := func(x, y vg.Length) bool { return x-y < 1e-9 && y-x < 1e-9 }
	return near(a.Min.X, b.Min.X) && near(a.Min.Y, b.Min.Y) && near(a.Max.X, b.Max.X) && near(a.Max.Y, b.Max.Y)
}

func TestLegendAvoidsData(t *testing.T) {
	for _, tc := range []struct {
		name        string
		y           []float64
		left, upper bool // where the legend must end up
	}{
		{"rising diagonal leaves the top-left free", []float64{0, 10}, true, true},
		{"falling diagonal leaves the top-right free", []float64{10, 0}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New("", "x", "y")
			if err := AddLine(p, []float64{0, 10}, tc.y, "a reference line", 0, false); err != nil {
				t.Fatal(err)
			}
			rec, c := newRecorder(300, 200)
			p.Draw(c)
			frames := rec.fillsOf(frameFill)
			if len(frames) != 1 {
				t.Fatalf("%d legend boxes drawn, want 1", len(frames))
			}
			box := frames[0]
			data := p.DataCanvas(c)
			mid := data.Center()
			if gotLeft, gotUpper := box.Max.X < mid.X, box.Min.Y > mid.Y; gotLeft != tc.left || gotUpper != tc.upper {
				t.Errorf("legend box %v in the left/upper half = %v/%v, want %v/%v", box, gotLeft, gotUpper, tc.left, tc.upper)
			}
			if box.Min.X < data.Min.X || box.Max.X > data.Max.X || box.Min.Y < data.Min.Y || box.Max.Y > data.Max.Y {
				t.Errorf("legend box %v leaves the data area %v", box, data.Rectangle)
			}
			for k := 0; k <= 100; k++ {
				s := float64(k) / 100
				y := s
				if tc.y[0] > tc.y[1] {
					y = 1 - s
				}
				pt := vg.Point{X: data.X(s), Y: data.Y(y)}
				if pt.X >= box.Min.X && pt.X <= box.Max.X && pt.Y >= box.Min.Y && pt.Y <= box.Max.Y {
					t.Fatalf("legend box %v covers the line at %v", box, pt)
				}
			}
		})
	}
}

func TestNoLegendBoxWithoutLabels(t *testing.T) {
	p := New("title", "x", "y")
	if err := AddLine(p, []float64{0, 1}, []float64{0, 1}, "", 0, false); err != nil {
		t.Fatal(err)
	}
	rec, c := newRecorder(300, 200)
	p.Draw(c)
	if n := len(rec.fillsOf(frameFill)); n != 0 {
		t.Errorf("%d legend boxes drawn for a plot without labels", n)
	}
}

func TestColorMarkerPairsDiffer(t *testing.T) {
	type pair struct{ c, m string }
	seen := map[pair]int{}
	for i := range 64 {
		p := pair{fmt.Sprint(Color(i)), fmt.Sprintf("%#v", Marker(i))}
		if j, dup := seen[p]; dup {
			t.Fatalf("series %d and %d share colour and marker", j, i)
		}
		seen[p] = i
	}
}
