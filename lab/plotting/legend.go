package plotting

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LegendPlacement says where a figure draws the legends of its panels.
type LegendPlacement int

const (
	// LegendInside leaves each panel its own legend, in the corner or at the edge of its data area
	// that covers the fewest data points (the placement of New). The default of NewFigure.
	LegendInside LegendPlacement = iota
	// LegendBelow draws one legend for the whole figure below the panels, its entries in as many
	// columns as the width holds; the figure grows by the legend's height. Where the last row ends
	// in empty slots that hold the whole legend, it is drawn there instead and the figure does not
	// grow. The default of NewPrintFigure: no legend ever covers data, and panels that show the
	// same methods list them once.
	LegendBelow
	// LegendRight draws one legend for the whole figure right of the panels, in one column (more
	// if the panels are not tall enough); a print figure keeps its width and narrows its panels, a
	// NewFigure grows wider.
	LegendRight
)

// NewPrintFigure returns an empty figure of rows × cols panels laid out at its final printed
// width ([ColumnWidth] or [PageWidth], or any other), each panel panelH high, for plots made by
// [NewPrint]. Save writes it as PNG at [PrintDPI], SVG and PDF, so that it drops into a LaTeX paper at
// 100% and its text has the sizes NewPrint gives it. The legend is shared below the panels
// ([LegendBelow]) unless SetLegend says otherwise; entries with the same text in several panels
// appear once. Invalid sizes are reported by Save and PNG.
func NewPrintFigure(rows, cols int, width, panelH vg.Length) *Figure {
	panelW := width
	if cols > 0 {
		panelW = width / vg.Length(cols)
	}
	f := NewFigure(rows, cols, panelW, panelH)
	f.style, f.legend = &printStyle, LegendBelow
	return f
}

// SetLegend chooses where the figure draws the legends of its panels.
func (f *Figure) SetLegend(l LegendPlacement) {
	if f == nil || f.err != nil {
		return
	}
	if l < LegendInside || l > LegendRight {
		f.err = fmt.Errorf("plotting: unknown legend placement %d", l)
		return
	}
	f.legend = l
}

// sharedLegend is the one legend of a figure: its entries, laid out in columns.
type sharedLegend struct {
	items         []legendItem
	text          text.Style
	thumb, pad    vg.Length
	colW, entryH  vg.Length
	cols, rows    int
	width, height vg.Length // room it takes beside or below the panels
	// slots is the number of empty slots at the end of the last row that hold the legend (0:
	// below the panels).
	slots int
}

// Shared legend geometry: the gap between columns and between the panels and the legend.
const (
	legendColumnGap = vg.Length(10)
	legendGap       = vg.Length(4)
)

// sharedLegend collects the legend entries of the panels, in reading order, each text once, and
// lays them out for the figure's width (below) or height (right).
func (f *Figure) sharedLegend() sharedLegend {
	st := f.style
	l := sharedLegend{thumb: st.thumbnailWidth, pad: st.legendPadding}
	l.text = plot.NewLegend().TextStyle
	l.text.Font = font.From(textFont, st.legendSize)
	seen := map[string]bool{}
	for _, row := range f.panels {
		for _, p := range row {
			s := stateOf(p)
			if s == nil {
				continue
			}
			for _, it := range s.legend {
				if !seen[it.label] {
					seen[it.label] = true
					l.items = append(l.items, it)
				}
			}
		}
	}
	if len(l.items) == 0 {
		return l
	}
	em := l.text.Width(" ")
	for _, it := range l.items {
		l.colW = max(l.colW, l.thumb+em+l.text.Width(it.label))
		l.entryH = max(l.entryH, l.text.Rectangle(it.label).Max.Y)
	}
	n := len(l.items)
	if f.legend == LegendRight {
		avail := vg.Length(f.rows)*f.panelH - 2*st.figureInset
		l.rows = max(1, min(n, int((avail+l.pad)/(l.entryH+l.pad))))
		l.cols = (n + l.rows - 1) / l.rows
		l.rows = (n + l.cols - 1) / l.cols
		l.width = vg.Length(l.cols)*(l.colW+legendColumnGap) + st.figureInset
		return l
	}
	if k := f.emptySlots(); k > 0 && f.rows > 1 {
		avail := vg.Length(k)*f.panelW - 2*st.figureInset
		l.layOut(avail)
		if vg.Length(l.rows)*(l.entryH+l.pad)-l.pad <= f.panelH-2*st.figureInset && vg.Length(l.cols)*(l.colW+legendColumnGap)-legendColumnGap <= avail {
			l.slots = k
			return l
		}
	}
	l.layOut(vg.Length(f.cols)*f.panelW - 2*st.figureInset)
	l.height = vg.Length(l.rows)*(l.entryH+l.pad) - l.pad + legendGap + st.figureInset
	return l
}

// layOut puts the legend's entries in as many columns as the width avail holds, balanced: as few
// columns as the rows need.
func (l *sharedLegend) layOut(avail vg.Length) {
	n := len(l.items)
	l.cols = max(1, min(n, int((avail+legendColumnGap)/(l.colW+legendColumnGap))))
	l.rows = (n + l.cols - 1) / l.cols
	l.cols = (n + l.rows - 1) / l.rows
}

// emptySlots is the number of empty panel slots at the end of the figure's last row.
func (f *Figure) emptySlots() int {
	if f.rows == 0 {
		return 0
	}
	last := f.panels[f.rows-1]
	k := 0
	for k < len(last) && last[len(last)-1-k] == nil {
		k++
	}
	return k
}

// draw draws the legend centred in area, entries in reading order row by row, each column a
// gonum/plot legend.
func (l sharedLegend) draw(c vg.Canvas, area vg.Rectangle) {
	if len(l.items) == 0 {
		return
	}
	w := vg.Length(l.cols)*l.colW + vg.Length(l.cols-1)*legendColumnGap
	h := vg.Length(l.rows)*(l.entryH+l.pad) - l.pad
	x0 := area.Min.X + (area.Max.X-area.Min.X-w)/2
	top := area.Max.Y - legendGap
	if area.Max.Y-area.Min.Y > h+2*legendGap { // beside the panels: centred vertically
		top = area.Max.Y - (area.Max.Y-area.Min.Y-h)/2
	}
	for col := range l.cols {
		leg := plot.NewLegend()
		leg.TextStyle = l.text
		leg.ThumbnailWidth, leg.Padding = l.thumb, l.pad
		leg.Top, leg.Left = true, true
		for i := col; i < len(l.items); i += l.cols { // row by row, as a line of text is read
			leg.Add(l.items[i].label, l.items[i].thumb)
		}
		x := x0 + vg.Length(col)*(l.colW+legendColumnGap)
		leg.Draw(draw.Canvas{Canvas: c, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: top - h}, Max: vg.Point{X: x + l.colW, Y: top},
		}})
	}
}

// wrapText breaks txt at spaces into lines no wider than width where it can (a word wider than
// width keeps its own line).
func wrapText(sty text.Style, txt string, width vg.Length) string {
	if sty.Width(txt) <= width || math.IsNaN(float64(width)) {
		return txt
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(txt) {
		switch {
		case line == "":
			line = word
		case sty.Width(line+" "+word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return strings.Join(append(lines, line), "\n")
}
