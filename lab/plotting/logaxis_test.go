package plotting

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// labelled returns the values and labels of the major ticks.
func labelled(ticks []plot.Tick) ([]float64, []string) {
	var vs []float64
	var ls []string
	for _, t := range ticks {
		if !t.IsMinor() {
			vs = append(vs, t.Value)
			ls = append(ls, t.Label)
		}
	}
	return vs, ls
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi     float64
		values     []float64
		labels     []string
		minorCount int
	}{
		{1e-3, 1e2, []float64{1e-3, 1e-2, 1e-1, 1, 10, 100},
			[]string{"10^−3", "10^−2", "10^−1", "10^0", "10^1", "10^2"}, 5 * 8},
		{1, 1000, []float64{1, 10, 100, 1000}, []string{"1", "10", "100", "1000"}, 3 * 8},
		{1, 16, []float64{1, 2, 5, 10}, []string{"1", "2", "5", "10"}, 6},
		{0.02, 0.7, []float64{0.1}, nil, 0}, // replaced below: fewer than two decades
		{2, 8, []float64{2, 5}, []string{"2", "5"}, 5},
		{0.3, 0.5, []float64{0.3, 0.4, 0.5}, []string{"0.3", "0.4", "0.5"}, 0},
		{1e-9, 1e9, []float64{1e-9, 1e-6, 1e-3, 1, 1e3, 1e6, 1e9},
			[]string{"10^−9", "10^−6", "10^−3", "10^0", "10^3", "10^6", "10^9"}, 12}, // other decades unlabelled
	} {
		if tc.lo == 0.02 { // 0.02..0.7 holds the decade 0.1 only, so 2× and 5× are labelled too
			tc.values = []float64{0.02, 0.05, 0.1, 0.2, 0.5}
			tc.labels = []string{"0.02", "0.05", "0.1", "0.2", "0.5"}
			tc.minorCount = 6 + 4
		}
		ticks := logTicks{}.Ticks(tc.lo, tc.hi)
		vs, ls := labelled(ticks)
		if !reflect.DeepEqual(vs, tc.values) || !reflect.DeepEqual(ls, tc.labels) {
			t.Errorf("[%g, %g]: labelled %v %q, want %v %q", tc.lo, tc.hi, vs, ls, tc.values, tc.labels)
		}
		if minor := len(ticks) - len(vs); minor != tc.minorCount {
			t.Errorf("[%g, %g]: %d minor ticks, want %d", tc.lo, tc.hi, minor, tc.minorCount)
		}
		for _, tk := range ticks {
			if tk.Value < tc.lo*(1-1e-12) || tk.Value > tc.hi*(1+1e-12) {
				t.Errorf("[%g, %g]: tick %g outside the range", tc.lo, tc.hi, tk.Value)
			}
		}
	}
	if ticks := (logTicks{}).Ticks(-1, 1); ticks != nil {
		t.Errorf("ticks %v for a non-positive range, want none", ticks)
	}
}

func TestLogScale(t *testing.T) {
	for _, tc := range []struct{ min, max, x, want float64 }{
		{1, 100, 10, 0.5},
		{1, 1000, 1000, 1},
		{-1, 1, 0, 0.5}, // an axis without data falls back to linear
		{1, 100, -5, -1},
	} {
		if got := (logScale{}).Normalize(tc.min, tc.max, tc.x); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Normalize(%g, %g, %g) = %g, want %g", tc.min, tc.max, tc.x, got, tc.want)
		}
	}
}

func TestLogAxesRefuseNonPositiveData(t *testing.T) {
	p := New("", "x", "y")
	if err := AddLine(p, []float64{1, 2}, []float64{-1, 2}, "", 0, false); err != nil {
		t.Fatal(err)
	}
	if err := LogY(p); err == nil || !strings.Contains(err.Error(), "-1") {
		t.Errorf("LogY over y = -1: %v", err)
	}
	if isLog(p.Y) || p.Y.Label.Text != "y" {
		t.Error("a refused LogY changed the axis")
	}
	if err := LogX(p); err != nil {
		t.Fatalf("LogX over positive x: %v", err)
	}
	if err := AddScatter(p, []float64{0}, []float64{1}, "", 0); err == nil || !strings.Contains(err.Error(), "logarithmic") {
		t.Errorf("AddScatter at x = 0 on a log x axis: %v", err)
	}
	q := New("", "x", "y")
	if err := LogY(q); err != nil {
		t.Fatalf("LogY on an empty plot: %v", err)
	}
	if err := AddBands(q, Band{X: []float64{1, 2}, Mean: []float64{1, 2}, Lo: []float64{0, 1}, Hi: []float64{2, 3}}); err == nil {
		t.Error("band reaching Lo = 0 on a log y axis: no error")
	}
	if err := AddHLine(q, 0, "zero", 0); err == nil {
		t.Error("AddHLine at 0 on a log y axis: no error")
	}
	if err := LogX(nil); err == nil {
		t.Error("LogX on a nil plot: no error")
	}
}

func TestEmptyLogPlotDraws(t *testing.T) {
	p := New("empty", "x", "y")
	if err := LogX(p); err != nil {
		t.Fatal(err)
	}
	if err := LogY(p); err != nil {
		t.Fatal(err)
	}
	if _, err := PlotPNG(p, 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
}

func TestLogAxisLabelIsDrawnOnce(t *testing.T) {
	p := New("t", "landmarks", "error (relative)")
	if err := AddLine(p, []float64{1, 1000}, []float64{1e-4, 1}, "", 0, false); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second call must not add a second label
		if err := LogY(p); err != nil {
			t.Fatal(err)
		}
	}
	rec, c := newRecorder(300, 200)
	p.Draw(c)
	n := 0
	for _, s := range rec.texts {
		if s == "error (relative)" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("y label drawn %d times, want once", n)
	}
	// The label no longer shrinks the data area: it is as tall as with a linear axis.
	lin := New("t", "landmarks", "error (relative)")
	if err := AddLine(lin, []float64{1, 1000}, []float64{1e-4, 1}, "", 0, false); err != nil {
		t.Fatal(err)
	}
	_, c2 := newRecorder(300, 200)
	lin.Draw(c2)
	logTop, linTop := p.DataCanvas(c).Max.Y, lin.DataCanvas(c2).Max.Y
	if logTop < linTop-10 {
		t.Errorf("data area top %v with a log axis, %v with a linear one", logTop, linTop)
	}
}

func TestPowerTextBox(t *testing.T) {
	plain := text.Plain{Fonts: font.DefaultCache}
	h := powerText{Plain: plain}
	fnt := font.From(textFont, 10)
	w, _, _ := h.Box("10^−3", fnt)
	wb, _, _ := plain.Box("10", fnt)
	we, _, _ := plain.Box("−3", font.From(textFont, 10*exponentScale))
	if math.Abs(float64(w-wb-we)) > 1e-9 {
		t.Errorf("width %v, want %v + %v", w, wb, we)
	}
	pw, ph, pd := plain.Box("100", fnt)
	if gw, gh, gd := h.Box("100", fnt); gw != pw || gh != ph || gd != pd {
		t.Error("text without ^ is not measured as plain text")
	}
}
