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
// to the nearest round value m·10^k around its data (roundMantissas), so that both ends are
// labelled and the axis runs at most to the next such value past the data (2109 to 3000, not
// 5000). Drawing calls it before the layout; it is idempotent.
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

// roundMantissas are the m of the values m·10^k a print log axis may end at: every digit but 7 and
// 9, whose end labels ("9×10⁰" a step below 10¹) read as mistakes; data up to 8.9 end at 10.
var roundMantissas = []int{1, 2, 3, 4, 5, 6, 8}

// roundLog rounds v > 0 down (or up) to the nearest m·10^k with m in roundMantissas.
func roundLog(v float64, up bool) float64 {
	k := int(math.Floor(math.Log10(v)))
	best := tickValue(1, k)
	if up {
		best = tickValue(1, k+1)
	}
	for kk := k - 1; kk <= k+1; kk++ {
		for _, m := range roundMantissas {
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
// labels) so that values can be read off a short axis. With ends (the print style), every decade
// is labelled when the labels fit the length of the axis, and the end points of the axis too when
// they are whole multiples of a power of ten (roundLogRanges makes them so) and their labels touch
// no decade's: see printTicks.
type logTicks struct {
	ends     bool
	room     vg.Length // length of the axis, set by setTickRoom; 0 if unknown
	size     vg.Length // font size of the labels; 0 for tickSize
	vertical bool
	label    string // the axis label drawn by this package in gonum/plot's place (moveLabel)
}

// maxLogLabels is the most decade labels an axis gets.
const maxLogLabels = 7

// endGap is the smallest distance, as a fraction of the axis, between two labels of the print
// style when the length of the axis is unknown.
const endGap = 0.12

// endRoom is how many times the smallest distance between two labels an end label keeps from a
// decade label, so that "2×10⁴" does not crowd "10⁴" and read as one label.
const endRoom = 1.5

// Ticks implements plot.Ticker.
func (lt logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max > min) || math.IsInf(max, 0) {
		return nil
	}
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	if lt.ends {
		return lt.printTicks(min, max, lo, hi)
	}
	every := (hi - lo + maxLogLabels - 1) / maxLogLabels // label every this many decades
	// labelled decides which multiples m of 10^k carry a label.
	labelled := func(m, k int) bool { return m == 1 && (k-lo)%every == 0 }
	count := func() int {
		n := 0
		for k := lo; k <= hi; k++ {
			for m := 1; m <= 9; m++ {
				if labelled(m, k) && inLogRange(m, k, min, max) {
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
	return buildLogTicks(min, max, lo, hi, labelled, every > 1)
}

// inLogRange reports whether m·10^k lies in [min, max], up to rounding.
func inLogRange(m, k int, min, max float64) bool {
	v := tickValue(m, k)
	return v >= min*(1-1e-12) && v <= max*(1+1e-12)
}

// buildLogTicks returns the ticks m·10^k of [min, max] for k in [lo, hi] and m in 1..9, labelled
// where labelled says; with sparse, the unlabelled multiples m > 1 get no minor tick (the decades
// are skipped, and a minor grid between them would read as a scale).
func buildLogTicks(min, max float64, lo, hi int, labelled func(m, k int) bool, sparse bool) []plot.Tick {
	var exps []int // the decade exponents of labelled ticks, to choose the label format
	for k := lo; k <= hi; k++ {
		for m := 1; m <= 9; m++ {
			if labelled(m, k) && inLogRange(m, k, min, max) {
				exps = append(exps, k)
			}
		}
	}
	plain := len(exps) > 0 && exps[0] >= -2 && exps[len(exps)-1] <= 3
	var ticks []plot.Tick
	for k := lo; k <= hi; k++ {
		for m := 1; m <= 9; m++ {
			if !inLogRange(m, k, min, max) || (sparse && m > 1 && !labelled(m, k)) {
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

// multiple is the tick value m·10^k.
type multiple struct{ m, k int }

func (x multiple) value() float64 { return tickValue(x.m, x.k) }

// printTicks are the ticks of the print style, whose labels are chosen in order of importance,
// each kept only if it touches no label kept before it (by the extents of fits when the length
// of the axis is known, else closer than endGap of the axis):
//  1. every decade of [min, max], or every second, third, ... decade (at multiples of the
//     step: 10⁰, 10², 10⁴) when the decade labels alone do not fit (at most maxLogLabels
//     without a known length): a reader reads a log axis off its decades;
//  2. the end points of the axis that are m·10^k, so that the axis says where it stops: an end
//     label that would come closer than endRoom times the smallest distance to a decade label is
//     dropped, never the decade's;
//  3. on an axis holding fewer than three decades, the 2× and 5× multiples (every multiple if that
//     still gives fewer than two labels), so that values can be read off a short axis.
func (lt logTicks) printTicks(min, max float64, lo, hi int) []plot.Tick {
	var decades []multiple
	for k := lo; k <= hi; k++ {
		if inLogRange(1, k, min, max) {
			decades = append(decades, multiple{1, k})
		}
	}
	var ends []multiple
	for _, e := range []float64{min, max} {
		k := int(math.Floor(math.Log10(e) + 1e-9))
		m := int(math.Round(e / math.Pow10(k)))
		if m >= 1 && m <= 9 && isEnd(tickValue(m, k), e) && !slices.Contains(ends, multiple{m, k}) {
			ends = append(ends, multiple{m, k})
		}
	}
	// Label widths, for the collision test, in the notation the candidates would get.
	exps := []int{}
	for _, x := range append(slices.Clone(decades), ends...) {
		exps = append(exps, x.k)
	}
	plain := len(exps) > 0 && slices.Min(exps) >= -2 && slices.Max(exps) <= 3
	span := math.Log10(max / min)
	// touch reports whether the labels of a and b, spaced by at least room times the minimum, touch.
	touch := func(a, b multiple, room float64) bool {
		if lt.room <= 0 {
			return math.Abs(math.Log10(a.value()/b.value())) < room*endGap*span
		}
		gap := math.Abs(lt.position(a.value(), min, max) - lt.position(b.value(), min, max))
		return gap < room*(lt.extent(logLabel(a.m, a.k, plain))+lt.extent(logLabel(b.m, b.k, plain)))/2
	}
	// add appends the candidates that touch no label of kept, in order.
	add := func(kept []multiple, room float64, candidates ...multiple) []multiple {
		for _, c := range candidates {
			if !slices.Contains(kept, c) && !slices.ContainsFunc(kept, func(x multiple) bool { return touch(c, x, room) }) {
				kept = append(kept, c)
			}
		}
		return kept
	}
	everyStep := func(step int) []multiple {
		var out []multiple
		for _, d := range decades {
			if ((d.k%step)+step)%step == 0 {
				out = append(out, d)
			}
		}
		return out
	}
	step := 1
	if lt.room <= 0 && len(decades) > maxLogLabels {
		step = (len(decades) + maxLogLabels - 1) / maxLogLabels
	}
	kept := everyStep(step)
	for lt.room > 0 && step < len(decades) && len(add(nil, 1, kept...)) < len(kept) {
		step++
		kept = everyStep(step)
	}
	kept = add(kept, endRoom, ends...)
	if len(decades) < 3 {
		var extra, rest []multiple
		for k := lo; k <= hi; k++ {
			for m := 2; m <= 9; m++ {
				if inLogRange(m, k, min, max) {
					if m == 2 || m == 5 {
						extra = append(extra, multiple{m, k})
					} else {
						rest = append(rest, multiple{m, k})
					}
				}
			}
		}
		if kept = add(kept, 1, extra...); len(kept) < 2 {
			kept = add(kept, 1, rest...)
		}
	}
	return buildLogTicks(min, max, lo, hi, func(m, k int) bool { return slices.Contains(kept, multiple{m, k}) }, step > 1)
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
