package plotting

import (
	"errors"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
)

// EqualAspect makes one unit of x as long on the page as one unit of y on p, so that data whose
// geometry matters (circles, images) are not stretched: when p is drawn, the axis that shows more
// units per point of length is kept and the other is widened about its centre to match. Set the
// axis ranges, if at all, before drawing; both axes must be linear. p must come from New or
// NewPrint.
func EqualAspect(p *plot.Plot) error {
	s := stateOf(p)
	if s == nil {
		return errors.New("plotting: EqualAspect on a plot not made by New or NewPrint")
	}
	if isLog(p.X) || isLog(p.Y) {
		return errors.New("plotting: EqualAspect on a plot with a log axis")
	}
	s.equalAspect = true
	return nil
}

// fitAspect widens an axis of p, if EqualAspect asked for it, so that its data area data shows
// as many units per point on both axes. It reports whether it changed a range.
func fitAspect(p *plot.Plot, data draw.Canvas) bool {
	if s := stateOf(p); s == nil || !s.equalAspect || isLog(p.X) || isLog(p.Y) {
		return false
	}
	w, h := float64(data.Max.X-data.Min.X), float64(data.Max.Y-data.Min.Y)
	dx, dy := p.X.Max-p.X.Min, p.Y.Max-p.Y.Min
	if !(w > 0 && h > 0 && dx > 0 && dy > 0) {
		return false
	}
	widen := func(a *plot.Axis, span float64) bool {
		if span <= (a.Max-a.Min)*(1+1e-9) {
			return false
		}
		mid := (a.Min + a.Max) / 2
		a.Min, a.Max = mid-span/2, mid+span/2
		return true
	}
	if dx/w > dy/h {
		return widen(&p.Y, dx/w*h)
	}
	return widen(&p.X, dy/h*w)
}
