package ch6

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// classification reports whether a data set of the results is a classification task (its full
// forest has test accuracies).
func classification(res *run.Results, key string) bool {
	return len(res.Where(key, methodFull, metric(partTest, true))) > 0
}

// view is what a chapter-6 grid draws in each panel.
type view struct {
	part    string   // "test" or "fit"
	methods []string // the methods drawn, in legend order
	// banded are the compared methods (methodFull for the full forest) drawn with their min–max
	// band; every other method is its mean line only, so that bands do not stack into one mass.
	// The first band is filled, the others outlined (their edges only), so that where they
	// overlap no colour blends into a third.
	banded []string
	stop   bool // mark NN-OMP's stopping point
}

// sizeLabel is the x axis of the chapter's panels.
const sizeLabel = "pruned size (% of forest)"

// distinctFractions splits the pruned sizes of a data set into those drawn and those left out: a
// fraction is drawn when, in every repetition, its forest holds more trees than the last drawn
// fraction's (prunedSize of the repetition's initial forest); otherwise it would repeat a forest
// already drawn at another x.
func distinctFractions(res *run.Results, key string) (drawn, left []float64, err error) {
	size, err := kit.PerRep(res.Where(key, methodFull, metricForestSize))
	if err != nil {
		return nil, nil, err
	}
	if len(size) == 0 {
		return nil, nil, fmt.Errorf("%s: no initial forest size on %s", res.ID, key)
	}
	for _, f := range fractions {
		distinct := len(drawn) == 0
		if !distinct {
			distinct = true
			for _, T := range size {
				distinct = distinct && prunedSize(f, int(T)) > prunedSize(drawn[len(drawn)-1], int(T))
			}
		}
		if distinct {
			drawn = append(drawn, f)
		} else {
			left = append(left, f)
		}
	}
	return drawn, left, nil
}

// panel draws one data set of chapter 6: the score on v.part against the pruned size (% of the
// initial forest, log axis) for each of v.methods, the mean over the repetitions at the distinct
// pruned sizes, with a min–max band for v.banded, and the full forest's mean score as a horizontal
// line. With v.stop, NN-OMP's stopping point is marked by a star (its mean size and score over the
// repetitions where it stopped by itself), drawn last.
func panel(res *run.Results, key string, v view) (*plot.Plot, error) {
	cls := classification(res, key)
	metric := metric(v.part, cls)
	drawn, _, err := distinctFractions(res, key)
	if err != nil {
		return nil, err
	}
	cs, err := kit.Curves(res, key, metric, fractionParam, v.methods...)
	if err != nil {
		return nil, err
	}
	for i, c := range cs {
		cs[i].Points = slices.DeleteFunc(slices.Clone(c.Points), func(s run.Summary) bool { return !slices.Contains(drawn, s.X) })
		for j := range cs[i].Points {
			cs[i].Points[j].X *= 100
		}
	}
	bands, err := kit.MethodBands(cs, labels)
	if err != nil {
		return nil, err
	}
	full, err := fullForestBand(res, key, metric)
	if err != nil {
		return nil, err
	}
	// Lines only for the methods not compared; the compared ones drawn last, on top.
	var back, front []plotting.Band
	for i, b := range append(bands, full) {
		id := methodFull
		if i < len(cs) {
			id = cs[i].Method
		}
		k := slices.Index(v.banded, id)
		if k < 0 {
			b.Lo, b.Hi = nil, nil
			back = append(back, b)
			continue
		}
		b.Outline = k > 0
		front = append(front, b)
	}
	yLabel := "test MSE"
	if v.part == partFit {
		yLabel = "train+validation MSE"
	}
	if cls {
		yLabel = strings.Replace(yLabel, "MSE", "accuracy", 1)
	}
	p := plotting.NewPrint(name(key), sizeLabel, yLabel)
	if err := plotting.LogX(p); err != nil {
		return nil, err
	}
	if err := plotting.AddBands(p, append(back, front...)...); err != nil {
		return nil, err
	}
	if v.stop {
		if err := addStop(p, res, key); err != nil {
			return nil, err
		}
	}
	// Headroom, so that no band runs flat along the frame.
	pad := 0.04 * (p.Y.Max - p.Y.Min)
	p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	return p, nil
}

// fullForestBand is the full forest's score on a data set as a horizontal band across the pruned
// sizes: its mean over the repetitions, from their minimum to their maximum.
func fullForestBand(res *run.Results, key, metric string) (plotting.Band, error) {
	rows := res.Where(key, methodFull, metric)
	if len(rows) == 0 {
		return plotting.Band{}, fmt.Errorf("%s: no full-forest %s on %s", res.ID, metric, key)
	}
	v := make([]float64, len(rows))
	for i, r := range rows {
		v[i] = r.Value
	}
	b, err := styles.Band(labels[methodFull], methodFull)
	if err != nil {
		return plotting.Band{}, err
	}
	lo, hi := 100*fractions[0], 100*fractions[len(fractions)-1]
	m := floats.Sum(v) / float64(len(v))
	b.X, b.Mean = []float64{lo, hi}, []float64{m, m}
	b.Lo, b.Hi = []float64{floats.Min(v), floats.Min(v)}, []float64{floats.Max(v), floats.Max(v)}
	return b, nil
}

// starScale is the stopping star's size against the curves' markers.
const starScale = 1.7

// haloStar draws a glyph starScale times the size it is given, over a white halo of itself, so
// that the one point it marks stands out from the markers and lines it lands on.
type haloStar struct{ glyph vgdraw.GlyphDrawer }

// DrawGlyph implements draw.GlyphDrawer.
func (h haloStar) DrawGlyph(c *vgdraw.Canvas, sty vgdraw.GlyphStyle, pt vg.Point) {
	sty.Radius *= starScale
	halo := sty
	halo.Color, halo.Radius = color.White, 1.35*sty.Radius
	h.glyph.DrawGlyph(c, halo, pt)
	h.glyph.DrawGlyph(c, sty, pt)
}

// addStop marks where NN-OMP stopped by itself on a data set, if it ever did, with the registered
// stopping star drawn large over a halo.
func addStop(p *plot.Plot, res *run.Results, key string) error {
	x, y, _, err := stopPoint(res, key)
	if err != nil || math.IsNaN(x) {
		return err
	}
	s, err := styles.Of("nn-omp-stop")
	if err != nil {
		return err
	}
	s.Marker = haloStar{s.Marker}
	return plotting.AddStyledScatter(p, []float64{x}, []float64{y}, "NN-OMP stops", s)
}

// stopPoint is where NN-OMP stopped by itself on a data set: the mean over the repetitions where
// it stopped before using the whole initial forest of its size (% of that forest) and of its test
// score there, with the number of such repetitions; NaNs when it never stopped.
func stopPoint(res *run.Results, key string) (x, y float64, stops int, err error) {
	size, err := kit.PerRep(res.Where(key, methodFull, metricForestSize))
	if err != nil {
		return 0, 0, 0, err
	}
	stopped, err := kit.PerRep(res.Where(key, nnomp, metricStopped))
	if err != nil {
		return 0, 0, 0, err
	}
	score, err := kit.PerRep(res.Where(key, nnomp, metricStopPrefix+metric(partTest, classification(res, key))))
	if err != nil {
		return 0, 0, 0, err
	}
	var xs, ys []float64
	for rep, s := range stopped {
		if s > 0 {
			xs, ys = append(xs, 100*s/size[rep]), append(ys, score[rep])
		}
	}
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), 0, nil
	}
	return floats.Sum(xs) / float64(len(xs)), floats.Sum(ys) / float64(len(ys)), len(xs), nil
}

// grid saves one panel per data set, cols to a row at page width, with the legend below; every
// panel gets the same x range, the widest any panel needs.
func grid(out *run.Output, res *run.Results, keys []string, cols int, v view) error {
	panels := make([]*plot.Plot, len(keys))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, k := range keys {
		p, err := panel(res, k, v)
		if err != nil {
			return err
		}
		panels[i] = p
		lo, hi = min(lo, p.X.Min), max(hi, p.X.Max)
	}
	for _, p := range panels {
		p.X.Min, p.X.Max = lo, hi
	}
	rows := (len(keys) + cols - 1) / cols
	return kit.SavePrintGrid(out, rows, cols, plotting.PageWidth, 4.6*vg.Centimeter, plotting.LegendBelow, panels...)
}

// figure renders a chapter-6 figure of test (or fit) scores on the data sets keys, cols panels to
// a row, every method but the NN-OMP pair with bands for OMP and OMP w/o weights (the thesis's key
// comparison), with its caption: the result computed from res, then what the panels show and the
// chapter's set-up.
func figure(res *run.Results, out *run.Output, keys []string, cols int, part, what string) error {
	v := view{part: part, methods: baselines, banded: []string{omp, ompNoWeights}}
	if err := grid(out, res, keys, cols, v); err != nil {
		return err
	}
	result, err := comparison(res, keys, part)
	if err != nil {
		return err
	}
	setup, err := setUpText(res, keys, v)
	if err != nil {
		return err
	}
	return kit.WriteCaption(out, res, result, what+" "+setup)
}
