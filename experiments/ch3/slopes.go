package ch3

import (
	"fmt"
	"slices"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fastkernels/kernellab/experiments/styles"
)

// curveSlopes returns, by method, the least-squares slope of log mean against log x of each curve
// (kit.LogLogSlope: the exponent of the power law that fits the drawn means best), for the curves
// that have one (two distinct x or more).
func curveSlopes(cs []meanCurve) map[string]float64 {
	out := map[string]float64{}
	for _, c := range cs {
		if k, err := kit.LogLogSlope(c.x, c.mid); err == nil {
			out[c.method] = k
		}
	}
	return out
}

// slopeFormat prints a slope as the end labels and the captions give it.
func slopeFormat(k float64) string { return fmt.Sprintf("%.2f", k) }

// endLabel is a text written just right of a curve's last point, in the curve's colour.
type endLabel struct {
	x, y float64
	text string
	sty  text.Style
}

// endLabels is a plotter that writes each curve's label right of its last point, moved up or down
// just enough that no two labels overlap. Its glyph boxes reserve the labels' room, so the plot
// narrows its data area to keep them inside the panel rather than running them off its edge.
type endLabels []endLabel

// labelGap is the space between a curve's last point and its label.
const labelGap = vg.Length(3)

// addSlopeLabels writes, right of each curve's last point, the log–log slope of its means
// (curveSlopes) in its method's registered colour, in the tick labels' font; curves without a slope
// get no label.
func addSlopeLabels(p *plot.Plot, cs []meanCurve) error {
	slopes := curveSlopes(cs)
	var ls endLabels
	for _, c := range cs {
		k, ok := slopes[c.method]
		if !ok {
			continue
		}
		s, err := styles.Of(c.method)
		if err != nil {
			return err
		}
		sty := p.X.Tick.Label
		sty.Color = s.Color
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
		x, y := c.last()
		ls = append(ls, endLabel{x: x, y: y, text: slopeFormat(k), sty: sty})
	}
	if len(ls) > 0 {
		p.Add(ls)
	}
	return nil
}

// Plot implements plot.Plotter.
func (ls endLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	ys := make([]vg.Length, len(ls))
	heights := make([]vg.Length, len(ls))
	for i, l := range ls {
		ys[i], heights[i] = ty(l.y), l.sty.Height(l.text)
	}
	for i, y := range spreadApart(ys, heights, c.Min.Y, c.Max.Y) {
		c.FillText(ls[i].sty, vg.Point{X: tx(ls[i].x) + labelGap, Y: y}, ls[i].text)
	}
}

// GlyphBoxes implements plot.GlyphBoxer: the room each label takes right of its point.
func (ls endLabels) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	boxes := make([]plot.GlyphBox, len(ls))
	for i, l := range ls {
		h := l.sty.Height(l.text)
		boxes[i] = plot.GlyphBox{X: p.X.Norm(l.x), Y: p.Y.Norm(l.y), Rectangle: vg.Rectangle{
			Min: vg.Point{X: labelGap, Y: -h / 2},
			Max: vg.Point{X: labelGap + l.sty.Width(l.text), Y: h / 2},
		}}
	}
	return boxes
}

// spreadApart returns label centres as close as possible to ys such that labels of the given
// heights do not overlap and stay within [lo, hi] where there is room: labels are stacked upward
// from the lowest, then pushed down from hi if the stack ran over it, in their order along y.
func spreadApart(ys, heights []vg.Length, lo, hi vg.Length) []vg.Length {
	order := make([]int, len(ys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case ys[a] < ys[b]:
			return -1
		case ys[a] > ys[b]:
			return 1
		}
		return 0
	})
	out := slices.Clone(ys)
	for k, i := range order {
		if k == 0 {
			out[i] = max(out[i], lo+heights[i]/2)
			continue
		}
		j := order[k-1]
		out[i] = max(out[i], out[j]+(heights[i]+heights[j])/2)
	}
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		if k == len(order)-1 {
			out[i] = min(out[i], hi-heights[i]/2)
			continue
		}
		j := order[k+1]
		out[i] = min(out[i], out[j]-(heights[i]+heights[j])/2)
	}
	return out
}
