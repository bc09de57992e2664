package plotting

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SeriesStyle is how one series is drawn: its colour, its marker (nil for none: reference lines)
// and its dash pattern (nil for a solid line). Dashes are given for the screen style; print plots
// scale them with their line widths. [Style] makes one from the palette below; a program that
// draws the same method in several figures keeps one style per method (the experiments' registry,
// package experiments/styles, does for the catalogue).
type SeriesStyle struct {
	Color  color.Color
	Marker draw.GlyphDrawer
	Dashes []vg.Length
}

// The palette's dash patterns: each reads differently in grey-scale print.
var (
	solid    []vg.Length
	dashed   = dashes
	dotted   = []vg.Length{vg.Points(1.2), vg.Points(2.2)}
	dashDot  = []vg.Length{vg.Points(6), vg.Points(2.2), vg.Points(1.2), vg.Points(2.2)}
	longDash = []vg.Length{vg.Points(10), vg.Points(3)}
)

// Neutral colours of reference lines (a bound, a slope, the majority-class rate, the full forest):
// they must not compete with the methods' colours.
var (
	black    = okabeIto[6]
	darkGrey = color.NRGBA{R: 0x59, G: 0x59, B: 0x59, A: 0xff}
)

// Okabe–Ito colours by name.
var (
	blue       = okabeIto[0]
	vermillion = okabeIto[1]
	green      = okabeIto[2]
	purple     = okabeIto[3]
	orange     = okabeIto[4]
	skyBlue    = okabeIto[5]
)

// The palette's markers; the open ones are the outlined twins of the filled ones, for a method's
// variant (the unweighted OMP, the held-out curve), which keeps its colour and swaps its filled
// marker for the open one.
var (
	circle       = markers[0]
	box          = markers[1]
	triangle     = markers[2]
	diamond      = markers[3]
	downTriangle = markers[4]
	cross        = markers[5]
	plus         = markers[6]
	openBox      = markers[7]
	openCircle   = outline(12, func(k int) vg.Point {
		s, c := math.Sincos(2 * math.Pi * float64(k) / 12)
		return vg.Point{X: vg.Length(1.05 * c), Y: vg.Length(1.05 * s)}
	})
	openTriangle = outline(3, func(k int) vg.Point { return triangleVertices[k] })
	openDiamond  = outline(4, func(k int) vg.Point { return diamondVertices[k] })
)

// star is a filled five-pointed star (outer radius 1.6, inner 0.65), larger than the other
// markers because it marks one point (NN-OMP's stopping point, drawn as the thesis does).
var star = func() shapeGlyph {
	g := shapeGlyph{}
	for k := range 10 {
		r := 1.6
		if k%2 == 1 {
			r = 0.65
		}
		s, c := math.Sincos(math.Pi/2 + math.Pi*float64(k)/5)
		g.points = append(g.points, vg.Point{X: vg.Length(r * c), Y: vg.Length(r * s)})
	}
	return g
}()

// Vertices of the open triangle and diamond, for a unit radius, as the filled ones.
var (
	triangleVertices = []vg.Point{{X: 0, Y: 1.3}, {X: 1.13, Y: -0.65}, {X: -1.13, Y: -0.65}}
	diamondVertices  = []vg.Point{{X: 0, Y: 1.25}, {X: 1.05, Y: 0}, {X: 0, Y: -1.25}, {X: -1.05, Y: 0}}
)

// outline is the closed polygon through n unit-radius vertices, drawn as a stroked shapeGlyph.
func outline(n int, vertex func(k int) vg.Point) shapeGlyph {
	g := shapeGlyph{stroked: true}
	for k := range n {
		g.points = append(g.points, vertex(k), vertex((k+1)%n))
	}
	return g
}

// Hue names a colour of the palette: the six Okabe–Ito colours of [Color], and black and a dark
// grey for reference lines (a bound, a slope, the majority-class rate), which must not compete with
// the methods' colours.
type Hue int

// The palette's colours.
const (
	Blue Hue = iota
	Vermillion
	Green
	Purple
	Orange
	SkyBlue
	Black
	DarkGrey
)

// Glyph names a marker of the palette; NoGlyph draws none (reference lines).
type Glyph int

// The palette's markers: the filled ones of [Marker], their open twins, and a five-pointed star,
// larger than the others, for a single point (NN-OMP's stopping point, drawn as the thesis does).
const (
	NoGlyph Glyph = iota
	Circle
	Box
	Triangle
	Diamond
	DownTriangle
	Cross
	Plus
	OpenBox
	OpenCircle
	OpenTriangle
	OpenDiamond
	Star
)

// Dash names a dash pattern of the palette.
type Dash int

// The palette's dash patterns.
const (
	Solid Dash = iota
	Dashed
	Dotted
	DashDot
	LongDash
)

// Style returns the series style of a hue, a glyph and a dash pattern of the palette, and an
// error for a value outside it. Its dash slice is the caller's own.
func Style(h Hue, g Glyph, d Dash) (SeriesStyle, error) {
	hues := [...]color.Color{blue, vermillion, green, purple, orange, skyBlue, black, darkGrey}
	glyphs := [...]draw.GlyphDrawer{nil, circle, box, triangle, diamond, downTriangle, cross, plus, openBox, openCircle, openTriangle, openDiamond, star}
	patterns := [...][]vg.Length{solid, dashed, dotted, dashDot, longDash}
	if h < 0 || int(h) >= len(hues) || g < 0 || int(g) >= len(glyphs) || d < 0 || int(d) >= len(patterns) {
		return SeriesStyle{}, fmt.Errorf("plotting: Style(%d, %d, %d): not in the palette (%d hues, %d glyphs, %d dashes)", h, g, d, len(hues), len(glyphs), len(patterns))
	}
	return SeriesStyle{Color: hues[h], Marker: glyphs[g], Dashes: slices.Clone(patterns[d])}, nil
}
