package plotting

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
)

// Rect is a block of a matrix: Rows × Cols entries whose top-left entry is (Row0, Col0).
type Rect struct{ Row0, Col0, Rows, Cols int }

// HeatMapOptions says which blocks of a heat map to highlight.
type HeatMapOptions struct {
	// Outline lists blocks drawn with a black outline on a white halo, visible on any colour;
	// nil outlines none.
	Outline []Rect
	// GreyOutside draws every entry outside the Outline blocks in grey, so that the blocks a
	// method uses (for instance the diagonal blocks of DAC-RLS) stand out.
	GreyOutside bool
	// BarLabel names what the colours show, with its unit (for instance "k(xᵢ, xⱼ)"); it is
	// written along the colour bar, in the axis-label font. Empty for none.
	BarLabel string
	// Limit, when positive, fixes the colour scale of values of both signs to [−Limit, Limit]
	// (every entry must lie within it), so that heat maps drawn with one Limit share one scale and
	// one colour bar can serve them all; 0 takes the largest magnitude of the matrix.
	Limit float64
	// NoBar draws no colour bar: another heat map with the same Limit shows it.
	NoBar bool
}

// Heat map limits: matrices above maxHeatCells entries are refused (pass a block instead), and
// small matrices are drawn at heatPixels pixels a side so that cell edges stay sharp when the image
// is scaled.
const (
	maxHeatCells  = 2048 * 2048
	heatPixels    = 512
	paletteColors = 256
)

// HeatMap draws matrix m on p with entry (0, 0) at the top left, as a matrix is written, with a
// colour bar giving the value scale at the right of the data area, labelled with opt.BarLabel.
// Values of one sign use the perceptually ordered Kindlmann map (dark low, light high), or viridis
// on a plot made by [NewPrint] (perceptually uniform, and ordered in grey-scale print too); values of
// both signs use a blue-red diverging map centred on zero. The axes are labelled with row and column indices; a plot about
// as wide as it is tall keeps the cells square. It returns an error for an empty matrix or one of
// more than 2048² entries (pass a block), NaN or infinite entries, blocks outside the matrix,
// GreyOutside without blocks, entries beyond a Limit, or a plot with a log axis. [EqualAspect]
// keeps the cells square at any panel size.
func HeatMap(p *plot.Plot, m mat.Matrix, opt HeatMapOptions) error {
	if p == nil || m == nil {
		return errors.New("plotting: HeatMap needs a plot and a matrix")
	}
	if err := matcheck.NotNil("plotting: HeatMap", "the matrix", m); err != nil {
		return err
	}
	rows, cols := m.Dims()
	if rows < 1 || cols < 1 || rows > maxHeatCells/cols {
		return fmt.Errorf("plotting: heat map of a %d × %d matrix: need between 1 and %d entries", rows, cols, maxHeatCells)
	}
	if isLog(p.X) || isLog(p.Y) {
		return errors.New("plotting: heat map on a plot with a log axis")
	}
	data := mat.DenseCopyOf(m) // later changes to m do not alter the figure
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range rows {
		for j := range cols {
			v := data.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("plotting: heat map entry (%d, %d) = %g is not finite", i, j, v)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	for k, r := range opt.Outline {
		if r.Row0 < 0 || r.Col0 < 0 || r.Rows < 1 || r.Cols < 1 || r.Row0 >= rows || r.Col0 >= cols ||
			r.Rows > rows-r.Row0 || r.Cols > cols-r.Col0 {
			return fmt.Errorf("plotting: heat map block %d %+v is not inside the %d × %d matrix", k, r, rows, cols)
		}
	}
	if opt.GreyOutside && len(opt.Outline) == 0 {
		return errors.New("plotting: heat map GreyOutside needs at least one Outline block")
	}
	switch {
	case opt.Limit < 0 || math.IsNaN(opt.Limit) || math.IsInf(opt.Limit, 0):
		return fmt.Errorf("plotting: heat map Limit %g: need a positive finite limit, or 0 for none", opt.Limit)
	case opt.Limit > 0 && max(-lo, hi) > opt.Limit:
		return fmt.Errorf("plotting: heat map entries reach %g, beyond the limit ±%g", max(-lo, hi), opt.Limit)
	case opt.Limit > 0:
		lo, hi = -opt.Limit, opt.Limit
	}
	if lo == hi { // a constant matrix still needs a colour scale
		d := max(math.Abs(lo)/10, 0.5)
		lo, hi = lo-d, hi+d
	}
	cmap := moreland.Kindlmann()
	if lo < 0 && hi > 0 {
		cmap = moreland.SmoothBlueRed()
		lo, hi = -max(-lo, hi), max(-lo, hi)
	}
	colors, err := paletteOf(cmap)
	if err != nil {
		return fmt.Errorf("plotting: heat map palette: %w", err)
	}
	if styleOf(p).print && !(lo < 0 && hi > 0) {
		colors = viridis()
	}

	k := max(1, heatPixels/max(rows, cols))
	grid := matrixGrid{m: data, rows: rows, cols: cols, k: k}
	inBlock := make([]bool, rows*cols)
	for _, r := range opt.Outline {
		for i := r.Row0; i < r.Row0+r.Rows; i++ {
			for j := r.Col0; j < r.Col0+r.Cols; j++ {
				inBlock[i*cols+j] = true
			}
		}
	}
	if opt.GreyOutside {
		// One layer, one image: the palette is the colours followed by their grey versions, and an
		// entry outside the blocks is shifted by n palette steps, so it takes the grey of the colour
		// it would have had. (Two layers, one per palette, made two images of equal size, which the
		// PDF writer lists in the order of a Go map: different bytes on every run.)
		n := len(colors)
		step := (hi - lo) / float64(n-1)
		grid.offset = func(i, j int) float64 {
			if inBlock[i*cols+j] {
				return 0
			}
			return float64(n) * step
		}
		h := plotter.NewHeatMap(grid, colorList(append(slices.Clone(colors), greyed(colors)...)))
		h.Min, h.Max, h.Rasterized = lo, lo+float64(2*n-1)*step, true
		p.Add(heatLayer{h})
	} else {
		h := plotter.NewHeatMap(grid, colorList(colors))
		h.Min, h.Max, h.Rasterized = lo, hi, true
		p.Add(heatLayer{h})
	}
	if len(opt.Outline) > 0 {
		p.Add(&outlines{rects: append([]Rect(nil), opt.Outline...), rows: rows})
	}
	if !opt.NoBar {
		barText := p.Y.Tick.Label
		barText.XAlign, barText.YAlign = draw.XLeft, draw.YCenter
		bar := &colorBar{colors: colors, min: lo, max: hi, text: barText, line: p.Y.LineStyle, label: opt.BarLabel, minus: styleOf(p).print}
		bar.labelText = p.Y.Label.TextStyle
		bar.labelText.Rotation = math.Pi / 2
		bar.labelText.XAlign, bar.labelText.YAlign = draw.XCenter, draw.YTop
		p.Add(bar)
	}
	p.X.Padding, p.Y.Padding = 0, 0
	p.X.Tick.Marker = indexTicks{}
	p.Y.Tick.Marker = indexTicks{rows: rows}
	return nil
}

// paletteOf samples cmap at paletteColors evenly spaced values, low to high.
func paletteOf(cmap palette.ColorMap) ([]color.Color, error) {
	cmap.SetMin(0)
	cmap.SetMax(1)
	colors := make([]color.Color, paletteColors)
	for i := range colors {
		c, err := cmap.At(min(float64(i)/(paletteColors-1), 1))
		if err != nil {
			return nil, err
		}
		colors[i] = c
	}
	return colors, nil
}

// viridis returns the viridis colour map (viridisData), low to high.
func viridis() []color.Color {
	colors := make([]color.Color, len(viridisData))
	for i, c := range viridisData {
		colors[i] = color.NRGBA{R: uint8(math.Round(255 * c[0])), G: uint8(math.Round(255 * c[1])), B: uint8(math.Round(255 * c[2])), A: 255}
	}
	return colors
}

// greyed maps each colour to a light grey of the same order of lightness (CIE L*), so that greyed
// entries still show the matrix structure but recede behind the coloured blocks.
func greyed(colors []color.Color) []color.Color {
	out := make([]color.Color, len(colors))
	for i, c := range colors {
		out[i] = color.Gray{Y: uint8(math.Round(150 + 90*lightness(c)))}
	}
	return out
}

// lightness returns the CIE L* of an sRGB colour, scaled to [0, 1].
func lightness(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	linear := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	y := 0.2126*linear(r) + 0.7152*linear(g) + 0.0722*linear(b)
	if y <= 216.0/24389 {
		return y * 24389 / 27 / 100
	}
	return (116*math.Cbrt(y) - 16) / 100
}

// colorList is a palette.Palette.
type colorList []color.Color

// Colors implements palette.Palette.
func (l colorList) Colors() []color.Color { return l }

// matrixGrid presents a matrix to plotter.HeatMap with row 0 at the top: matrix row i lies at
// y = rows-1-i and column j at x = j. Each entry becomes k × k grid cells, so that the raster
// image is large enough for sharp cell edges. offset, when set, is added to entry (i, j) (to move
// it into another part of the palette).
type matrixGrid struct {
	m             mat.Matrix
	rows, cols, k int
	offset        func(i, j int) float64
}

// Dims implements plotter.GridXYZ.
func (g matrixGrid) Dims() (c, r int) { return g.cols * g.k, g.rows * g.k }

// Z implements plotter.GridXYZ.
func (g matrixGrid) Z(c, r int) float64 {
	i, j := g.rows-1-r/g.k, c/g.k
	if g.offset != nil {
		return g.m.At(i, j) + g.offset(i, j)
	}
	return g.m.At(i, j)
}

// X implements plotter.GridXYZ.
func (g matrixGrid) X(c int) float64 { return (float64(c)+0.5)/float64(g.k) - 0.5 }

// Y implements plotter.GridXYZ.
func (g matrixGrid) Y(r int) float64 { return (float64(r)+0.5)/float64(g.k) - 0.5 }

// heatLayer is a plotter.HeatMap without glyph boxes: its per-cell boxes would only slow down
// the layout of a large matrix, and an image needs no padding.
type heatLayer struct{ *plotter.HeatMap }

// GlyphBoxes implements plot.GlyphBoxer.
func (heatLayer) GlyphBoxes(*plot.Plot) []plot.GlyphBox { return nil }

// outlines draws matrix blocks as rectangles along their cell edges.
type outlines struct {
	rects []Rect
	rows  int
}

// Plot implements plot.Plotter.
func (o *outlines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	halo := draw.LineStyle{Color: color.White, Width: vg.Points(2.8)}
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)}
	for _, sty := range []draw.LineStyle{halo, line} {
		for _, r := range o.rects {
			x0, x1 := trX(float64(r.Col0)-0.5), trX(float64(r.Col0+r.Cols)-0.5)
			y0, y1 := trY(float64(o.rows-r.Row0-r.Rows)-0.5), trY(float64(o.rows-r.Row0)-0.5)
			var path vg.Path
			path.Move(vg.Point{X: x0, Y: y0})
			path.Line(vg.Point{X: x1, Y: y0})
			path.Line(vg.Point{X: x1, Y: y1})
			path.Line(vg.Point{X: x0, Y: y1})
			path.Close()
			c.SetLineStyle(sty)
			c.Stroke(path)
		}
	}
}

// colorBar draws the value scale of a heat map as a vertical bar to the right of the data area;
// its glyph box makes the plot reserve that room.
type colorBar struct {
	colors    []color.Color
	min, max  float64
	text      draw.TextStyle
	line      draw.LineStyle
	label     string         // written along the bar, right of its tick labels; may be empty
	labelText draw.TextStyle // rotated a quarter turn
	minus     bool           // labels with a true minus (niceTicks.minus)
}

// Colour bar geometry, in points.
const (
	barGap      = vg.Length(8)
	barWidth    = vg.Length(9)
	barTick     = vg.Length(3)
	barLabelGap = vg.Length(2)
	barTitleGap = vg.Length(4)
)

// labelWidth is the width of the widest tick label of the bar.
func (b *colorBar) labelWidth() vg.Length {
	var w vg.Length
	for _, t := range b.ticks() {
		w = max(w, b.text.Width(t.Label))
	}
	return w
}

// ticks returns the labelled values of the bar.
func (b *colorBar) ticks() []plot.Tick {
	var ticks []plot.Tick
	for _, t := range (niceTicks{minus: b.minus}).Ticks(b.min, b.max) {
		if !t.IsMinor() && t.Value >= b.min && t.Value <= b.max {
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// Plot implements plot.Plotter.
func (b *colorBar) Plot(c draw.Canvas, _ *plot.Plot) {
	x0 := c.Max.X + barGap
	x1 := x0 + barWidth
	step := (c.Max.Y - c.Min.Y) / vg.Length(len(b.colors))
	for i, col := range b.colors {
		// Each strip reaches into the next one, which covers it, so no seam shows between strips.
		y0 := c.Min.Y + vg.Length(i)*step
		y1 := min(y0+2*step, c.Max.Y)
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
	frame := []vg.Point{{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}, {X: x0, Y: c.Min.Y}}
	c.StrokeLines(b.line, frame)
	for _, t := range b.ticks() {
		y := c.Min.Y + vg.Length((t.Value-b.min)/(b.max-b.min))*(c.Max.Y-c.Min.Y)
		c.StrokeLine2(b.line, x1, y, x1+barTick, y)
		c.FillText(b.text, vg.Point{X: x1 + barTick + barLabelGap, Y: y}, t.Label)
	}
	if b.label != "" {
		x := x1 + barTick + barLabelGap + b.labelWidth() + barTitleGap
		c.FillText(b.labelText, vg.Point{X: x, Y: (c.Min.Y + c.Max.Y) / 2}, b.label)
	}
}

// GlyphBoxes implements plot.GlyphBoxer: room for the bar and its labels right of the data area,
// and for half a label above and below it.
func (b *colorBar) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	labelW := b.labelWidth()
	if b.label != "" {
		labelW += barTitleGap + b.labelText.Height(b.label)
	}
	half := b.text.Height("0") / 2
	return []plot.GlyphBox{
		{X: 1, Y: 0.5, Rectangle: vg.Rectangle{Max: vg.Point{X: barGap + barWidth + barTick + barLabelGap + labelW}}},
		{X: 1, Y: 1, Rectangle: vg.Rectangle{Min: vg.Point{Y: -half}, Max: vg.Point{Y: half}}},
		{X: 1, Y: 0, Rectangle: vg.Rectangle{Min: vg.Point{Y: -half}, Max: vg.Point{Y: half}}},
	}
}

// indexTicks labels matrix indices: integers at a round step, at most maxIndexTicks of them. With
// rows > 0 it serves the y axis of a heat map, where matrix row i lies at y = rows-1-i.
type indexTicks struct{ rows int }

const maxIndexTicks = 6

// Ticks implements plot.Ticker.
func (t indexTicks) Ticks(lo, hi float64) []plot.Tick {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || hi-lo > maxHeatCells {
		return nil
	}
	toIndex := func(v float64) float64 { return v }
	if t.rows > 0 {
		toIndex = func(v float64) float64 { return float64(t.rows-1) - v }
		lo, hi = toIndex(hi), toIndex(lo)
	}
	first, last := math.Ceil(lo), math.Floor(hi)
	if last < first {
		return nil
	}
	step := 1.0
	for k := 0; (last-first)/step >= maxIndexTicks; k++ {
		step *= [...]float64{2, 2.5, 2}[k%3] // 1, 2, 5, 10, 20, 50, ...
	}
	var ticks []plot.Tick
	for v := math.Ceil(first/step) * step; v <= last; v += step {
		ticks = append(ticks, plot.Tick{Value: toIndex(v), Label: strconv.FormatFloat(v+0, 'f', -1, 64)})
	}
	return ticks
}
