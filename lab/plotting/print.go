package plotting

import (
	"runtime"
	"sync"
	"weak"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Print widths: a figure laid out at one of these widths is printed at 100% in a two-column
// paper (ColumnWidth) or across the text block of a one-column paper or thesis ([PageWidth]), so
// its fonts are the sizes they say.
const (
	ColumnWidth = 8.5 * vg.Centimeter
	PageWidth   = 17 * vg.Centimeter
)

// PrintDPI is the resolution of the PNG of a print figure: 300 dots per inch, what publishers ask
// for line art with text.
const PrintDPI = 300

// MinPrintFont is the smallest font size, in points, that a print figure uses.
const MinPrintFont = 7

// style is a set of sizes for text, lines, markers and gaps. screenStyle is the look of New,
// unchanged since the first figures; printStyle is the look of NewPrint, sized in points for a
// figure printed at its laid-out size.
type style struct {
	print                                    bool
	titleSize, labelSize, tickSize           vg.Length
	legendSize, exponentMin                  vg.Length
	titlePadding, labelPadding               vg.Length
	tickLength, axisWidth, axisPadding       vg.Length
	thumbnailWidth, legendPadding, gridWidth vg.Length
	seriesWidth, referenceWidth, glyphRadius vg.Length
	dashScale                                float64 // scales the dash patterns
	panelGapX, panelGapY, figureInset        vg.Length
}

var screenStyle = style{
	titleSize: titleSize, labelSize: labelSize, tickSize: tickSize, legendSize: legendSize,
	titlePadding: vg.Points(5), labelPadding: vg.Points(3),
	tickLength: vg.Points(4), axisWidth: vg.Points(0.6), axisPadding: vg.Points(3),
	thumbnailWidth: vg.Points(20), legendPadding: vg.Points(1.5), gridWidth: gridStyle.Width,
	seriesWidth: seriesWidth, referenceWidth: referenceWidth, glyphRadius: glyphRadius,
	dashScale: 1,
	panelGapX: panelGapX, panelGapY: panelGapY, figureInset: figureInset,
}

var printStyle = style{
	print:     true,
	titleSize: 8, labelSize: 8, tickSize: MinPrintFont, legendSize: MinPrintFont, exponentMin: MinPrintFont,
	titlePadding: vg.Points(3), labelPadding: vg.Points(2),
	tickLength: vg.Points(2.5), axisWidth: vg.Points(0.5), axisPadding: vg.Points(2),
	thumbnailWidth: vg.Points(16), legendPadding: vg.Points(2), gridWidth: vg.Points(0.4),
	seriesWidth: vg.Points(1), referenceWidth: vg.Points(0.8), glyphRadius: vg.Points(1.9),
	dashScale: 0.75,
	panelGapX: vg.Points(8), panelGapY: vg.Points(6), figureInset: vg.Points(2),
}

// plotState is what this package remembers about a plot made by New or NewPrint: its style, and
// its legend entries (for the shared legend of a print figure).
type plotState struct {
	style       *style
	legend      []legendItem
	equalAspect bool // set by EqualAspect
}

// legendItem is one legend entry: its text and the series that draws its thumbnail.
type legendItem struct {
	label string
	thumb plot.Thumbnailer
}

// states maps a weak pointer to a plot to its state; the entry is removed when the plot is
// garbage collected, so a notebook that makes many plots does not leak them.
var states sync.Map // weak.Pointer[plot.Plot] -> *plotState

func attach(p *plot.Plot, st *style) {
	key := weak.Make(p)
	states.Store(key, &plotState{style: st})
	runtime.AddCleanup(p, func(k weak.Pointer[plot.Plot]) { states.Delete(k) }, key)
}

// stateOf returns the state of p, or nil for a plot not made by New or NewPrint.
func stateOf(p *plot.Plot) *plotState {
	if p == nil {
		return nil
	}
	s, ok := states.Load(weak.Make(p))
	if !ok {
		return nil
	}
	return s.(*plotState)
}

// styleOf returns the style of p: the print style for a plot made by NewPrint, else the screen
// style.
func styleOf(p *plot.Plot) *style {
	if s := stateOf(p); s != nil {
		return s.style
	}
	return &screenStyle
}

// scaled returns the dash pattern d scaled for st.
func (st *style) scaled(d []vg.Length) []vg.Length {
	if d == nil || st.dashScale == 1 {
		return d
	}
	out := make([]vg.Length, len(d))
	for i, l := range d {
		out[i] = l * vg.Length(st.dashScale)
	}
	return out
}
