package plotting

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// LogX makes the x axis of p logarithmic, with ticks at powers of ten (and at 2 and 5 times them
// when the axis spans less than a decade or two). It returns an error, and leaves p unchanged, if
// data already on p has a non-positive x; series added later are checked as they are added. Set
// the axis label before calling it (New does): this package then draws the label itself, because
// gonum/plot lays out a log axis's label as if the axis were linear and, for a long label, shrinks
// the data area far too much.
func LogX(p *plot.Plot) error {
	if p == nil {
		return errors.New("plotting: LogX on a nil plot")
	}
	if err := makeLog(&p.X, &p.Y, styleOf(p)); err != nil {
		return fmt.Errorf("plotting: log x axis: %w", err)
	}
	moveLabel(p, &p.X, false)
	return nil
}

// LogY makes the y axis of p logarithmic, like [LogX]: errors, loss curves and running times that
// span decades become readable, and power laws become straight lines.
func LogY(p *plot.Plot) error {
	if p == nil {
		return errors.New("plotting: LogY on a nil plot")
	}
	if err := makeLog(&p.Y, &p.Y, styleOf(p)); err != nil {
		return fmt.Errorf("plotting: log y axis: %w", err)
	}
	moveLabel(p, &p.Y, true)
	return nil
}

func makeLog(a, vAxis *plot.Axis, st *style) error {
	// Min is +Inf while no data has been added; otherwise it is the smallest value on the axis.
	if !math.IsInf(a.Min, 1) && !(a.Min > 0) {
		return fmt.Errorf("the data reach %g; a logarithmic axis needs positive values", a.Min)
	}
	a.Scale = logScale{}
	a.Tick.Marker = logTicks{ends: st.print, size: st.tickSize, vertical: a == vAxis}
	a.Tick.Label.Handler = powerText{Plain: text.Plain{Fonts: font.DefaultCache}, minExponent: st.exponentMin}
	return nil
}

// roundLogRanges widens each log axis of p whose ticks label their end points (the print style)
// to the nearest 1, 2 or 5 times a power of ten around its data, so that both ends are labelled.
// Drawing calls it before the layout; it is idempotent.
func roundLogRanges(p *plot.Plot) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		t, ok := a.Tick.Marker.(logTicks)
		if !ok || !t.ends || !(a.Min > 0) || !(a.Max >= a.Min) || math.IsInf(a.Max, 0) {
			continue
		}
		a.Min, a.Max = roundLog(a.Min, false), roundLog(a.Max, true)
		if a.Max == a.Min {
			a.Max = roundLog(a.Max*1.0001, true)
		}
	}
}

// roundLog rounds v > 0 down (or up) to the nearest m·10^k with m in {1, 2, 5}.
func roundLog(v float64, up bool) float64 {
	k := int(math.Floor(math.Log10(v)))
	best := tickValue(1, k)
	if up {
		best = tickValue(1, k+1)
	}
	for kk := k - 1; kk <= k+1; kk++ {
		for _, m := range []int{1, 2, 5} {
			g := tickValue(m, kk)
			if up && g >= v*(1-1e-12) && g < best {
				best = g
			}
			if !up && g <= v*(1+1e-12) && g > best {
				best = g
			}
		}
	}
	return best
}

// moveLabel hands the label of log axis a to an axisLabel plotter (see there why).
func moveLabel(p *plot.Plot, a *plot.Axis, vertical bool) {
	if a.Label.Text == "" || isPlaceholder(a.Label.Text) {
		return
	}
	l := &axisLabel{label: a.Label.Text, placeholder: labelPlaceholder(a.Label.Text), vertical: vertical}
	if t, ok := a.Tick.Marker.(logTicks); ok {
		t.label = a.Label.Text
		a.Tick.Marker = t
	}
	a.Label.Text = l.placeholder
	p.Add(l)
}

// isLog reports whether a has a logarithmic scale.
func isLog(a plot.Axis) bool {
	switch a.Scale.(type) {
	case logScale, plot.LogScale:
		return true
	}
	return false
}

// logScale is plot.LogScale that never panics: an axis without positive range (a plot with no
// data yet) falls back to a linear scale, and a non-positive value, which only a plotter added
// around this package's checks can produce, lands below the axis where it is clipped.
type logScale struct{}

// Normalize implements plot.Normalizer.
func (logScale) Normalize(min, max, x float64) float64 {
	switch {
	case !(min > 0 && max > 0):
		return plot.LinearScale{}.Normalize(min, max, x)
	case !(x > 0):
		return -1
	}
	return plot.LogScale{}.Normalize(min, max, x)
}

// logTicks places major ticks at powers of ten and minor ticks at 2..9 times them. Wide ranges
// label only every few decades so that labels never collide; ranges that hold fewer than three
// powers of ten also label 2× and 5× (and every multiple if that still gives fewer than two
// labels) so that values can be read off a short axis. With ends, the end points of the axis are
// labelled too when they are whole multiples of a power of ten (roundLogRanges makes them so), and
// a label too close to an end label is dropped.
type logTicks struct {
	ends     bool
	room     vg.Length // length of the axis, set by setTickRoom; 0 if unknown
	size     vg.Length // font size of the labels; 0 for tickSize
	vertical bool
	label    string // the axis label drawn by this package in gonum/plot's place (moveLabel)
}

// maxLogLabels is the most decade labels an axis gets.
const maxLogLabels = 7

// endGap is the smallest distance, as a fraction of the axis, between an end label and the next
// label (for logTicks with ends).
const endGap = 0.12

// Ticks implements plot.Ticker.
func (lt logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max > min) || math.IsInf(max, 0) {
		return nil
	}
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	every := (hi - lo + maxLogLabels - 1) / maxLogLabels // label every this many decades
	inRange := func(m, k int) bool {
		v := tickValue(m, k)
		return v >= min*(1-1e-12) && v <= max*(1+1e-12)
	}
	// labelled decides which multiples m of 10^k carry a label.
	base := func(m, k int) bool { return m == 1 && (k-lo)%every == 0 }
	labelled := base
	count := func() int {
		n := 0
		for k := lo; k <= hi; k++ {
			for m := 1; m <= 9; m++ {
				if labelled(m, k) && inRange(m, k) {
					n++
				}
			}
		}
		return n
	}
	if count() < 3 {
		labelled = func(m, k int) bool { return m == 1 || m == 2 || m == 5 }
		if count() < 2 {
			labelled = func(m, k int) bool { return true }
		}
	}
	build := func(labelled func(m, k int) bool) []plot.Tick {
		var labels []int // the decades exponents of labelled ticks, to choose the label format
		for k := lo; k <= hi; k++ {
			for m := 1; m <= 9; m++ {
				if labelled(m, k) && inRange(m, k) {
					labels = append(labels, k)
				}
			}
		}
		plain := len(labels) > 0 && labels[0] >= -2 && labels[len(labels)-1] <= 3
		var ticks []plot.Tick
		for k := lo; k <= hi; k++ {
			for m := 1; m <= 9; m++ {
				if !inRange(m, k) || (every > 1 && m > 1 && !labelled(m, k)) { // no minor ticks when decades are skipped
					continue
				}
				t := plot.Tick{Value: tickValue(m, k)}
				if labelled(m, k) {
					t.Label = logLabel(m, k, plain)
				}
				ticks = append(ticks, t)
			}
		}
		return ticks
	}
	if !lt.ends {
		return build(labelled)
	}
	// The print style labels the end points, and thins the other labels (to decades, then to every
	// second decade, ...) until they fit the length of the axis; at each step an inner label that
	// would touch an end label loses its label first, so that 10², 10³ and 2×10⁴ are kept on an
	// axis where 10⁴ sits too close to 2×10⁴, rather than the ends alone.
	ticks := build(endLabels(labelled, min, max, lo, hi))
	for step := every; lt.room > 0 && !lt.fits(ticks, min, max) && step <= hi-lo; step++ {
		decades := func(m, k int) bool { return m == 1 && (k-lo)%step == 0 }
		ticks = lt.clearNearEnds(build(endLabels(decades, min, max, lo, hi)), min, max)
	}
	return ticks
}

// clearNearEnds removes the labels of inner ticks that leave too little room (by the extents of
// fits) to the label at either end of the axis [min, max]; their tick marks stay, as minor ones.
func (lt logTicks) clearNearEnds(ticks []plot.Tick, min, max float64) []plot.Tick {
	atEnd := func(v float64) bool { return isEnd(v, min) || isEnd(v, max) }
	var ends []plot.Tick
	for _, t := range ticks {
		if !t.IsMinor() && atEnd(t.Value) {
			ends = append(ends, t)
		}
	}
	out := slices.Clone(ticks)
	for i, t := range out {
		if t.IsMinor() || atEnd(t.Value) {
			continue
		}
		for _, e := range ends {
			if math.Abs(lt.position(t.Value, min, max)-lt.position(e.Value, min, max)) < (lt.extent(t.Label)+lt.extent(e.Label))/2 {
				out[i].Label = ""
				break
			}
		}
	}
	return out
}

// isEnd reports whether a tick at v sits at the axis end e.
func isEnd(v, e float64) bool { return math.Abs(v-e) <= 1e-9*math.Abs(e) }

// fits reports whether the labels of ticks, on a log axis from min to max of length lt.room,
// leave room between each other (with the width estimate of niceTicks.fits).
func (lt logTicks) fits(ticks []plot.Tick, min, max float64) bool {
	prev, prevExtent := math.Inf(-1), 0.0
	for _, t := range ticks {
		if t.IsMinor() {
			continue
		}
		at := lt.position(t.Value, min, max)
		e := lt.extent(t.Label)
		if at-prev < (prevExtent+e)/2 {
			return false
		}
		prev, prevExtent = at, e
	}
	return true
}

// position returns where v sits along a log axis from min to max of length lt.room.
func (lt logTicks) position(v, min, max float64) float64 {
	return float64(lt.room) * math.Log10(v/min) / math.Log10(max/min)
}

// extent estimates the room a tick label needs along the axis: its height on a vertical axis,
// its width (half the font size a character, plus a gap) on a horizontal one.
func (lt logTicks) extent(label string) float64 {
	size := float64(lt.size)
	if size == 0 {
		size = tickSize
	}
	if lt.vertical {
		return 1.4 * size
	}
	return 0.5*size*float64(utf8.RuneCountInString(label)) + 0.8*size
}

// endLabels returns labelled extended to the end points of [min, max] that are m·10^k, with the
// labels within endGap of the axis from an end label removed.
func endLabels(labelled func(m, k int) bool, min, max float64, lo, hi int) func(m, k int) bool {
	span := math.Log10(max / min)
	type mk struct{ m, k int }
	ends := map[mk]bool{}
	for _, e := range []float64{min, max} {
		k := int(math.Floor(math.Log10(e) + 1e-9))
		m := int(math.Round(e / math.Pow10(k)))
		if m >= 1 && m <= 9 && isEnd(tickValue(m, k), e) {
			ends[mk{m, k}] = true
		}
	}
	out := map[mk]bool{}
	for k := lo; k <= hi; k++ {
		for m := 1; m <= 9; m++ {
			v := tickValue(m, k)
			switch {
			case ends[mk{m, k}]:
				out[mk{m, k}] = true
			case labelled(m, k) && v >= min && v <= max:
				near := false
				for e := range ends {
					near = near || math.Abs(math.Log10(v/tickValue(e.m, e.k))) < endGap*span
				}
				out[mk{m, k}] = !near
			}
		}
	}
	return func(m, k int) bool { return out[mk{m, k}] }
}

// tickValue is m·10^k, correctly rounded.
func tickValue(m, k int) float64 {
	v, _ := strconv.ParseFloat(strconv.Itoa(m)+"e"+strconv.Itoa(k), 64)
	return v
}

// logLabel writes m·10^k: as a plain decimal (0.05, 20) when plain, else as 10^k or m×10^k in
// the notation of powerText.
func logLabel(m, k int, plain bool) string {
	if !plain {
		power := "10^" + strings.Replace(strconv.Itoa(k), "-", "−", 1)
		if m == 1 {
			return power
		}
		return strconv.Itoa(m) + "×" + power
	}
	digits := strconv.Itoa(m)
	if k >= 0 {
		return digits + strings.Repeat("0", k)
	}
	return "0." + strings.Repeat("0", -k-1) + digits
}

// powerText is a text handler that typesets "b^e" as b with the exponent e raised and smaller,
// for log-axis tick labels such as 10⁻³ (the Liberation fonts lack superscript digits, and the
// LaTeX handler of gonum/plot does not typeset exponents). Text without "^" is plain text.
type powerText struct {
	text.Plain
	minExponent vg.Length // the smallest exponent size; 0 for none
}

// Exponent size and raise, as fractions of the font size.
const (
	exponentScale = 0.72
	exponentRaise = 0.42
)

func splitPower(txt string) (base, exponent string, ok bool) {
	return strings.Cut(txt, "^")
}

func (h powerText) exponentFont(f font.Font) font.Font {
	return font.From(f, max(f.Size*exponentScale, h.minExponent))
}

// Box implements text.Handler.
func (h powerText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	base, exponent, ok := splitPower(txt)
	if !ok {
		return h.Plain.Box(txt, fnt)
	}
	wb, hb, db := h.Plain.Box(base, fnt)
	we, he, _ := h.Plain.Box(exponent, h.exponentFont(fnt))
	return wb + we, max(hb, exponentRaise*fnt.Size+he), db
}

// Draw implements text.Handler, aligning and rotating the text as text.Plain does.
func (h powerText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	base, exponent, ok := splitPower(txt)
	if !ok {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	face := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	small := h.exponentFont(sty.Font)
	smallFace := h.Fonts.Lookup(small, small.Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		defer c.Pop()
		c.Rotate(sty.Rotation)
	}
	sin, cos := math.Sincos(sty.Rotation)
	pt.X, pt.Y = pt.Y*vg.Length(sin)+pt.X*vg.Length(cos), pt.Y*vg.Length(cos)-pt.X*vg.Length(sin)
	width, _, _ := h.Box(txt, sty.Font)
	x := pt.X + vg.Length(sty.XAlign)*width
	baseline := pt.Y + sty.Height(txt)*vg.Length(sty.YAlign) - face.Extents().Ascent + sty.Font.Size
	c.FillString(face, vg.Point{X: x, Y: baseline}, base)
	c.FillString(smallFace, vg.Point{X: x + face.Width(base), Y: baseline + exponentRaise*sty.Font.Size}, exponent)
}
