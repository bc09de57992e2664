package ch2

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// Rings of fig2_1: two classes on concentric circles with radial noise.
const (
	ringPoints = 100 // per class
	ringInner  = 1.0
	ringOuter  = 2.0
	ringNoise  = 0.15
)

// fig2_1 — the kernel trick (thesis Figure 2.1, §2.1.1). Two concentric rings are not linearly separable
// in the input space (a); after the explicit feature map φ(x, y) = (x², y²) a linear separator fitted by
// least squares on the ±1 labels splits them (b); pulled back, that separator is an ellipse in the input
// space (c). The thesis draws a schematic; the map and the least-squares separator are our choices.
func fig2_1() *run.Experiment {
	return &run.Experiment{
		ID: "fig2_1", Title: "Kernel trick illustration", Kind: run.Figure, Seed: 21,
		Plan: func(run.Scale) ([]run.Task, error) {
			return []run.Task{{Key: "rings", Run: func(_ context.Context, env *run.Env) ([]run.Record, error) {
				return ringsRecords(env.RNG)
			}}}, nil
		},
		Render: renderFig2_1,
		Claims: []run.Claim{{
			ID:   "linear-after-map",
			Kind: run.Check,
			Text: "no linear separator works in the input space, but after the feature map a linear one does",
			Rule: "decided exactly on the figure's one point set (the claim is about this picture, not a population): linear separability " +
				"of the two rings, computed exactly (convex hulls disjoint, by the separating axis theorem) in the input space and after " +
				"φ(x, y) = (x², y²); supported if not separable before and separable after, contradicted otherwise",
			Check: checkFig2_1,
		}},
	}
}

// checkFig2_1 decides linear-after-map exactly from the recorded points.
func checkFig2_1(res *run.Results) (verdict.Verdict, error) {
	in, err := singleValue(res, "linear-input", "accuracy")
	if err != nil {
		return verdict.Verdict{}, err
	}
	feat, err := singleValue(res, "linear-feature", "accuracy")
	if err != nil {
		return verdict.Verdict{}, err
	}
	var tests []verdict.Test
	for _, space := range []struct{ label, x, y string }{
		{"input space (x, y)", "x1", "x2"},
		{"feature space (x², y²)", "u", "v"},
	} {
		pts, err := ringPointsByClass(res, space.x, space.y)
		if err != nil {
			return verdict.Verdict{}, err
		}
		sep := linearlySeparable(pts["-1"][0], pts["-1"][1], pts["1"][0], pts["1"][1])
		value := 0.0
		if sep {
			value = 1
		}
		if space.x == "x1" {
			tests = append(tests, verdict.ExactTest(space.label+": linearly separable (1 = yes)", value, !sep, "supported if 0 (no line separates the rings)"))
		} else {
			tests = append(tests, verdict.ExactTest(space.label+": linearly separable (1 = yes)", value, sep, "supported if 1 (some line separates them)"))
		}
	}
	return verdict.Decide(tests, fmt.Sprintf("the drawn least-squares separators classify %.3f of the points correctly in the input space, %.3f after the map", in, feat)), nil
}

// linearlySeparable reports whether some line strictly separates the points a from the points b
// (the plane's two classes): exactly when their convex hulls are disjoint, and then (separating
// axis theorem) the projections on the normal of some hull edge do not overlap.
func linearlySeparable(ax, ay, bx, by []float64) bool {
	ha, hb := convexHull(ax, ay), convexHull(bx, by)
	for _, h := range [][][2]float64{ha, hb} {
		for i := range h {
			p, q := h[i], h[(i+1)%len(h)]
			nx, ny := q[1]-p[1], p[0]-q[0] // normal of the edge p→q
			if nx == 0 && ny == 0 {
				continue
			}
			aLo, aHi := projectRange(ax, ay, nx, ny)
			bLo, bHi := projectRange(bx, by, nx, ny)
			if aHi < bLo || bHi < aLo {
				return true
			}
		}
	}
	return false
}

// projectRange is the smallest and largest of (x, y)·(nx, ny) over the points.
func projectRange(xs, ys []float64, nx, ny float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range xs {
		v := xs[i]*nx + ys[i]*ny
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// convexHull returns the vertices of the convex hull of the points in counter-clockwise order
// (Andrew's monotone chain); fewer than three distinct points are returned as they are.
func convexHull(xs, ys []float64) [][2]float64 {
	pts := make([][2]float64, len(xs))
	for i := range xs {
		pts[i] = [2]float64{xs[i], ys[i]}
	}
	slices.SortFunc(pts, func(p, q [2]float64) int {
		if c := cmp.Compare(p[0], q[0]); c != 0 {
			return c
		}
		return cmp.Compare(p[1], q[1])
	})
	pts = slices.Compact(pts)
	if len(pts) < 3 {
		return pts
	}
	cross := func(o, a, b [2]float64) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	hull := make([][2]float64, 0, 2*len(pts))
	for _, p := range pts {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], pts[i]) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, pts[i])
	}
	return hull[:len(hull)-1]
}

// ringsRecords draws the rings, fits both separators and records points, separator and accuracies.
func ringsRecords(rng *rand.Rand) ([]run.Record, error) {
	n := 2 * ringPoints
	x1, x2, label := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		r, cls := ringInner, -1.0
		if i >= ringPoints {
			r, cls = ringOuter, 1.0
		}
		t := 2 * math.Pi * rng.Float64()
		rad := r + ringNoise*rng.NormFloat64()
		x1[i], x2[i], label[i] = rad*math.Cos(t), rad*math.Sin(t), cls
	}
	square := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, a := range v {
			out[i] = a * a
		}
		return out
	}
	u, v := square(x1), square(x2)
	_, accIn, err := leastSquaresSeparator(x1, x2, label)
	if err != nil {
		return nil, err
	}
	wFeat, accFeat, err := leastSquaresSeparator(u, v, label)
	if err != nil {
		return nil, err
	}
	var recs []run.Record
	for i := range n {
		params := []run.Param{run.P("point", i), run.P("class", label[i])}
		for _, m := range []struct {
			name string
			val  float64
		}{{"x1", x1[i]}, {"x2", x2[i]}, {"u", u[i]}, {"v", v[i]}} {
			recs = append(recs, run.Record{Dataset: "rings", Method: "points", Params: params, Metric: m.name, Value: m.val})
		}
	}
	for k, name := range []string{"w_u", "w_v", "b"} {
		recs = append(recs, run.Record{Dataset: "rings", Method: "separator", Metric: name, Value: wFeat[k]})
	}
	recs = append(recs,
		run.Record{Dataset: "rings", Method: "linear-input", Metric: "accuracy", Value: accIn},
		run.Record{Dataset: "rings", Method: "linear-feature", Metric: "accuracy", Value: accFeat},
	)
	return recs, nil
}

// leastSquaresSeparator fits w·(a, b, 1) ≈ label by least squares (QR) and returns w and the training
// accuracy of sign(w·(a, b, 1)).
func leastSquaresSeparator(a, b, label []float64) ([]float64, float64, error) {
	n := len(a)
	design := mat.NewDense(n, 3, nil)
	for i := range n {
		design.SetRow(i, []float64{a[i], b[i], 1})
	}
	var w mat.VecDense
	if err := w.SolveVec(design, mat.NewVecDense(n, append([]float64(nil), label...))); err != nil {
		return nil, 0, fmt.Errorf("fig2_1: least-squares separator: %w", err)
	}
	correct := 0
	for i := range n {
		if score := w.AtVec(0)*a[i] + w.AtVec(1)*b[i] + w.AtVec(2); (score >= 0) == (label[i] > 0) {
			correct++
		}
	}
	return []float64{w.AtVec(0), w.AtVec(1), w.AtVec(2)}, float64(correct) / float64(n), nil
}

// singleValue returns the one value recorded for (method, metric) in a single-repetition experiment.
func singleValue(res *run.Results, method, metric string) (float64, error) {
	rows := res.Where("", method, metric)
	if len(rows) != 1 {
		return 0, fmt.Errorf("%s: want one %s/%s value, have %d", res.ID, method, metric, len(rows))
	}
	return rows[0].Value, nil
}

// ringPointsByClass collects the recorded coordinates (metric names xName, yName) of each class.
func ringPointsByClass(res *run.Results, xName, yName string) (map[string][2][]float64, error) {
	out, err := kit.PointsByClass(res.Where("rings", "points", ""), xName, yName)
	if err != nil {
		return nil, fmt.Errorf("fig2_1: %w", err)
	}
	if len(out) != 2 {
		return nil, fmt.Errorf("fig2_1: want two classes, have %d", len(out))
	}
	return out, nil
}

// renderFig2_1 draws the three panels from the recorded points and separator.
func renderFig2_1(res *run.Results, out *run.Output) error {
	w := map[string]float64{}
	for _, name := range []string{"w_u", "w_v", "b"} {
		val, err := singleValue(res, "separator", name)
		if err != nil {
			return err
		}
		w[name] = val
	}
	classLabel := func(cls string) (string, int) {
		if v, _ := strconv.ParseFloat(cls, 64); v > 0 {
			return "class +1 (outer ring)", 1
		}
		return "class −1 (inner ring)", 0
	}
	scatter := func(title, xl, yl, xName, yName string) (*plot.Plot, error) {
		p := plotting.NewPrint(title, xl, yl)
		pts, err := ringPointsByClass(res, xName, yName)
		if err != nil {
			return nil, err
		}
		for _, cls := range []string{"-1", "1"} {
			label, i := classLabel(cls)
			if err := plotting.AddScatter(p, pts[cls][0], pts[cls][1], label, i); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
	a, err := scatter("input space: not separable", "x", "y", "x1", "x2")
	if err != nil {
		return err
	}
	b, err := scatter("feature space φ(x, y) = (x², y²)", "u = x²", "v = y²", "u", "v")
	if err != nil {
		return err
	}
	if w["w_v"] == 0 {
		return fmt.Errorf("fig2_1: degenerate separator (w_v = 0)")
	}
	uMax := b.X.Max
	us, vs := []float64{0, uMax}, []float64{-w["b"] / w["w_v"], -(w["b"] + w["w_u"]*uMax) / w["w_v"]}
	if err := plotting.AddLine(b, us, vs, separatorLabel, 2, false); err != nil {
		return err
	}
	b.Y.Min, b.Y.Max = 0, uMax
	c, err := scatter("separator pulled back", "x", "y", "x1", "x2")
	if err != nil {
		return err
	}
	// w_u x² + w_v y² + b = 0 is an ellipse with semi-axes √(−b/w_u) and √(−b/w_v).
	au, av := -w["b"]/w["w_u"], -w["b"]/w["w_v"]
	if au <= 0 || av <= 0 {
		return fmt.Errorf("fig2_1: the fitted separator is not an ellipse (−b/w_u = %g, −b/w_v = %g)", au, av)
	}
	const steps = 200
	ex, ey := make([]float64, steps+1), make([]float64, steps+1)
	for k := range ex {
		t := 2 * math.Pi * float64(k) / steps
		ex[k], ey[k] = math.Sqrt(au)*math.Cos(t), math.Sqrt(av)*math.Sin(t)
	}
	if err := plotting.AddLine(c, ex, ey, separatorLabel, 2, false); err != nil {
		return err
	}
	// Square data areas for the input space, so the rings look round; the legend goes below.
	for _, p := range []*plot.Plot{a, c} {
		r := 1.08 * max(-p.X.Min, p.X.Max, -p.Y.Min, p.Y.Max)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -r, r, -r, r
	}
	if err := kit.SavePrintRow(out, 5.6*vg.Centimeter, a, b, c); err != nil {
		return err
	}
	pts, err := ringPointsByClass(res, "x1", "x2")
	if err != nil {
		return err
	}
	accIn, err := singleValue(res, "linear-input", "accuracy")
	if err != nil {
		return err
	}
	accFeat, err := singleValue(res, "linear-feature", "accuracy")
	if err != nil {
		return err
	}
	return kit.WriteCaption(out, res, fmt.Sprintf(
		"A least-squares line classifies %.3f of the ring points correctly in the input space and %.3f after the feature map; "+
			"pulled back, the feature-space line is an ellipse with semi-axes %.2f and %.2f, between the rings' radii %g and %g.",
		accIn, accFeat, math.Sqrt(au), math.Sqrt(av), ringInner, ringOuter), fmt.Sprintf(
		"The kernel trick (thesis Figure 2.1), drawn from data instead of a schematic. "+
			"(a) Two rings of %d and %d points (radii %g and %g, Gaussian radial noise of sd %g), one draw. "+
			"(b) The points after φ(x, y) = (x², y²), with the line w_u·u + w_v·v + b = 0 fitted by least squares on the ±1 labels "+
			"(w_u = %.3g, w_v = %.3g, b = %.3g). (c) That line pulled back to the input space: the ellipse w_u·x² + w_v·y² + b = 0 "+
			"(the same separator, so one legend entry). The feature map and the least-squares fit are our choices. No repetitions, so no bands.",
		len(pts["-1"][0]), len(pts["1"][0]), ringInner, ringOuter, ringNoise, w["w_u"], w["w_v"], w["b"]))
}

// separatorLabel is the legend entry of the fitted separator, a line in (b) and an ellipse in (c).
const separatorLabel = "least-squares separator: a line in (b), an ellipse in (c)"
