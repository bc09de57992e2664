package plotting

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Band is one series with its uncertainty: a line through Mean with a glyph at the measured
// points, and a translucent band between Lo and Hi (for instance the 10% and 90% quantiles over
// repetitions, or mean ± one standard deviation). X, Mean, Lo and Hi have equal lengths; Lo and
// Hi are both nil when there is no band. X must be non-decreasing.
//
// A band with a Style is drawn in it (colour, marker and dash; Dashed is then ignored), whatever
// its position among the bands, so that a method can look the same in every figure; a band without
// a Style takes the style of its position.
type Band struct {
	Label           string
	X, Mean, Lo, Hi []float64
	Dashed          bool
	Style           *SeriesStyle
	// Outline draws the band as its two edges, thin lines in the band's colour and dash, instead
	// of a translucent fill: where two filled bands overlap their colours blend into a third
	// (blue and orange give olive), so the second of an overlapping pair is best outlined.
	Outline bool
}

// glyphsAtMost bounds the glyphs drawn on one line: a long series gets this many evenly spaced
// glyphs, enough to identify it without hiding its shape.
const glyphsAtMost = 16

// AddBands adds the bands to p, band k in its Style or else in Color(k) with
// Marker(k), each with a legend entry (none for an empty Label). All band fills are drawn before
// all lines so that no band hides a line. The axes cover the bands, not only the means. It returns
// an error, and adds nothing, if a band has mismatched lengths, no points, NaN or infinite values,
// Lo above Hi, decreasing X, or non-positive values on a log axis.
func AddBands(p *plot.Plot, bands ...Band) error {
	if p == nil {
		return errors.New("plotting: AddBands on a nil plot")
	}
	if p.X.Scale == nil || p.Y.Scale == nil {
		return errors.New("plotting: AddBands on a zero plot.Plot (make it with New, NewPrint or plot.New)")
	}
	for k, b := range bands {
		if err := checkBand(p, b); err != nil {
			return fmt.Errorf("plotting: band %d (%q): %w", k, b.Label, err)
		}
	}
	st := styleOf(p)
	var fills, lines []plot.Plotter
	for k, b := range bands {
		ms := SeriesStyle{Color: Color(k), Marker: Marker(k)}
		if b.Dashed {
			ms.Dashes = dashes
		}
		if b.Style != nil {
			ms = *b.Style
		}
		s := &series{
			xy:    pairs(b.X, b.Mean),
			line:  draw.LineStyle{Color: ms.Color, Width: st.seriesWidth, Dashes: st.scaled(ms.Dashes)},
			glyph: draw.GlyphStyle{Color: ms.Color, Radius: st.glyphRadius, Shape: ms.Marker},
		}
		if b.Lo != nil {
			s.fill = &bandFill{lo: pairs(b.X, b.Lo), hi: pairs(b.X, b.Hi), color: translucent(ms.Color, bandAlpha)}
			if b.Outline {
				s.fill.edge = &draw.LineStyle{Color: ms.Color, Width: st.referenceWidth * 3 / 4, Dashes: st.scaled(ms.Dashes)}
			}
			fills = append(fills, s.fill)
		}
		lines = append(lines, s)
		addLegendEntry(p, b.Label, s)
	}
	p.Add(fills...)
	p.Add(lines...)
	return nil
}

// checkBand returns what is wrong with b, or nil.
func checkBand(p *plot.Plot, b Band) error {
	n := len(b.X)
	if n == 0 {
		return errors.New("no points")
	}
	if len(b.Mean) != n {
		return fmt.Errorf("len(Mean) = %d, len(X) = %d", len(b.Mean), n)
	}
	if (b.Lo == nil) != (b.Hi == nil) {
		return errors.New("Lo and Hi must both be set or both be nil")
	}
	if b.Lo != nil && (len(b.Lo) != n || len(b.Hi) != n) {
		return fmt.Errorf("len(Lo) = %d, len(Hi) = %d, len(X) = %d", len(b.Lo), len(b.Hi), n)
	}
	if err := checkXY(p, b.X, b.Mean); err != nil {
		return err
	}
	if b.Lo != nil {
		if err := checkValues(p.Y, "Lo", b.Lo); err != nil {
			return err
		}
		if err := checkValues(p.Y, "Hi", b.Hi); err != nil {
			return err
		}
	}
	for i := range n {
		if i > 0 && b.X[i] < b.X[i-1] {
			return fmt.Errorf("X must be non-decreasing, X[%d] = %g < X[%d] = %g", i, b.X[i], i-1, b.X[i-1])
		}
		if b.Lo != nil && b.Lo[i] > b.Hi[i] {
			return fmt.Errorf("Lo[%d] = %g is above Hi[%d] = %g", i, b.Lo[i], i, b.Hi[i])
		}
	}
	return nil
}

// AddLine adds a reference curve (a bound, a slope, a theoretical rate) through the points
// (x[j], y[j]) in Color(i), without glyphs, dashed if asked, with a legend entry unless label is
// empty. It returns an error for mismatched or empty x and y, NaN or infinite values, or
// non-positive values on a log axis.
func AddLine(p *plot.Plot, x, y []float64, label string, i int, dashed bool) error {
	var d []vg.Length
	if dashed {
		d = dashes
	}
	return addLine(p, x, y, label, SeriesStyle{Color: Color(i), Dashes: d})
}

// AddStyledLine adds a curve without glyphs in the colour and dash of ms, with a legend entry
// unless label is empty: a reference such as a bound, a slope or the identity in its neutral style,
// or a method drawn as a plain line. It returns the errors of [AddLine].
func AddStyledLine(p *plot.Plot, x, y []float64, label string, ms SeriesStyle) error {
	ms.Marker = nil
	return addLine(p, x, y, label, ms)
}

func addLine(p *plot.Plot, x, y []float64, label string, ms SeriesStyle) error {
	if err := checkSeries(p, x, y); err != nil {
		return fmt.Errorf("plotting: line %q: %w", label, err)
	}
	st := styleOf(p)
	s := &series{xy: pairs(x, y), line: draw.LineStyle{Color: ms.Color, Width: st.referenceWidth, Dashes: st.scaled(ms.Dashes)}}
	p.Add(s)
	addLegendEntry(p, label, s)
	return nil
}

// AddScatter adds the points (x[j], y[j]) as glyphs Marker(i) in Color(i), with a legend entry
// unless label is empty. It returns an error for mismatched or empty x and y, NaN or infinite
// values, or non-positive values on a log axis.
func AddScatter(p *plot.Plot, x, y []float64, label string, i int) error {
	return addScatter(p, x, y, label, SeriesStyle{Color: Color(i), Marker: Marker(i)})
}

// AddStyledScatter adds the points (x[j], y[j]) as glyphs in the colour and marker of ms (a circle
// for a style without a marker), with a legend entry unless label is empty. It returns the errors
// of [AddScatter].
func AddStyledScatter(p *plot.Plot, x, y []float64, label string, ms SeriesStyle) error {
	if ms.Marker == nil {
		ms.Marker = circle
	}
	return addScatter(p, x, y, label, ms)
}

func addScatter(p *plot.Plot, x, y []float64, label string, ms SeriesStyle) error {
	if err := checkSeries(p, x, y); err != nil {
		return fmt.Errorf("plotting: scatter %q: %w", label, err)
	}
	s := &series{xy: pairs(x, y), glyph: draw.GlyphStyle{Color: ms.Color, Radius: styleOf(p).glyphRadius, Shape: ms.Marker}, allGlyphs: true}
	p.Add(s)
	addLegendEntry(p, label, s)
	return nil
}

// AddHLine adds a dashed horizontal line at height y across the whole plot in Color(i), for a
// reference level such as the score of the full forest, with a legend entry unless label is
// empty. It returns an error for a NaN or infinite y, or a non-positive y on a log y axis.
func AddHLine(p *plot.Plot, y float64, label string, i int) error {
	return addHLine(p, y, label, SeriesStyle{Color: Color(i), Dashes: dashes})
}

// AddStyledHLine adds a horizontal line at height y across the whole plot in the colour and dash of
// ms (dashed for a solid style), typically a reference level in its neutral style (the majority
// class, the full forest, chance), with a legend entry unless label is empty. It returns the errors
// of [AddHLine].
func AddStyledHLine(p *plot.Plot, y float64, label string, ms SeriesStyle) error {
	if ms.Dashes == nil {
		ms.Dashes = dashes // a solid horizontal line would read as a grid line
	}
	return addHLine(p, y, label, ms)
}

func addHLine(p *plot.Plot, y float64, label string, ms SeriesStyle) error {
	if p == nil {
		return errors.New("plotting: AddHLine on a nil plot")
	}
	if err := checkValues(p.Y, "y", []float64{y}); err != nil {
		return fmt.Errorf("plotting: horizontal line %q: %w", label, err)
	}
	st := styleOf(p)
	h := &hLine{y: y, style: draw.LineStyle{Color: ms.Color, Width: st.referenceWidth, Dashes: st.scaled(ms.Dashes)}}
	p.Add(h)
	addLegendEntry(p, label, h)
	return nil
}

// checkSeries validates a plain x-y series.
func checkSeries(p *plot.Plot, x, y []float64) error {
	if p == nil {
		return errors.New("nil plot")
	}
	if len(x) == 0 {
		return errors.New("no points")
	}
	if len(x) != len(y) {
		return fmt.Errorf("len(x) = %d, len(y) = %d", len(x), len(y))
	}
	return checkXY(p, x, y)
}

// checkXY checks that x and y are finite and positive on log axes.
func checkXY(p *plot.Plot, x, y []float64) error {
	if err := checkValues(p.X, "x", x); err != nil {
		return err
	}
	return checkValues(p.Y, "y", y)
}

// checkValues reports the first value of vs that is not finite, or not positive on a log axis.
func checkValues(a plot.Axis, name string, vs []float64) error {
	logAxis := isLog(a)
	for j, v := range vs {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("%s[%d] = %g is not finite", name, j, v)
		case logAxis && v <= 0:
			return fmt.Errorf("%s[%d] = %g is not positive, but the axis is logarithmic", name, j, v)
		}
	}
	return nil
}

func pairs(x, y []float64) plotter.XYs {
	xy := make(plotter.XYs, len(x))
	for j := range xy {
		xy[j] = plotter.XY{X: x[j], Y: y[j]}
	}
	return xy
}

func translucent(c color.Color, alpha float64) color.Color {
	r, g, b, _ := c.RGBA()
	a := uint8(math.Round(255 * alpha))
	scale := func(v uint32) uint8 { return uint8(v >> 8) }
	return color.NRGBA{R: scale(r), G: scale(g), B: scale(b), A: a}
}

// series draws a line (when line.Width > 0) and glyphs (when glyph.Shape is set) through xy; its
// legend thumbnail also shows its band fill, if any.
type series struct {
	xy        plotter.XYs
	line      draw.LineStyle
	glyph     draw.GlyphStyle
	allGlyphs bool // a glyph at every point, as in a scatter plot
	fill      *bandFill
}

// glyphPoints returns the points that get a glyph.
func (s *series) glyphPoints() plotter.XYs {
	if s.glyph.Shape == nil {
		return nil
	}
	n := len(s.xy)
	if s.allGlyphs || n <= glyphsAtMost {
		return s.xy
	}
	pts := make(plotter.XYs, glyphsAtMost)
	for j := range pts {
		pts[j] = s.xy[int(math.Round(float64(j*(n-1))/float64(glyphsAtMost-1)))]
	}
	return pts
}

// Plot implements plot.Plotter.
func (s *series) Plot(c draw.Canvas, p *plot.Plot) {
	if s.line.Width > 0 {
		(&plotter.Line{XYs: s.xy, LineStyle: s.line}).Plot(c, p)
	}
	if pts := s.glyphPoints(); pts != nil {
		(&plotter.Scatter{XYs: pts, GlyphStyle: s.glyph}).Plot(c, p)
	}
}

// DataRange implements plot.DataRanger.
func (s *series) DataRange() (xmin, xmax, ymin, ymax float64) { return plotter.XYRange(s.xy) }

// GlyphBoxes implements plot.GlyphBoxer: the glyphs' extent, so that the plot pads them inside
// its data area, plus zero-size boxes along the line that only tell the legend where data lie.
func (s *series) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var boxes []plot.GlyphBox
	r := s.glyph.Rectangle()
	for _, pt := range s.glyphPoints() {
		boxes = append(boxes, plot.GlyphBox{X: p.X.Norm(pt.X), Y: p.Y.Norm(pt.Y), Rectangle: r})
	}
	if s.line.Width > 0 {
		boxes = sampleLine(boxes, p, s.xy)
	}
	return boxes
}

// Thumbnail implements plot.Thumbnailer: band swatch, line and glyph, as in the plot.
func (s *series) Thumbnail(c *draw.Canvas) {
	mid := c.Center()
	if s.fill != nil {
		h := (c.Max.Y - c.Min.Y) * 0.35
		if e := s.fill.edge; e != nil {
			c.StrokeLine2(*e, c.Min.X, mid.Y-h, c.Max.X, mid.Y-h)
			c.StrokeLine2(*e, c.Min.X, mid.Y+h, c.Max.X, mid.Y+h)
		} else {
			c.FillPolygon(s.fill.color, []vg.Point{
				{X: c.Min.X, Y: mid.Y - h}, {X: c.Max.X, Y: mid.Y - h}, {X: c.Max.X, Y: mid.Y + h}, {X: c.Min.X, Y: mid.Y + h},
			})
		}
	}
	if s.line.Width > 0 {
		c.StrokeLine2(s.line, c.Min.X, mid.Y, c.Max.X, mid.Y)
	}
	if s.glyph.Shape != nil {
		c.DrawGlyph(s.glyph, mid)
	}
}

// bandFill is the translucent area between lo and hi, or its two edges.
type bandFill struct {
	lo, hi plotter.XYs
	color  color.Color
	edge   *draw.LineStyle // non-nil: drawn as its two edges in this style (Band.Outline), not filled
}

// Plot implements plot.Plotter.
func (b *bandFill) Plot(c draw.Canvas, p *plot.Plot) {
	if b.edge != nil {
		(&plotter.Line{XYs: b.lo, LineStyle: *b.edge}).Plot(c, p)
		(&plotter.Line{XYs: b.hi, LineStyle: *b.edge}).Plot(c, p)
		return
	}
	ring := make(plotter.XYs, 0, 2*len(b.hi))
	ring = append(ring, b.hi...)
	for j := len(b.lo) - 1; j >= 0; j-- {
		ring = append(ring, b.lo[j])
	}
	(&plotter.Polygon{XYs: []plotter.XYs{ring}, Color: b.color}).Plot(c, p)
}

// DataRange implements plot.DataRanger.
func (b *bandFill) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, _ = plotter.XYRange(b.lo)
	_, _, _, ymax = plotter.XYRange(b.hi)
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer with zero-size boxes covering the band, which only tell
// the legend where data lie.
func (b *bandFill) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var boxes []plot.GlyphBox
	column := func(x, lo, hi float64) {
		boxes = append(boxes, plot.GlyphBox{X: x, Y: lo})
		boxes = sampleSegment(boxes, x, lo, x, hi)
	}
	for j := range b.lo {
		x1, lo1, hi1 := p.X.Norm(b.lo[j].X), p.Y.Norm(b.lo[j].Y), p.Y.Norm(b.hi[j].Y)
		if j == 0 {
			column(x1, lo1, hi1)
			continue
		}
		x0, lo0, hi0 := p.X.Norm(b.lo[j-1].X), p.Y.Norm(b.lo[j-1].Y), p.Y.Norm(b.hi[j-1].Y)
		m := min(max(int(math.Ceil(math.Abs(x1-x0)/sampleStep)), 1), sampleMax)
		for k := 1; k <= m; k++ {
			t := float64(k) / float64(m)
			column(x0+t*(x1-x0), lo0+t*(lo1-lo0), hi0+t*(hi1-hi0))
		}
	}
	return boxes
}

// hLine is a horizontal line across the data area.
type hLine struct {
	y     float64
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (h *hLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	if y := trY(h.y); c.ContainsY(y) {
		c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
	}
}

// DataRange implements plot.DataRanger: the line widens the y range only.
func (h *hLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.y, h.y
}

// GlyphBoxes implements plot.GlyphBoxer with zero-size boxes along the line for the legend.
func (h *hLine) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	y := p.Y.Norm(h.y)
	return sampleSegment(nil, 0, y, 1, y)
}

// Thumbnail implements plot.Thumbnailer.
func (h *hLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

// sampleStep is the spacing, as a fraction of the axes, of the points sampled along lines and
// bands to tell the legend where data lie; at most sampleMax points are taken per segment.
const (
	sampleStep = 0.01
	sampleMax  = 100
)

// sampleLine appends zero-size boxes along the polyline xy, in normalized coordinates.
func sampleLine(boxes []plot.GlyphBox, p *plot.Plot, xy plotter.XYs) []plot.GlyphBox {
	for j := range xy {
		x, y := p.X.Norm(xy[j].X), p.Y.Norm(xy[j].Y)
		if j == 0 {
			boxes = append(boxes, plot.GlyphBox{X: x, Y: y})
			continue
		}
		boxes = sampleSegment(boxes, p.X.Norm(xy[j-1].X), p.Y.Norm(xy[j-1].Y), x, y)
	}
	return boxes
}

// sampleSegment appends zero-size boxes from (x0, y0), excluded, to (x1, y1), included.
func sampleSegment(boxes []plot.GlyphBox, x0, y0, x1, y1 float64) []plot.GlyphBox {
	n := int(math.Ceil(math.Hypot(x1-x0, y1-y0) / sampleStep))
	n = min(max(n, 1), sampleMax)
	for k := 1; k <= n; k++ {
		t := float64(k) / float64(n)
		boxes = append(boxes, plot.GlyphBox{X: x0 + t*(x1-x0), Y: y0 + t*(y1-y0)})
	}
	return boxes
}
