package plotting

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// labelPlaceholder returns blank text with as many lines as label, which gonum/plot lays out
// exactly like label (plain text height does not depend on the characters).
func labelPlaceholder(label string) string {
	lines := text.Plain{}.Lines(label)
	ph := " "
	for range lines[1:] {
		ph += "\n "
	}
	return ph
}

// isPlaceholder reports whether label is blank but not empty.
func isPlaceholder(label string) bool {
	for _, r := range label {
		if r != ' ' && r != '\n' {
			return false
		}
	}
	return label != ""
}

// shownLabel returns the label drawn on axis a: its own, or the one an axisLabel draws in place
// of its placeholder.
func shownLabel(a plot.Axis) string {
	if t, ok := a.Tick.Marker.(logTicks); ok && isPlaceholder(a.Label.Text) {
		return t.label
	}
	return a.Label.Text
}

// axisLabel draws the label of a log axis in place of gonum/plot. gonum/plot positions the label's
// glyph box at the arithmetic middle of the axis range, which on a log axis lies near its top (or
// right) end, so a long label makes the plot shrink its data area far too much. LogX and LogY
// therefore give the axis a blank placeholder of the same size, and this plotter draws the label
// where gonum/plot would have: centred on the data area, at the outer edge of the axis.
type axisLabel struct {
	label, placeholder string
	vertical           bool
}

// Plot implements plot.Plotter. If the axis label was changed after LogX or LogY, gonum/plot draws
// the new label and this does nothing.
func (l *axisLabel) Plot(data draw.Canvas, p *plot.Plot) {
	a := &p.X
	if l.vertical {
		a = &p.Y
	}
	if a.Label.Text != l.placeholder {
		return
	}
	area := innerArea(data, p, p.GlyphBoxes(p))
	sty := a.Label.TextStyle
	descent := sty.FontExtents().Descent
	if l.vertical {
		x := area.Min.X - yAxisWidth(p.Y) + sty.Height(l.placeholder) - descent
		sty.Rotation += math.Pi / 2
		data.FillText(sty, vg.Point{X: x, Y: data.Center().Y}, l.label)
		return
	}
	y := area.Min.Y - xAxisHeight(p.X)
	data.FillText(sty, vg.Point{X: data.Center().X, Y: y + descent}, l.label)
}

// yAxisWidth is the width gonum/plot gives a labelled vertical axis.
func yAxisWidth(a plot.Axis) vg.Length {
	w := a.Label.TextStyle.FontExtents().Descent + a.Label.TextStyle.Height(a.Label.Text) + a.Label.Padding
	if marks := a.Tick.Marker.Ticks(a.Min, a.Max); len(marks) > 0 {
		var labelW vg.Length
		for _, t := range marks {
			if !t.IsMinor() {
				labelW = max(labelW, a.Tick.Label.Rectangle(t.Label).Size().X)
			}
		}
		if labelW > 0 {
			w += labelW + a.Label.TextStyle.Width(" ")
		}
		if a.Tick.Width > 0 && a.Tick.Length > 0 {
			w += a.Tick.Length
		}
	}
	return w + a.Width/2 + a.Padding
}

// xAxisHeight is the height gonum/plot gives a labelled horizontal axis.
func xAxisHeight(a plot.Axis) vg.Length {
	h := a.Label.TextStyle.Height(a.Label.Text) + a.Label.Padding
	if marks := a.Tick.Marker.Ticks(a.Min, a.Max); len(marks) > 0 {
		if a.Tick.Width > 0 && a.Tick.Length > 0 {
			h += a.Tick.Length
		}
		var labelH vg.Length
		for _, t := range marks {
			if !t.IsMinor() {
				labelH = max(labelH, a.Tick.Label.Rectangle(t.Label).Size().Y)
			}
		}
		h += labelH
	}
	return h + a.Width/2 + a.Padding
}
