package plotting

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

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
	if err := makeLog(&p.X); err != nil {
		return fmt.Errorf("plotting: log x axis: %w", err)
	}
	moveLabel(p, &p.X, false)
	return nil
}

// LogY makes the y axis of p logarithmic, like LogX: errors, loss curves and running times that
// span decades become readable, and power laws become straight lines.
func LogY(p *plot.Plot) error {
	if p == nil {
		return errors.New("plotting: LogY on a nil plot")
	}
	if err := makeLog(&p.Y); err != nil {
		return fmt.Errorf("plotting: log y axis: %w", err)
	}
	moveLabel(p, &p.Y, true)
	return nil
}

func makeLog(a *plot.Axis) error {
	// Min is +Inf while no data has been added; otherwise it is the smallest value on the axis.
	if !math.IsInf(a.Min, 1) && !(a.Min > 0) {
		return fmt.Errorf("the data reach %g; a logarithmic axis needs positive values", a.Min)
	}
	a.Scale = logScale{}
	a.Tick.Marker = logTicks{}
	a.Tick.Label.Handler = powerText{text.Plain{Fonts: font.DefaultCache}}
	return nil
}

// moveLabel hands the label of log axis a to an axisLabel plotter (see there why).
func moveLabel(p *plot.Plot, a *plot.Axis, vertical bool) {
	if a.Label.Text == "" || isPlaceholder(a.Label.Text) {
		return
	}
	l := &axisLabel{label: a.Label.Text, placeholder: labelPlaceholder(a.Label.Text), vertical: vertical}
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
// labels) so that values can be read off a short axis.
type logTicks struct{}

// maxLogLabels is the most decade labels an axis gets.
const maxLogLabels = 7

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
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
	labelled := func(m, k int) bool { return m == 1 && (k-lo)%every == 0 }
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
			if !inRange(m, k) || (every > 1 && m > 1) { // no minor ticks when decades are skipped
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
type powerText struct{ text.Plain }

// Exponent size and raise, as fractions of the font size.
const (
	exponentScale = 0.72
	exponentRaise = 0.42
)

func splitPower(txt string) (base, exponent string, ok bool) {
	return strings.Cut(txt, "^")
}

func exponentFont(f font.Font) font.Font { return font.From(f, f.Size*exponentScale) }

// Box implements text.Handler.
func (h powerText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	base, exponent, ok := splitPower(txt)
	if !ok {
		return h.Plain.Box(txt, fnt)
	}
	wb, hb, db := h.Plain.Box(base, fnt)
	we, he, _ := h.Plain.Box(exponent, exponentFont(fnt))
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
	small := exponentFont(sty.Font)
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
