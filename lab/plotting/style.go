package plotting

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DPI is the resolution of every PNG this package writes: a 4 in wide figure becomes 600 pixels,
// enough for 9 pt tick labels to stay crisp at 100% zoom in a notebook or a review PDF.
const DPI = 150

// Text sizes in points, chosen for a one-column figure about 4 in × 3 in (and for panels of about
// that size in a multi-panel figure). The serif face matches the body text of a LaTeX thesis.
const (
	titleSize  = 11
	labelSize  = 10
	tickSize   = 9
	legendSize = 9
)

// Line and glyph sizes shared by all series.
const (
	seriesWidth    = vg.Length(1.5)
	referenceWidth = vg.Length(1.2)
	glyphRadius    = vg.Length(2.6)
	bandAlpha      = 0.22
)

// Legend geometry: the box keeps legendInset away from the edges of the data area and
// legendMargin around the entries.
const (
	legendInset  = vg.Length(4)
	legendMargin = vg.Length(3)
)

var (
	textFont   = font.Font{Typeface: "Liberation", Variant: "Serif"}
	gridStyle  = draw.LineStyle{Color: color.Gray{Y: 222}, Width: vg.Points(0.5)}
	dashes     = []vg.Length{vg.Points(5), vg.Points(3)}
	frameFill  = color.NRGBA{R: 255, G: 255, B: 255, A: 217}
	frameStyle = draw.LineStyle{Color: color.Gray{Y: 190}, Width: vg.Points(0.5)}
)

// okabeIto is the colour-blind-safe qualitative palette of Okabe and Ito (2008), ordered so that
// the first colours differ most in hue and lightness; yellow, weak on white, comes last.
var okabeIto = [...]color.NRGBA{
	{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}, // blue
	{R: 0xD5, G: 0x5E, B: 0x00, A: 0xff}, // vermillion
	{R: 0x00, G: 0x9E, B: 0x73, A: 0xff}, // bluish green
	{R: 0xCC, G: 0x79, B: 0xA7, A: 0xff}, // reddish purple
	{R: 0xE6, G: 0x9F, B: 0x00, A: 0xff}, // orange
	{R: 0x56, G: 0xB4, B: 0xE9, A: 0xff}, // sky blue
	{R: 0x00, G: 0x00, B: 0x00, A: 0xff}, // black
	{R: 0xF0, G: 0xE4, B: 0x42, A: 0xff}, // yellow
}

// markers pairs with okabeIto: filled shapes first (they read best when small), outlines after.
var markers = [...]draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.BoxGlyph{},
	draw.PyramidGlyph{},
	shapeGlyph{points: []vg.Point{{X: 0, Y: 1.25}, {X: 1.05, Y: 0}, {X: 0, Y: -1.25}, {X: -1.05, Y: 0}}},
	shapeGlyph{points: []vg.Point{{X: 0, Y: -1.3}, {X: 1.13, Y: 0.65}, {X: -1.13, Y: 0.65}}},
	shapeGlyph{stroked: true, points: []vg.Point{{X: -0.9, Y: -0.9}, {X: 0.9, Y: 0.9}, {X: -0.9, Y: 0.9}, {X: 0.9, Y: -0.9}}},
	shapeGlyph{stroked: true, points: []vg.Point{{X: -1.2, Y: 0}, {X: 1.2, Y: 0}, {X: 0, Y: -1.2}, {X: 0, Y: 1.2}}},
	shapeGlyph{stroked: true, points: []vg.Point{{X: -1, Y: -1}, {X: 1, Y: -1}, {X: 1, Y: -1}, {X: 1, Y: 1}, {X: 1, Y: 1}, {X: -1, Y: 1}, {X: -1, Y: 1}, {X: -1, Y: -1}}},
}

// Color returns colour i of the Okabe-Ito palette, readable by colour-blind readers and in
// grey-scale print; i cycles through the 8 colours (negative i counts from the end).
func Color(i int) color.Color { return okabeIto[cycle(i, len(okabeIto))] }

// Marker returns glyph shape i, cycling through 8 shapes, so that series stay distinguishable
// without colour. Color(i) and Marker(i) together identify series i: from the ninth series on, where
// the colours repeat, the shapes shift by one per round of colours, so the first 64 pairs differ.
func Marker(i int) draw.GlyphDrawer { return markers[cycle(i+i/len(okabeIto), len(markers))] }

func cycle(i, n int) int { return (i%n + n) % n }

// shapeGlyph draws a polygon filled with the glyph colour, or, when stroked, the segments
// points[0]-points[1], points[2]-points[3], ... with a line thick enough to survive printing.
// Points are given for a unit radius.
type shapeGlyph struct {
	points  []vg.Point
	stroked bool
}

// DrawGlyph implements draw.GlyphDrawer.
func (g shapeGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	at := func(u vg.Point) vg.Point { return vg.Point{X: pt.X + u.X*sty.Radius, Y: pt.Y + u.Y*sty.Radius} }
	if !g.stroked {
		var path vg.Path
		path.Move(at(g.points[0]))
		for _, u := range g.points[1:] {
			path.Line(at(u))
		}
		path.Close()
		c.Fill(path)
		return
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1)})
	for i := 0; i+1 < len(g.points); i += 2 {
		var path vg.Path
		path.Move(at(g.points[i]))
		path.Line(at(g.points[i+1]))
		c.Stroke(path)
	}
}

// New returns an empty plot in the lab's figure style: serif text sized for a one-column figure,
// white background, a light grid behind the data, and a legend that is placed automatically on a
// translucent box (top-right unless data lie there). Call it for every plot so that all figures
// share fonts, sizes, grid and colours; xLabel and yLabel should carry units, e.g. "time (s)".
// For a figure laid out at its final size in a paper, use [NewPrint] and [NewPrintFigure] instead.
func New(title, xLabel, yLabel string) *plot.Plot {
	return newStyled(&screenStyle, title, xLabel, yLabel)
}

// NewPrint returns an empty plot in the print style, for a panel of a figure made by
// [NewPrintFigure]: the look of New with text in points at the printed size (tick labels and legend
// 7 pt, axis labels and title 8 pt, log-axis exponents 7 pt: nothing below 7 pt), thinner lines and
// smaller markers to match, log axes whose end points are labelled, and heat maps in viridis.
// Series, reference lines and heat maps are added with the same functions as for New; give bands
// a Method so that they take the registered style of their method.
func NewPrint(title, xLabel, yLabel string) *plot.Plot {
	return newStyled(&printStyle, title, xLabel, yLabel)
}

// newStyled makes a plot in style st and registers st for the functions that add to it.
func newStyled(st *style, title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = color.White
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(textFont, st.titleSize)
	p.Title.Padding = st.titlePadding
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(textFont, st.labelSize)
		a.Label.Padding = st.labelPadding
		a.Tick.Label.Font = font.From(textFont, st.tickSize)
		a.Tick.Length = st.tickLength
		a.Tick.Width = st.axisWidth
		a.Width = st.axisWidth
		a.Padding = st.axisPadding
	}
	p.X.Tick.Marker = niceTicks{size: st.tickSize, minus: st.print}
	p.Y.Tick.Marker = niceTicks{size: st.tickSize, vertical: true, minus: st.print}
	p.Legend.TextStyle.Font = font.From(textFont, st.legendSize)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.ThumbnailWidth = st.thumbnailWidth
	p.Legend.Padding = st.legendPadding
	grid := gridStyle
	grid.Width = st.gridWidth
	p.Add(&plotter.Grid{Vertical: grid, Horizontal: grid}, legendPlacer{})
	attach(p, st)
	return p
}

// addLegendEntry adds label with its thumbnail to the legend; an empty label adds nothing.
// The first entry of a legend also carries the translucent box, drawn over the data but under
// every entry because the legend draws its entries in order.
func addLegendEntry(p *plot.Plot, label string, thumb plot.Thumbnailer) {
	if label == "" {
		return
	}
	if st := stateOf(p); st != nil {
		st.legend = append(st.legend, legendItem{label: label, thumb: thumb})
	}
	if p.Legend.Rectangle(draw.Canvas{}).Size().X == 0 {
		p.Legend.Add(label, legendFrame{p}, thumb)
		return
	}
	p.Legend.Add(label, thumb)
}

// legendFrame draws the legend's box. It is the first thumbnail of the first entry, which the
// legend draws at the top row whatever its corner, so the whole box follows from that row.
type legendFrame struct{ p *plot.Plot }

// Thumbnail implements plot.Thumbnailer.
func (f legendFrame) Thumbnail(row *draw.Canvas) {
	size := f.p.Legend.Rectangle(*row).Size()
	top := row.Max.Y + legendMargin
	bottom := row.Max.Y - size.Y - legendMargin
	left, right := row.Max.X-size.X-legendMargin, row.Max.X+legendMargin
	if f.p.Legend.Left {
		left, right = row.Min.X-legendMargin, row.Min.X+size.X+legendMargin
	}
	box := []vg.Point{{X: left, Y: bottom}, {X: right, Y: bottom}, {X: right, Y: top}, {X: left, Y: top}}
	row.FillPolygon(frameFill, box)
	row.StrokeLines(frameStyle, append(box, box[0]))
}

// spot is a candidate position of the legend box: fx and fy place it from the left (0) to the
// right (1) and from the bottom (0) to the top (1) of the data area.
type spot struct{ fx, fy float64 }

// legendSpots lists the candidate positions in order of preference: the corners, top-right
// first, then the middles of the edges.
var legendSpots = [...]spot{{1, 1}, {0, 1}, {1, 0}, {0, 0}, {0.5, 1}, {0.5, 0}, {1, 0.5}, {0, 0.5}}

// legendPlacer is added by New before any data. Plotters are drawn before the legend, so when
// Plot runs it knows the data area and where every series lies (from the plotters' glyph boxes,
// which this package's series extend with points sampled along lines and bands), and it moves the
// legend to the spot whose box covers the fewest of them.
type legendPlacer struct{}

// Plot implements plot.Plotter; it draws nothing, it only positions p.Legend.
func (legendPlacer) Plot(data draw.Canvas, p *plot.Plot) {
	size := p.Legend.Rectangle(data).Size()
	if size.X == 0 {
		return
	}
	w, h := size.X+2*legendMargin, size.Y+2*legendMargin
	boxes := p.GlyphBoxes(p)
	var best vg.Rectangle
	fewest := math.MaxInt
	for _, s := range legendSpots {
		box := legendBox(data, s, w, h)
		if n := coveredGlyphs(data, boxes, box); n < fewest {
			best, fewest = box, n
		}
	}
	// The legend is drawn relative to the area right of the y axis and above the x axis, from its
	// top-left corner with the thumbnails on the left of the texts.
	area := innerArea(data, p, boxes)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = best.Min.X + legendMargin - area.Min.X
	p.Legend.YOffs = best.Max.Y - legendMargin - area.Max.Y + p.Legend.TextStyle.FontExtents().Descent
}

// legendBox is the rectangle a w×h legend box occupies at spot s of the data area.
func legendBox(data draw.Canvas, s spot, w, h vg.Length) vg.Rectangle {
	x0 := data.Min.X + legendInset + vg.Length(s.fx)*(data.Max.X-data.Min.X-2*legendInset-w)
	y0 := data.Min.Y + legendInset + vg.Length(s.fy)*(data.Max.Y-data.Min.Y-2*legendInset-h)
	return vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x0 + w, Y: y0 + h}}
}

// coveredGlyphs counts the glyph boxes inside the data area that overlap r.
func coveredGlyphs(data draw.Canvas, boxes []plot.GlyphBox, r vg.Rectangle) int {
	n := 0
	for _, b := range boxes {
		if b.X < 0 || b.X > 1 || b.Y < 0 || b.Y > 1 {
			continue
		}
		g := b.Rectangle.Add(vg.Point{X: data.X(b.X), Y: data.Y(b.Y)})
		if g.Min.X <= r.Max.X && g.Max.X >= r.Min.X && g.Min.Y <= r.Max.Y && g.Max.Y >= r.Min.Y {
			n++
		}
	}
	return n
}

// innerArea reconstructs the canvas gonum/plot hands to the legend, the area right of the y axis
// and above the x axis: the data area before the padding that keeps glyphs (on all sides), axis
// labels and tick labels (right end of the x axis, top end of the y axis) from being clipped. After that padding
// the outermost glyph touches the area's edge, so each edge is the farthest glyph edge, or the
// data area's edge if no glyph sticks out.
func innerArea(data draw.Canvas, p *plot.Plot, boxes []plot.GlyphBox) vg.Rectangle {
	area := data.Rectangle
	for _, b := range boxes {
		x, y := data.X(b.X), data.Y(b.Y)
		if b.Size().X > 0 {
			if b.X <= 1 {
				area.Max.X = max(area.Max.X, x+b.Max.X)
			}
			if b.X >= 0 {
				area.Min.X = min(area.Min.X, x+b.Min.X)
			}
		}
		if b.Size().Y > 0 {
			if b.Y <= 1 {
				area.Max.Y = max(area.Max.Y, y+b.Max.Y)
			}
			if b.Y >= 0 {
				area.Min.Y = min(area.Min.Y, y+b.Min.Y)
			}
		}
	}
	if p.X.Label.Text != "" && p.X.Norm(0.5*(p.X.Max+p.X.Min)) <= 1 {
		x := data.X(p.X.Norm(0.5 * (p.X.Max + p.X.Min)))
		area.Max.X = max(area.Max.X, x+p.X.Label.TextStyle.Rectangle(p.X.Label.Text).Max.X)
	}
	if p.Y.Label.Text != "" && p.Y.Norm(0.5*(p.Y.Max+p.Y.Min)) <= 1 {
		sty := p.Y.Label.TextStyle
		sty.Rotation += math.Pi / 2
		y := data.Y(p.Y.Norm(0.5 * (p.Y.Max + p.Y.Min)))
		area.Max.Y = max(area.Max.Y, y+sty.Rectangle(p.Y.Label.Text).Max.Y)
	}
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if t.IsMinor() || p.X.Norm(t.Value) > 1 {
			continue
		}
		area.Max.X = max(area.Max.X, data.X(p.X.Norm(t.Value))+p.X.Tick.Label.Rectangle(t.Label).Max.X)
	}
	ext := p.Y.Tick.Label.FontExtents()
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.IsMinor() || p.Y.Norm(t.Value) > 1 {
			continue
		}
		top := data.Y(p.Y.Norm(t.Value)) + p.Y.Tick.Label.Rectangle(t.Label).Max.Y + ext.Height - ext.Ascent
		area.Max.Y = max(area.Max.Y, top)
	}
	return area
}
