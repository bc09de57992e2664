package plotting

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/fastkernels/kernellab/lab/safefile"
)

// Drawable is anything that draws itself onto a canvas, as *plot.Plot and *Figure do; it is what
// this package renders to PNG and SVG (a single plot through a small adapter that adds a white
// margin).
type Drawable interface{ Draw(c draw.Canvas) }

// maxPixels bounds the side of a PNG, so that a size given in the wrong unit (points instead of
// inches, say) fails with an error instead of exhausting memory.
const maxPixels = 20000

// SavePlot writes p as base+".png" (at DPI dots per inch) and base+".svg", each w × h (for
// example 4*vg.Inch × 3*vg.Inch), each atomically, creating the parent folders. base has no
// extension. Nothing is written if drawing fails.
func SavePlot(base string, p *plot.Plot, w, h vg.Length) error {
	if p == nil {
		return errors.New("plotting: SavePlot of a nil plot")
	}
	return save(base, insetPlot{p}, w, h, DPI, false)
}

// PlotPNG returns the PNG encoding of p at w × h, for notebooks that display figures inline.
func PlotPNG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	if p == nil {
		return nil, errors.New("plotting: PlotPNG of a nil plot")
	}
	return encodePNG(insetPlot{p}, w, h, DPI)
}

// insetPlot draws a plot figureInset inside the canvas edges, so that no text touches them.
type insetPlot struct{ p *plot.Plot }

// Draw implements Drawable.
func (ip insetPlot) Draw(c draw.Canvas) {
	fillWhite(c)
	inner := draw.Crop(c, figureInset, -figureInset, figureInset, -figureInset)
	if styleOf(ip.p).print {
		roundLogRanges(ip.p)
	}
	setTickRoom(ip.p, ip.p.DataCanvas(inner))
	if fitAspect(ip.p, ip.p.DataCanvas(inner)) { // new ranges may give new tick labels
		setTickRoom(ip.p, ip.p.DataCanvas(inner))
		fitAspect(ip.p, ip.p.DataCanvas(inner))
	}
	ip.p.Draw(inner)
}

// fillWhite paints the whole canvas white: SVG has no background of its own, and the margins and
// gaps between panels lie outside every plot's background.
func fillWhite(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
}

// save renders d to PNG (at dpi) and SVG, and to PDF if asked, in memory, then writes the files.
func save(base string, d Drawable, w, h vg.Length, dpi int, withPDF bool) error {
	if base == "" {
		return errors.New("plotting: empty file name")
	}
	if ext := strings.ToLower(filepath.Ext(base)); ext == ".png" || ext == ".svg" || ext == ".pdf" {
		return fmt.Errorf("plotting: %q: give the name without extension, .png, .svg (and .pdf) are added", base)
	}
	png, err := encodePNG(d, w, h, dpi)
	if err != nil {
		return err
	}
	svg, err := encodeSVG(d, w, h)
	if err != nil {
		return err
	}
	var pdf []byte
	if withPDF {
		if pdf, err = encodePDF(d, w, h); err != nil {
			return err
		}
	}
	if err := safefile.WriteBytes(base+".png", png); err != nil {
		return err
	}
	if err := safefile.WriteBytes(base+".svg", svg); err != nil {
		return err
	}
	if withPDF {
		return safefile.WriteBytes(base+".pdf", pdf)
	}
	return nil
}

func checkSize(w, h vg.Length) error { return checkSizeAt(w, h, DPI) }

func checkSizeAt(w, h vg.Length, dpi int) error {
	for _, l := range []vg.Length{w, h} {
		if !(l > 0) || math.IsInf(float64(l), 0) || l.Dots(float64(dpi)) > maxPixels {
			return fmt.Errorf("plotting: figure size %v × %v points: each side must be positive and at most %d pixels at %d dpi",
				float64(w), float64(h), maxPixels, dpi)
		}
	}
	return nil
}

// encodePNG draws d on a w × h image at dpi and encodes it at the default compression.
func encodePNG(d Drawable, w, h vg.Length, dpi int) ([]byte, error) {
	return encodePNGLevel(d, w, h, dpi, png.DefaultCompression)
}

// encodePNGLevel draws d on a w × h image at dpi and encodes it at the given zlib level.
func encodePNGLevel(d Drawable, w, h vg.Length, dpi int, level png.CompressionLevel) (out []byte, err error) {
	if err := checkSizeAt(w, h, dpi); err != nil {
		return nil, err
	}
	defer recoverDrawing(&err)
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
	d.Draw(draw.New(c))
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: level}).Encode(&buf, c.Image()); err != nil {
		return nil, fmt.Errorf("plotting: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// encodeSVG draws d on a w × h SVG canvas.
func encodeSVG(d Drawable, w, h vg.Length) (out []byte, err error) {
	if err := checkSize(w, h); err != nil {
		return nil, err
	}
	defer recoverDrawing(&err)
	c := vgsvg.New(w, h)
	d.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plotting: encoding SVG: %w", err)
	}
	return []byte(svgFixes.Replace(buf.String())), nil
}

// encodePDF draws d on a w × h PDF page with the fonts embedded, so that the figure prints the
// same everywhere.
func encodePDF(d Drawable, w, h vg.Length) (out []byte, err error) {
	if err := checkSize(w, h); err != nil {
		return nil, err
	}
	defer recoverDrawing(&err)
	c := newPDFCanvas(w, h)
	c.EmbedFonts(true)
	d.Draw(draw.New(pdfCanvas{c}))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plotting: encoding PDF: %w", err)
	}
	return buf.Bytes(), nil
}

// svgFixes corrects three quirks of gonum/plot's SVG output: embedded raster images (heat maps)
// keep the SVG default of preserving their aspect ratio, so they shrink inside a non-square data
// area instead of filling it as in the PNG; they are PNG but labelled JPEG, which strict renderers
// such as librsvg refuse to draw; and text names only the Liberation face, so viewers without it
// fall back to a wider font that overflows the legend box, whereas Times New Roman has the same
// metrics.
var svgFixes = strings.NewReplacer(
	"<image ", `<image preserveAspectRatio="none" `,
	"data:image/jpg;base64,iVBOR", "data:image/png;base64,iVBOR",
	"font-family:Liberation Serif;", "font-family:'Liberation Serif','Times New Roman',Times,serif;",
)

// recoverDrawing turns a panic inside gonum/plot (which panics on some bad data, for instance a
// plotter added directly with a non-positive value on a log axis) into an error, so that a
// notebook never loses its kernel to a figure.
func recoverDrawing(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("plotting: drawing failed: %v", r)
	}
}

// Figure is a multi-panel figure: plots laid out in rows × cols panels of equal data areas, titled
// "(a) ", "(b) ", ... in reading order so that a caption can refer to each panel.
type Figure struct {
	rows, cols     int
	panelW, panelH vg.Length
	panels         [][]*plot.Plot
	err            error // the first misuse (bad size, panel out of range), reported by Save and PNG
	style          *style
	legend         LegendPlacement
}

// Spacing between and around panels.
const (
	panelGapX   = vg.Length(10)
	panelGapY   = vg.Length(8)
	figureInset = vg.Length(3)
)

// NewFigure returns an empty figure of rows × cols panels, each panelW × panelH (the whole figure
// is cols·panelW × rows·panelH). Invalid sizes are reported by Save and PNG.
func NewFigure(rows, cols int, panelW, panelH vg.Length) *Figure {
	f := &Figure{rows: rows, cols: cols, panelW: panelW, panelH: panelH, style: &screenStyle}
	switch {
	case rows < 1 || cols < 1:
		f.err = fmt.Errorf("plotting: figure with %d × %d panels; need at least 1 × 1", rows, cols)
		return f
	case rows > 26*26 || cols > 26*26 || rows*cols > 26*26: // each first, so that the product cannot overflow
		f.err = fmt.Errorf("plotting: figure with %d × %d panels is too many to label", rows, cols)
		return f
	}
	f.err = checkSize(vg.Length(cols)*panelW, vg.Length(rows)*panelH)
	f.panels = make([][]*plot.Plot, rows)
	for r := range f.panels {
		f.panels[r] = make([]*plot.Plot, cols)
	}
	return f
}

// Set puts p in panel (row, col), counted from 0 at the top left; a nil p empties the panel.
// An out-of-range panel is reported by Save and PNG.
func (f *Figure) Set(row, col int, p *plot.Plot) {
	if f == nil || f.err != nil {
		return // a nil figure has nowhere to record the misuse: Save and PNG report it as nil
	}
	if row < 0 || row >= f.rows || col < 0 || col >= f.cols {
		f.err = fmt.Errorf("plotting: panel (%d, %d) is outside the %d × %d figure", row, col, f.rows, f.cols)
		return
	}
	f.panels[row][col] = p
}

// Save writes the figure as base+".png" and base+".svg", like [SavePlot]; a print figure
// ([NewPrintFigure]) also writes base+".pdf", with its fonts embedded, and its PNG at [PrintDPI].
func (f *Figure) Save(base string) error {
	if err := f.check(); err != nil {
		return err
	}
	return save(base, f, f.width(), f.height(), f.dpi(), f.style.print)
}

// PNG returns the PNG encoding of the figure, for notebooks that display figures inline.
func (f *Figure) PNG() ([]byte, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	return encodePNG(f, f.width(), f.height(), f.dpi())
}

// LivePNG is [Figure.PNG] encoded at zlib's fastest level, for figures redrawn while a reader
// moves a slider (lab/notebook.Live): on the smooth colours of heat maps the default compression
// took over half of a redraw, for a file only about a tenth smaller.
func (f *Figure) LivePNG() ([]byte, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	return encodePNGLevel(f, f.width(), f.height(), f.dpi(), png.BestSpeed)
}

// SVG returns the SVG encoding of the figure, as Save writes it; tests check fonts and legend
// colours on it (lab/plotting/plottest).
func (f *Figure) SVG() ([]byte, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	return encodeSVG(f, f.width(), f.height())
}

// Size returns the width and height of the figure as saved (0 × 0 for a nil or zero Figure, which
// Save and PNG refuse).
func (f *Figure) Size() (w, h vg.Length) {
	if f.check() != nil {
		return 0, 0
	}
	return f.width(), f.height()
}

func (f *Figure) dpi() int {
	if f.style.print {
		return PrintDPI
	}
	return DPI
}

func (f *Figure) check() error {
	switch {
	case f == nil:
		return errors.New("plotting: nil figure")
	case f.style == nil:
		return errors.New("plotting: the zero Figure (make it with NewFigure or NewPrintFigure)")
	}
	return f.err
}

func (f *Figure) width() vg.Length {
	w := vg.Length(f.cols) * f.panelW
	if f.legend == LegendRight && !f.style.print { // a print figure keeps its width
		w += f.sharedLegend().width
	}
	return w
}

func (f *Figure) height() vg.Length {
	h := vg.Length(f.rows) * f.panelH
	if f.legend == LegendBelow {
		h += f.sharedLegend().height
	}
	return h
}

// Draw draws the panels onto c, aligned so that their data areas have equal sizes, each titled
// with its panel letter. The titles are drawn by the figure, centred over the data areas and
// aligned across each row, so they are blanked on the plots for the duration of the drawing.
// An invalid figure draws nothing.
func (f *Figure) Draw(c draw.Canvas) {
	if f.check() != nil {
		return
	}
	saved := map[*plot.Plot]string{}
	defer func() {
		for p, title := range saved {
			p.Title.Text = title
		}
	}()
	titles := make([][]string, f.rows)
	var band vg.Length // room above each row for its titles
	k := 0
	for r, row := range f.panels {
		titles[r] = make([]string, f.cols)
		for col, p := range row {
			if p == nil {
				continue
			}
			if _, ok := saved[p]; !ok {
				saved[p] = p.Title.Text
			}
			letter := panelLetter(k)
			if f.style.print && f.rows*f.cols == 1 {
				letter = "" // a figure of one panel needs no letter
			}
			titles[r][col] = strings.TrimSpace(letter + " " + saved[p])
			band = max(band, p.Title.TextStyle.Height(titles[r][col])+p.Title.Padding)
			k++
		}
	}
	for p := range saved {
		p.Title.Text = ""
	}
	fillWhite(c)
	st := f.style
	if f.legend != LegendInside {
		legend := f.sharedLegend()
		for p := range saved {
			own := p.Legend
			p.Legend = plot.NewLegend()
			defer func() { p.Legend = own }()
		}
		var area vg.Rectangle
		switch {
		case legend.slots > 0: // in the empty slots that end the last row
			area = vg.Rectangle{Min: vg.Point{X: c.Max.X - vg.Length(legend.slots)*f.panelW, Y: c.Min.Y}, Max: vg.Point{X: c.Max.X, Y: c.Min.Y + f.panelH}}
		case f.legend == LegendBelow:
			area = vg.Rectangle{Min: c.Min, Max: vg.Point{X: c.Max.X, Y: c.Min.Y + legend.height}}
			c.Min.Y += legend.height
		default:
			area = vg.Rectangle{Min: vg.Point{X: c.Max.X - legend.width, Y: c.Min.Y}, Max: c.Max}
			c.Max.X -= legend.width
		}
		legend.draw(c.Canvas, area)
	}
	tiles := draw.Tiles{
		Rows: f.rows, Cols: f.cols,
		PadX: st.panelGapX, PadY: st.panelGapY + band,
		PadTop: st.figureInset + band, PadBottom: st.figureInset, PadLeft: st.figureInset, PadRight: st.figureInset,
	}
	unwrapped := titles
	// wrap breaks each title into lines no wider than a tile of tiles, so that it neither runs into
	// the edge nor into its neighbour's, and makes room above the rows for the tallest.
	wrap := func() {
		width := (c.Max.X - c.Min.X - tiles.PadLeft - tiles.PadRight - vg.Length(f.cols-1)*tiles.PadX) / vg.Length(f.cols)
		titles = make([][]string, f.rows)
		band = 0
		for r, row := range f.panels {
			titles[r] = make([]string, f.cols)
			for col, p := range row {
				if p == nil {
					continue
				}
				titles[r][col] = wrapText(p.Title.TextStyle, unwrapped[r][col], width)
				band = max(band, p.Title.TextStyle.Height(titles[r][col])+p.Title.Padding)
			}
		}
		tiles.PadY, tiles.PadTop = st.panelGapY+band, st.figureInset+band
	}
	if st.print {
		wrap()
	}
	for _, row := range f.panels {
		for _, p := range row {
			if p != nil && st.print {
				roundLogRanges(p)
			}
		}
	}
	canvases := f.align(tiles, c)
	// An x-axis label is centred under its data area: under an outer panel narrower than the
	// label it ran off the figure, clipped ("pruned size (% of the forest"). Widen the outer
	// margins until every label fits; each step moves a label by most of the step, so a few do.
	// Narrower tiles may need the titles wrapped again, which changes the rows' heights and so,
	// a little, the panels' layout: then the labels are checked again.
	for range 8 {
		left, right := f.labelOverhang(canvases, c, st.figureInset)
		if left <= 0.5 && right <= 0.5 {
			break
		}
		tiles.PadLeft += max(left, 0)
		tiles.PadRight += max(right, 0)
		if st.print {
			wrap()
		}
		canvases = f.align(tiles, c)
	}
	// Panels of equal aspect get their ranges from their data areas; the new ranges may give new
	// tick labels, so a second pass corrects the small change of the data areas that follows.
	for range 2 {
		changed := false
		for r, row := range f.panels {
			for col, p := range row {
				if p != nil && fitAspect(p, p.DataCanvas(canvases[r][col])) {
					changed = true
				}
			}
		}
		if !changed {
			break
		}
		canvases = f.align(tiles, c)
	}
	for r, row := range f.panels {
		for col, p := range row {
			if p == nil {
				continue
			}
			p.Draw(canvases[r][col])
			top := tiles.At(c, col, r).Max.Y + band
			sty := p.Title.TextStyle
			data := p.DataCanvas(canvases[r][col])
			x := data.Center().X
			if st.print { // centred over the data area, but inside the figure
				half := sty.Width(titles[r][col]) / 2
				x = min(max(x, c.Min.X+st.figureInset+half), c.Max.X-st.figureInset-half)
			}
			c.FillText(sty, vg.Point{X: x, Y: top + sty.FontExtents().Descent}, titles[r][col])
		}
	}
}

// align sizes the tick labels of every panel to its data area in tiles and returns the panels'
// canvases, their data areas aligned along rows and columns (plot.Align).
func (f *Figure) align(tiles draw.Tiles, c draw.Canvas) [][]draw.Canvas {
	for r, row := range f.panels {
		for col, p := range row {
			if p != nil {
				setTickRoom(p, p.DataCanvas(tiles.At(c, col, r)))
			}
		}
	}
	return plot.Align(f.panels, tiles, c)
}

// labelOverhang returns how far the x-axis labels, centred under their data areas, reach past the
// left and the right edge of c less inset (negative: the room left).
func (f *Figure) labelOverhang(canvases [][]draw.Canvas, c draw.Canvas, inset vg.Length) (left, right vg.Length) {
	left, right = -c.Size().X, -c.Size().X
	for r, row := range f.panels {
		for col, p := range row {
			if p == nil {
				continue
			}
			label := shownLabel(p.X)
			if label == "" || p.X.Label.Position != draw.PosCenter {
				continue
			}
			half := p.X.Label.TextStyle.Width(label) / 2
			data := p.DataCanvas(canvases[r][col])
			x := data.Center().X
			left = max(left, c.Min.X+inset-(x-half))
			right = max(right, x+half-(c.Max.X-inset))
		}
	}
	return left, right
}

// panelLetter returns "(a)" for k = 0, ..., "(z)", then "(aa)", "(ab)", ...
func panelLetter(k int) string {
	name := ""
	for k++; k > 0; k = (k - 1) / 26 {
		name = string(rune('a'+(k-1)%26)) + name
	}
	return "(" + name + ")"
}
