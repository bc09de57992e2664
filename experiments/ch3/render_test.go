package ch3

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/internal/kittest"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/plotting/plottest"
	"github.com/fastkernels/kernellab/lab/run"
)

// The t interval's half-width against a t table: t_{0.975, 1} = 12.7062, t_{0.975, 4} = 2.7764,
// t_{0.975, 9} = 2.2622; a single draw has none.
func TestTInterval(t *testing.T) {
	for _, c := range []struct {
		draws int
		t     float64
	}{{2, 12.7062}, {5, 2.7764}, {10, 2.2622}} {
		if got, want := tInterval(2, c.draws), c.t*2/math.Sqrt(float64(c.draws)); math.Abs(got-want) > 1e-3 {
			t.Errorf("%d draws: half-width %g, want %g", c.draws, got, want)
		}
	}
	if got := tInterval(3, 1); got != 0 {
		t.Errorf("one draw: half-width %g, want 0", got)
	}
}

// meanCurves on three draws per x: values 1, 2, 3 have mean 2 and sd 1 (band 2 ± 4.3027/√3);
// values 1, e², e⁴ have geometric mean e², its band e^(2 ± 2·4.3027/√3). A value a log axis cannot
// show is an error.
func TestMeanCurves(t *testing.T) {
	res := kittest.RowsOf("fig3_5")
	for rep, v := range []float64{1, 2, 3} {
		res.Rows = append(res.Rows,
			run.Row{ID: "fig3_5", Dataset: "kc1", Method: dac, Params: []run.Param{run.P("labels", 10)}, Rep: rep, Metric: kit.MetricAccuracy, Value: v},
			run.Row{ID: "fig3_5", Dataset: "kc1", Method: uniform, Params: []run.Param{run.P("labels", 10)}, Rep: rep, Metric: kit.MetricAccuracy, Value: math.Exp(2 * float64(rep))})
	}
	const t2 = 4.302653
	cs, err := meanCurves(res, "kc1", kit.MetricAccuracy, "labels", []string{methodExact, dac, uniform}, false)
	if err != nil || len(cs) != 2 || cs[0].method != dac {
		t.Fatalf("curves %+v, %v; want DAC and uniform (exact has no rows)", cs, err)
	}
	half := t2 / math.Sqrt(3)
	if c := cs[0]; c.mid[0] != 2 || math.Abs(c.lo[0]-(2-half)) > 1e-5 || math.Abs(c.hi[0]-(2+half)) > 1e-5 {
		t.Errorf("linear curve %+v, want 2 ± %g", c, half)
	}
	cs, err = meanCurves(res, "kc1", kit.MetricAccuracy, "labels", []string{uniform}, true)
	if err != nil {
		t.Fatal(err)
	}
	if c := cs[0]; math.Abs(c.mid[0]-math.Exp(2)) > 1e-9 || math.Abs(c.lo[0]-math.Exp(2-2*half)) > 1e-4 || math.Abs(c.hi[0]-math.Exp(2+2*half)) > 1e-2 {
		t.Errorf("geometric curve %+v, want e² with band e^(2 ± %g)", c, 2*half)
	}
	res.Rows[0].Value = 0
	if _, err := meanCurves(res, "kc1", kit.MetricAccuracy, "labels", []string{dac}, true); err == nil {
		t.Error("a zero drawn on a log axis")
	}
	if _, err := meanCurves(res, "kc1", kit.MetricAccuracy, "labels", []string{methodExact}, false); err == nil {
		t.Error("curves without any rows")
	}
}

// timingCurves are the curves of the timing figures on the given data sets, with the mean time
// a·n^k of each method (k by method) at n = 1000, 2000, 4000.
func timingCurves(sets []string, k map[string]float64) map[string][]meanCurve {
	out := map[string][]meanCurve{}
	for i, set := range sets {
		for _, m := range fig3_3Methods {
			e, ok := k[m]
			if !ok {
				continue
			}
			c := meanCurve{method: m}
			for _, n := range []float64{1000, 2000, 4000} {
				y := float64(1+i) * 1e-6 * math.Pow(n, e)
				c.x, c.mid, c.lo, c.hi = append(c.x, n), append(c.mid, y), append(c.lo, y), append(c.hi, y)
			}
			out[set] = append(out[set], c)
		}
	}
	return out
}

// The timing caption gives each method's slope (a power law's exponent, exactly), says whether the
// approximate methods reach the asymptotic exponent 2, names the fastest method at the largest n
// and the range of uniform RLS's time over DAC-RLS's.
func TestTimingResult(t *testing.T) {
	res := kittest.RowsOf("fig3_3")
	sets := []string{"houses", "adult"}
	slow := timingCurves(sets, map[string]float64{dac: 1.3, uniformRLS: 1.5, accelerated: 0.7})
	got := timingResult(res, sets, fig3_3Methods, slow)
	for _, want := range []string{"DAC-RLS 1.30;", "uniform RLS 1.50;", "accelerated recursive RLS 0.70.", "slope is below 2",
		"not in that regime", "the fastest is accelerated recursive RLS on Houses and Adult", "uniform RLS takes"} {
		if !strings.Contains(got, want) {
			t.Errorf("caption %q lacks %q", got, want)
		}
	}
	// uniform RLS / DAC = n^0.2 at n = 1000 and 4000: 3.98 and 5.28.
	if !strings.Contains(got, "4.0–5.3 times DAC-RLS's time") {
		t.Errorf("caption %q: want uniform RLS 4.0–5.3 times DAC-RLS", got)
	}
	fast := timingCurves(sets, map[string]float64{dac: 2.1, uniformRLS: 1.2})
	fast["houses"][0].mid[2] = 1e-6 * math.Pow(4000, 2.5) // DAC's slope differs by data set
	got = timingResult(res, sets, fig3_4Methods, fast)
	if !strings.Contains(got, "reaches 2") || !strings.Contains(got, "for DAC-RLS on some data set") ||
		!strings.Contains(got, "stays below it for uniform RLS") || !strings.Contains(got, "DAC-RLS 2.10–") {
		t.Errorf("caption %q: want DAC-RLS at slope 2 and over, uniform RLS below", got)
	}
	one := map[string][]meanCurve{"houses": {{method: dac, x: []float64{1000}, mid: []float64{1}, lo: []float64{1}, hi: []float64{1}}}}
	if got := timingResult(res, []string{"houses"}, fig3_4Methods, one); !strings.HasPrefix(got, "No curve has two sizes") {
		t.Errorf("one n: %q", got)
	}
}

// Labels at the same height are stacked a label's height apart, and kept inside the panel.
func TestSpreadApart(t *testing.T) {
	h := []vg.Length{8, 8, 8}
	got := spreadApart([]vg.Length{50, 50, 10}, h, 0, 100)
	if got[2] != 10 || got[0] != 50 || got[1] != 58 {
		t.Errorf("spread %v, want [50 58 10]", got)
	}
	got = spreadApart([]vg.Length{99, 99, 99}, h, 0, 100)
	if !slices.Equal(got, []vg.Length{80, 88, 96}) {
		t.Errorf("at the top: %v, want [80 88 96]", got)
	}
}

// fig3_2's result: DAC-RLS's error twice recursive RLS's at every |S| gives 2.0, and on KC1 the
// ratio of exact RLS's error to the best approximate one at the smallest and the largest |S|.
func TestFig3_2Result(t *testing.T) {
	curve := func(m string, ys ...float64) meanCurve {
		return meanCurve{method: m, x: []float64{10, 100}, mid: ys, lo: ys, hi: ys}
	}
	drawn := map[string][]meanCurve{
		"kc1":    {curve(uniform, 8, 4), curve(recursive, 2, 1), curve(dac, 4, 2), curve(methodExact, 6, 0.5)},
		"houses": {curve(uniform, 9, 9), curve(recursive, 3, 3), curve(dac, 3, 3)},
	}
	got := fig3_2Result(kittest.RowsOf("fig3_2"), drawn)
	for _, want := range []string{"KC1 2.0, Houses 1.0", "to uniform sampling's: 0.33–0.5",
		"exact RLS's error is 3.0 times recursive RLS's at |S| = 10 and 0.5 times recursive RLS's at |S| = 100"} {
		if !strings.Contains(got, want) {
			t.Errorf("caption %q lacks %q", got, want)
		}
	}
}

// fig3_5's result: the best method averaged over the numbers of labels (lowest MSE on Houses) and
// the largest gain over the baseline.
func TestFig3_5Result(t *testing.T) {
	curve := func(m string, ys ...float64) meanCurve {
		return meanCurve{method: m, x: []float64{10, 100}, mid: ys, lo: ys, hi: ys}
	}
	drawn := map[string][]meanCurve{
		"kc1":    {curve(uniform, 0.80, 0.82), curve(dac, 0.81, 0.85), curve(baseline, 0.8, 0.8)},
		"houses": {curve(uniform, 0.6, 0.4), curve(dac, 0.7, 0.5), curve(baseline, 1, 1)},
	}
	got := fig3_5Result(kittest.RowsOf("fig3_5"), drawn)
	for _, want := range []string{"KC1: DAC-RLS, accuracy 0.83 (the others within 0.02)", "Houses: uniform sampling, MSE 0.5 (the others within 0.1)",
		"KC1: 0.05 (baseline accuracy 0.8)", "Houses: 0.6 (baseline MSE 1)"} {
		if !strings.Contains(got, want) {
			t.Errorf("caption %q lacks %q", got, want)
		}
	}
}

// A caption names a style by its registered colour, marker and dash; every registered style has
// words.
func TestStyleWords(t *testing.T) {
	for name, want := range map[string]string{
		dac:              "vermillion solid line with filled circle markers",
		accelerated:      "sky-blue dotted line with open square markers",
		"majority-class": "dark grey dotted line",
	} {
		if got, err := styleWords(name); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range styles.Names() {
		if _, err := styleWords(name); err != nil {
			t.Error(err)
		}
	}
	if _, err := styleWords("no-such-method"); err == nil {
		t.Error("an unregistered name has words")
	}
}

// fig3_2's diagnostic has a marker no other curve of chapter 3 has, and no other registered series
// has its colour and marker: it cannot be read as a method (issue 33).
func TestDiagnosticGlyphIsItsOwn(t *testing.T) {
	own, err := styles.Of(recursiveOwn)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range styles.Names() {
		if name == recursiveOwn {
			continue
		}
		s, err := styles.Of(name)
		if err != nil {
			t.Fatal(err)
		}
		same := reflect.DeepEqual(s.Marker, own.Marker)
		if same && (sameColor(s.Color, own.Color) || slices.Contains(append(fig3_3Methods, fig3_2Series...), name)) {
			t.Errorf("%s shares the diagnostic's marker", name)
		}
	}
}

// The block ticks of fig3_1 sit at the blocks' centres: columns at x = j, rows at y = n − 1 − i.
func TestBlockTicks(t *testing.T) {
	blocks := []plotting.Rect{{Row0: 0, Col0: 0, Rows: 4, Cols: 4}, {Row0: 4, Col0: 4, Rows: 2, Cols: 2}}
	x, y := blockTicks(blocks, 0), blockTicks(blocks, 6)
	if x[0].Value != 1.5 || x[1].Value != 4.5 || y[0].Value != 3.5 || y[1].Value != 0.5 || x[1].Label != "R₂" || subscript(12) != "₁₂" {
		t.Errorf("ticks x %v, y %v", x, y)
	}
}

// The timing figures write each curve's slope at its end: the least-squares slope of the log of
// the geometric mean time over the draws against log n, computed here from the rows by the
// closed form Σ(u − ū)(v − v̄) / Σ(u − ū)².
func checkSlopeLabels(t *testing.T, id, figDir string, res *run.Results) {
	t.Helper()
	texts := svgTexts(t, figDir, id)
	logMean := map[[3]string][]float64{}
	for _, r := range res.Rows {
		if r.Metric != kit.MetricSeconds {
			continue
		}
		n, _ := r.Param("n")
		key := [3]string{r.Dataset, r.Method, n}
		logMean[key] = append(logMean[key], math.Log(r.Value))
	}
	points := map[[2]string][][2]float64{}
	for key, logs := range logMean {
		var n float64
		for _, v := range logs {
			n += v
		}
		x, _ := run.Row{Params: []run.Param{run.P("n", key[2])}}.ParamFloat("n")
		points[[2]string{key[0], key[1]}] = append(points[[2]string{key[0], key[1]}], [2]float64{math.Log(x), n / float64(len(logs))})
	}
	for key, pts := range points {
		if len(pts) < 2 {
			continue
		}
		var mu, mv float64
		for _, p := range pts {
			mu, mv = mu+p[0]/float64(len(pts)), mv+p[1]/float64(len(pts))
		}
		var sxy, sxx float64
		for _, p := range pts {
			sxy += (p[0] - mu) * (p[1] - mv)
			sxx += (p[0] - mu) * (p[0] - mu)
		}
		want := slopeFormat(sxy / sxx)
		if !slices.ContainsFunc(texts, func(tx plottest.SVGText) bool { return tx.Text == want }) {
			t.Errorf("%s %v: no slope label %s", id, key, want)
		}
	}
}

// svgTexts returns the texts of the SVG of figure id in figDir.
func svgTexts(t *testing.T, figDir, id string) []plottest.SVGText {
	t.Helper()
	svg, err := os.ReadFile(filepath.Join(figDir, id+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	_, texts, err := plottest.ParseSVG(svg)
	if err != nil {
		t.Fatal(err)
	}
	return texts
}
