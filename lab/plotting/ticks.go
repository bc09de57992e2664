package plotting

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// niceTicks labels a linear axis at a step of 1, 2 or 5 times a power of ten, printed with just
// the decimals the step needs, with unlabelled minor ticks between labels. When the length of the
// axis is known (room, set by setTickRoom before drawing) it takes the finest step, up to
// maxNiceTicks labels, whose labels fit without colliding; otherwise it aims at niceTickCount
// labels. gonum/plot's default aims at three labels, too few to read values off a figure.
type niceTicks struct {
	size     vg.Length // font size of the labels; 0 for tickSize
	room     vg.Length // length of the axis; 0 if unknown
	vertical bool
	minus    bool // print negative labels with a true minus (the print style), not a hyphen
}

const (
	niceTickCount = 5
	maxNiceTicks  = 7
)

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	count := niceTickCount
	if t.room > 0 {
		count = maxNiceTicks
	}
	exp, mantissa := niceStep((hi - lo) / float64(count-1))
	ticks := stepTicks(lo, hi, exp, mantissa, t.minus)
	for t.room > 0 && !t.fits(ticks) {
		exp, mantissa = coarserStep(exp, mantissa)
		coarser := stepTicks(lo, hi, exp, mantissa, t.minus)
		if len(majors(coarser)) < 2 {
			break
		}
		ticks = coarser
	}
	return ticks
}

// fits reports whether the labels of ticks fit along the axis with room to spare: a label takes
// about half the font size per character horizontally, or twice the font size vertically.
func (t niceTicks) fits(ticks []plot.Tick) bool {
	labels := majors(ticks)
	size := t.size
	if size == 0 {
		size = tickSize
	}
	var need vg.Length
	for _, l := range labels {
		if t.vertical {
			need += 2.2 * size
		} else {
			need += vg.Length(0.5*float64(size)*float64(utf8.RuneCountInString(l))) + 1.5*size
		}
	}
	return need <= t.room
}

// majors returns the labels of the labelled ticks.
func majors(ticks []plot.Tick) []string {
	var labels []string
	for _, t := range ticks {
		if !t.IsMinor() {
			labels = append(labels, t.Label)
		}
	}
	return labels
}

// stepTicks returns labelled ticks at multiples of mantissa·10^exp within [lo, hi], with minor
// ticks at a fifth (a quarter for mantissa 2) of the step.
func stepTicks(lo, hi float64, exp int, mantissa float64, minus bool) []plot.Tick {
	step := mantissa * math.Pow10(exp)
	minor := step / 5
	if mantissa == 2 {
		minor = step / 4
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo / minor); k*minor <= hi; k++ {
		v := k * minor
		t := plot.Tick{Value: v}
		if major := v / step; math.Abs(major-math.Round(major)) < 1e-9 {
			t.Value = math.Round(major) * step
			t.Label = formatTick(t.Value, exp, minus)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// setTickRoom tells the nice tickers of p the size of the data area they will label.
func setTickRoom(p *plot.Plot, data draw.Canvas) {
	if t, ok := p.X.Tick.Marker.(niceTicks); ok {
		t.room = data.Max.X - data.Min.X
		p.X.Tick.Marker = t
	}
	if t, ok := p.Y.Tick.Marker.(niceTicks); ok {
		t.room = data.Max.Y - data.Min.Y
		p.Y.Tick.Marker = t
	}
	// Only the print style's log ticks use their room, so the screen style draws as it always did.
	if t, ok := p.X.Tick.Marker.(logTicks); ok && t.ends {
		t.room = data.Max.X - data.Min.X
		p.X.Tick.Marker = t
	}
	if t, ok := p.Y.Tick.Marker.(logTicks); ok && t.ends {
		t.room = data.Max.Y - data.Min.Y
		p.Y.Tick.Marker = t
	}
}

// niceStep rounds raw to a step mantissa·10^exp with mantissa 1, 2 or 5.
func niceStep(raw float64) (exp int, mantissa float64) {
	exp = int(math.Floor(math.Log10(raw)))
	switch f := raw / math.Pow10(exp); {
	case f < 1.5:
		return exp, 1
	case f < 3:
		return exp, 2
	case f < 7:
		return exp, 5
	}
	return exp + 1, 1
}

// coarserStep returns the next step after mantissa·10^exp in the sequence 1, 2, 5, 10, 20, ...
func coarserStep(exp int, mantissa float64) (int, float64) {
	switch mantissa {
	case 1:
		return exp, 2
	case 2:
		return exp, 5
	}
	return exp + 1, 1
}

// formatTick prints v, a multiple of step = m·10^exp, with the decimals the step needs (the same
// for all labels of an axis), or in exponent notation for very large or very small values; with
// minus, in the true minus sign of the log axes' labels rather than a hyphen-minus.
func formatTick(v float64, exp int, minus bool) string {
	v += 0 // no "-0"
	var s string
	switch {
	case math.Abs(v) < 1e6 && exp >= -4:
		s = strconv.FormatFloat(v, 'f', max(0, -exp), 64)
	case v == 0:
		return "0"
	default: // the exponent notation
		s = strconv.FormatFloat(v, 'g', max(1, int(math.Floor(math.Log10(math.Abs(v))))-exp+1), 64)
	}
	if minus {
		return strings.ReplaceAll(s, "-", "−")
	}
	return s
}
