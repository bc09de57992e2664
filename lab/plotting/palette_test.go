package plotting

import (
	"image/color"
	"slices"
	"testing"
)

func TestBandsTakeTheirStyleWhateverTheirPosition(t *testing.T) {
	x, y := []float64{1, 2}, []float64{1, 2}
	for _, order := range [][]string{{"dac", "uniform"}, {"uniform", "dac"}} {
		p := NewPrint("", "x", "y")
		var bands []Band
		for _, m := range order {
			s := testStyle(t, m)
			bands = append(bands, Band{Label: m, Style: &s, X: x, Mean: y})
		}
		if err := AddBands(p, bands...); err != nil {
			t.Fatal(err)
		}
		rec, c := newRecorder(300, 200)
		p.Draw(c)
		if len(rec.fillsOf(testStyle(t, "dac").Color)) == 0 {
			t.Errorf("order %q: no glyph in DAC's colour", order)
		}
	}
}

func TestPaletteIsOkabeItoOrNeutral(t *testing.T) {
	for h := Blue; h <= DarkGrey; h++ {
		s, err := Style(h, Circle, Solid)
		if err != nil {
			t.Fatal(err)
		}
		c := color.NRGBAModel.Convert(s.Color).(color.NRGBA)
		if !slices.Contains(okabeIto[:7], c) && c != darkGrey {
			t.Errorf("hue %d is %v, outside the Okabe–Ito palette (yellow excluded, weak on white) and the neutral greys", h, c)
		}
	}
	for _, bad := range [][3]int{{-1, 0, 0}, {int(DarkGrey) + 1, 0, 0}, {0, int(Star) + 1, 0}, {0, 0, int(LongDash) + 1}} {
		if _, err := Style(Hue(bad[0]), Glyph(bad[1]), Dash(bad[2])); err == nil {
			t.Errorf("Style%v is accepted", bad)
		}
	}
	a, _ := Style(Black, Cross, Dashed)
	a.Dashes[0] = 100
	if b, _ := Style(Black, Cross, Dashed); b.Dashes[0] == 100 {
		t.Error("Style returns the palette's dash slice, which callers can change")
	}
}

func TestPrintStyleIsSmallerButReadable(t *testing.T) {
	p, q := NewPrint("t", "x", "y"), New("t", "x", "y")
	if p.X.Tick.Label.Font.Size != MinPrintFont || p.Legend.TextStyle.Font.Size != MinPrintFont ||
		p.Title.TextStyle.Font.Size != 8 || p.X.Label.TextStyle.Font.Size != 8 {
		t.Errorf("print fonts: ticks %v, legend %v, title %v, label %v", p.X.Tick.Label.Font.Size,
			p.Legend.TextStyle.Font.Size, p.Title.TextStyle.Font.Size, p.X.Label.TextStyle.Font.Size)
	}
	if q.X.Tick.Label.Font.Size != tickSize || styleOf(q) != &screenStyle || styleOf(p) != &printStyle {
		t.Error("New changed its style")
	}
	if ex := (powerText{minExponent: MinPrintFont}).exponentFont(p.X.Tick.Label.Font); ex.Size < MinPrintFont {
		t.Errorf("print exponents are %v pt", ex.Size)
	}
}

func TestCoincident(t *testing.T) {
	x := []float64{1, 2, 3}
	bands := []Band{
		{X: x, Mean: []float64{1, 2, 3}},
		{X: x, Mean: []float64{1.001, 2, 2.999}}, // under band 0 within 1%
		{X: x, Mean: []float64{1, 2, 3.5}},       // departs at x = 3
		{X: []float64{3, 4}, Mean: []float64{3, 9}},
	}
	got := Coincident(bands, 0.01)
	if len(got) != 1 || got[0] != [2]int{0, 1} {
		t.Errorf("Coincident = %v, want [[0 1]]", got)
	}
	if got := Coincident(bands, 0.2); len(got) != 3 {
		t.Errorf("Coincident at 20%% = %v, want the three pairs of the first three bands", got)
	}
}

// Issue 33: where two filled bands overlap their colours blend (blue and orange into olive); an
// outlined band keeps its colour as two edge lines and fills nothing, in the plot or the legend.
func TestOutlinedBandStrokesItsEdgesAndFillsNothing(t *testing.T) {
	x := []float64{1, 2, 3}
	for _, outline := range []bool{false, true} {
		p := NewPrint("", "x", "y")
		p.Legend.Top = true
		b := Band{Label: "b", X: x, Mean: []float64{2, 2, 2}, Lo: []float64{1, 1, 1}, Hi: []float64{3, 4, 5}, Outline: outline}
		if err := AddBands(p, b); err != nil {
			t.Fatal(err)
		}
		rec, c := newRecorder(300, 200)
		p.Draw(c)
		fills := len(rec.fillsOf(translucent(Color(0), bandAlpha)))
		edges := 0
		for _, s := range rec.strokes {
			if s.color == Color(0) && s.box.Size().Y > 0 {
				edges++ // a stroke that rises: an edge (Hi climbs from 3 to 5), not the flat mean
			}
		}
		switch {
		case !outline && (fills != 2 || edges != 0):
			t.Errorf("filled band: %d fills (want the area and its legend swatch), %d rising strokes", fills, edges)
		case outline && (fills != 0 || edges != 1):
			t.Errorf("outlined band: %d fills, %d rising strokes (want 0 and the upper edge)", fills, edges)
		}
	}
}
