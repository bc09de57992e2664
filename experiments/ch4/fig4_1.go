package ch4

import (
	"context"
	"fmt"
	"math"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// The example of fig4_1: a discrete distribution on two points of the real line, a Gaussian kernel.
const (
	fig4_1Dataset = "two-points"
	fig4_1Sigma   = 1.0
	// fig4_1CurveSteps is the number of steps of the embedding's curve over the line.
	fig4_1CurveSteps = 200
)

// fig4_1Points and fig4_1Weights are V = {a, b} and the probabilities of P on them.
var (
	fig4_1Points  = [2]float64{0, 1.5}
	fig4_1Weights = [2]float64{0.3, 0.7}
)

// fig4_1Vectors names the elements of H that panel (b) draws, in recording order: the Diracs δ(a),
// δ(b), the kernel functions k(a, ·), k(b, ·), the distribution P = Σ pᵢ δ(aᵢ) and its embedding
// μ = Σ pᵢ k(aᵢ, ·).
var fig4_1Vectors = []string{"dirac-a", "dirac-b", "kernel-a", "kernel-b", "distribution", "embedding"}

// fig4_1 — a discrete distribution in the discrete RKHS (thesis §4.4, Figure 4.1), drawn from a small
// example rather than as clip art. V = {a, b} = {0, 1.5} with the Gaussian kernel of σ = 1: its Gram
// matrix K is invertible, so every Dirac δ(x) is in the RKHS H of functions on V (Theorem 2), whose
// inner product is ⟨f, g⟩_H = fᵀK⁻¹g; δ(aᵢ) is the i-th unit vector and k(aᵢ, ·) the i-th column of K.
// In the coordinates f ↦ K^(−1/2) f, where that inner product is the Euclidean one, H is a plane:
// panel (b) draws the Diracs (dashed, as the thesis does), the distribution P = 0.3 δ(a) + 0.7 δ(b)
// as their combination, the kernel functions and the kernel mean embedding μ = 0.3 k(a, ·) + 0.7 k(b,
// ·), the image of P under the operator O_k of §4.4 that gives the MMD. Panel (a) shows P as weighted
// Diracs on the line and μ as a function of x. No randomness, no claim (it illustrates a definition);
// the figure is the same at every scale.
func fig4_1() *run.Experiment {
	return &run.Experiment{
		ID: "fig4_1", Title: "A discrete distribution and its kernel mean embedding in the discrete RKHS", Kind: run.Figure, Seed: 4001,
		Plan: func(run.Scale) ([]run.Task, error) {
			return []run.Task{{Key: "two-points", Run: func(context.Context, *run.Env) ([]run.Record, error) {
				return fig4_1Records(fig4_1Points, fig4_1Weights, fig4_1Sigma)
			}}}, nil
		},
		Render: renderFig4_1,
	}
}

// fig4_1Records computes the example: the points and weights, the Gram matrix, the coordinates of
// the elements of H in fig4_1Vectors (K^(−1/2) f, from the eigen-decomposition of K) and the
// embedding μ(x) = Σ pᵢ k(aᵢ, x) on a grid of the line.
func fig4_1Records(points, weights [2]float64, sigma float64) ([]run.Record, error) {
	if !(sigma > 0) || points[0] == points[1] || math.Abs(weights[0]+weights[1]-1) > 1e-12 || weights[0] < 0 || weights[1] < 0 {
		return nil, fmt.Errorf("fig4_1: points %v, weights %v, σ = %g: want two distinct points, probabilities summing to 1, σ > 0", points, weights, sigma)
	}
	k := func(x, z float64) float64 { return math.Exp(-(x - z) * (x - z) / (2 * sigma * sigma)) }
	K := mat.NewSymDense(2, []float64{1, k(points[0], points[1]), k(points[0], points[1]), 1})
	var eig mat.EigenSym
	if !eig.Factorize(K, true) {
		return nil, fmt.Errorf("fig4_1: eigen-decomposition of the Gram matrix failed")
	}
	vals := eig.Values(nil)
	if vals[0] <= 0 {
		return nil, fmt.Errorf("fig4_1: Gram matrix not positive definite (eigenvalues %v)", vals)
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	// power is K^t = V diag(λ^t) Vᵀ.
	power := func(t float64) *mat.Dense {
		d := mat.NewDiagDense(2, []float64{math.Pow(vals[0], t), math.Pow(vals[1], t)})
		var out, tmp mat.Dense
		tmp.Mul(&vecs, d)
		out.Mul(&tmp, vecs.T())
		return &out
	}
	invHalf, half := power(-0.5), power(0.5)
	p := mat.NewVecDense(2, weights[:])
	coords := map[string]*mat.VecDense{}
	for i, name := range []string{"a", "b"} {
		coords["dirac-"+name] = mat.VecDenseCopyOf(invHalf.ColView(i)) // K^(−1/2) eᵢ
		coords["kernel-"+name] = mat.VecDenseCopyOf(half.ColView(i))   // K^(−1/2) K eᵢ = K^(1/2) eᵢ
	}
	coords["distribution"], coords["embedding"] = &mat.VecDense{}, &mat.VecDense{}
	coords["distribution"].MulVec(invHalf, p)
	coords["embedding"].MulVec(half, p)

	var recs []run.Record
	for i, name := range []string{"a", "b"} {
		params := []run.Param{run.P("point", name)}
		recs = append(recs,
			run.Record{Dataset: fig4_1Dataset, Method: "points", Params: params, Metric: "x", Value: points[i]},
			run.Record{Dataset: fig4_1Dataset, Method: "points", Params: params, Metric: "p", Value: weights[i]})
	}
	recs = append(recs, run.Record{Dataset: fig4_1Dataset, Method: "kernel", Metric: "sigma", Value: sigma})
	for _, name := range fig4_1Vectors {
		for j, axis := range []string{"u", "v"} {
			recs = append(recs, run.Record{Dataset: fig4_1Dataset, Method: "vectors", Params: []run.Param{run.P("element", name)}, Metric: axis, Value: coords[name].AtVec(j)})
		}
	}
	lo, hi := points[0]-3*sigma, points[1]+3*sigma
	for s := range fig4_1CurveSteps + 1 {
		x := lo + (hi-lo)*float64(s)/fig4_1CurveSteps
		recs = append(recs, run.Record{Dataset: fig4_1Dataset, Method: "embedding-curve", Params: []run.Param{run.P("x", x)}, Metric: "mu",
			Value: weights[0]*k(points[0], x) + weights[1]*k(points[1], x)})
	}
	return recs, nil
}

// fig4_1Example is the example as recorded: the points and weights, σ, and the coordinates of the
// elements of H.
type fig4_1Example struct {
	points, weights [2]float64
	sigma           float64
	coords          map[string][2]float64
}

// fig4_1Read reads the recorded example back, with an error when a value is missing.
func fig4_1Read(res *run.Results) (fig4_1Example, error) {
	ex := fig4_1Example{coords: map[string][2]float64{}}
	got := map[string]bool{}
	for _, r := range res.Where(fig4_1Dataset, "points", "") {
		name, _ := r.Param("point")
		i := map[string]int{"a": 0, "b": 1}[name]
		switch r.Metric {
		case "x":
			ex.points[i] = r.Value
		case "p":
			ex.weights[i] = r.Value
		}
		got[name+"/"+r.Metric] = true
	}
	for _, r := range res.Where(fig4_1Dataset, "kernel", "sigma") {
		ex.sigma, got["sigma"] = r.Value, true
	}
	for _, r := range res.Where(fig4_1Dataset, "vectors", "") {
		name, _ := r.Param("element")
		c := ex.coords[name]
		c[map[string]int{"u": 0, "v": 1}[r.Metric]] = r.Value
		ex.coords[name] = c
		got[name+"/"+r.Metric] = true
	}
	want := []string{"a/x", "a/p", "b/x", "b/p", "sigma"}
	for _, name := range fig4_1Vectors {
		want = append(want, name+"/u", name+"/v")
	}
	for _, w := range want {
		if !got[w] {
			return ex, fmt.Errorf("%s: no recorded %s", res.ID, w)
		}
	}
	return ex, nil
}

// dot and norm are the Euclidean inner product and norm of the recorded coordinates, which are H's.
func dot(u, v [2]float64) float64 { return u[0]*v[0] + u[1]*v[1] }
func norm(u [2]float64) float64   { return math.Sqrt(dot(u, u)) }

// fig4_1Result is the caption's lead, computed from the drawn coordinates: the Diracs' norms and
// angle, the norms of P and μ, and the reproducing property ⟨δ(aᵢ), k(aⱼ, ·)⟩_H = 1 if i = j, else 0.
func fig4_1Result(ex fig4_1Example) string {
	c := ex.coords
	da, db, ka, kb := c["dirac-a"], c["dirac-b"], c["kernel-a"], c["kernel-b"]
	angle := math.Acos(dot(da, db)/(norm(da)*norm(db))) * 180 / math.Pi
	return fmt.Sprintf("In H, the Diracs δ(a), δ(b) have norms %.3f and %.3f and meet at %.0f°; P = %g δ(a) + %g δ(b) has norm %.3f and its embedding μ = %g k(a, ·) + %g k(b, ·) norm %.3f. "+
		"Each Dirac is orthogonal to the other point's kernel function (⟨δ(a), k(b, ·)⟩ = %.3f) and ⟨δ(a), k(a, ·)⟩ = %.3f: the reproducing property δ(a)(x) = ⟨δ(a), k(x, ·)⟩, read off the drawn vectors.",
		norm(da), norm(db), angle, ex.weights[0], ex.weights[1], norm(c["distribution"]), ex.weights[0], ex.weights[1], norm(c["embedding"]),
		rounded(dot(da, kb)), rounded(dot(da, ka)))
}

// rounded is v to three decimals, with a rounding error around 0 printed as 0.000, not −0.000.
func rounded(v float64) float64 { return math.Round(v*1000)/1000 + 0 }

// renderFig4_1 draws (a) P on the line with its embedding μ(x), and (b) the elements of H as vectors
// from the origin, in equal aspect so that lengths and angles are H's.
func renderFig4_1(res *run.Results, out *run.Output) error {
	ex, err := fig4_1Read(res)
	if err != nil {
		return err
	}
	var xs, mus []float64
	for _, r := range res.Where(fig4_1Dataset, "embedding-curve", "mu") {
		x, err := r.ParamFloat("x")
		if err != nil {
			return err
		}
		xs, mus = append(xs, x), append(mus, r.Value)
	}
	if len(xs) < 2 {
		return fmt.Errorf("%s: %d points of the embedding's curve, want 2 or more", res.ID, len(xs))
	}
	w := ex.weights
	pLabel := fmt.Sprintf("distribution P = %g δ(a) + %g δ(b)", w[0], w[1])
	muLabel := fmt.Sprintf("embedding μ = %g k(a, ·) + %g k(b, ·)", w[0], w[1])
	// Colours: the distribution and the Diracs in blue (0), the kernel side in green (2).
	a := plotting.NewPrint(fmt.Sprintf("on the line: a = %g, b = %g", ex.points[0], ex.points[1]), "x", "mass / function value")
	for i := range 2 {
		if err := plotting.AddLine(a, []float64{ex.points[i], ex.points[i]}, []float64{0, w[i]}, pLabel, 0, false); err != nil {
			return err
		}
	}
	if err := plotting.AddScatter(a, ex.points[:], w[:], pLabel, 0); err != nil {
		return err
	}
	if err := plotting.AddLine(a, xs, mus, muLabel, 2, false); err != nil {
		return err
	}
	a.Y.Min = 0
	b := plotting.NewPrint("in the RKHS H of V = {a, b}", "H coordinate 1", "H coordinate 2")
	for _, v := range []struct {
		elements []string
		label    string
		colour   int
		dashed   bool
	}{
		{[]string{"dirac-a", "dirac-b"}, "Diracs δ(a), δ(b)", 0, true},
		{[]string{"kernel-a", "kernel-b"}, "kernel functions k(a, ·), k(b, ·)", 2, true},
		{[]string{"distribution"}, pLabel, 0, false},
		{[]string{"embedding"}, muLabel, 2, false},
	} {
		var tipX, tipY []float64
		for _, e := range v.elements {
			c := ex.coords[e]
			if err := plotting.AddLine(b, []float64{0, c[0]}, []float64{0, c[1]}, v.label, v.colour, v.dashed); err != nil {
				return err
			}
			tipX, tipY = append(tipX, c[0]), append(tipY, c[1])
		}
		if !v.dashed {
			if err := plotting.AddScatter(b, tipX, tipY, v.label, v.colour); err != nil {
				return err
			}
		}
	}
	var names []textLabel
	for _, n := range []struct {
		element, text string
		colour        int
	}{{"dirac-a", "δ(a)", 0}, {"dirac-b", "δ(b)", 0}, {"kernel-a", "k(a, ·)", 2}, {"kernel-b", "k(b, ·)", 2}, {"distribution", "P", 0}, {"embedding", "μ", 2}} {
		c := ex.coords[n.element]
		names = append(names, textLabel{c[0], c[1], n.text, n.colour, draw.YCenter})
	}
	if err := addTextLabels(b, names); err != nil {
		return err
	}
	// Equal aspect: the same range on both axes of a nearly square data area (the panel is about
	// as high as it is wide), so that lengths and angles in (b) are H's.
	lo, hi := min(0, b.X.Min, b.Y.Min), max(b.X.Max, b.Y.Max)
	pad := 0.08 * (hi - lo)
	b.X.Min, b.X.Max, b.Y.Min, b.Y.Max = lo-pad, hi+pad, lo-pad, hi+pad
	if err := kit.SavePrintRow(out, plotting.PageWidth/2, []*plot.Plot{a, b}...); err != nil {
		return err
	}
	return kit.WriteCaption(out, res, fig4_1Result(ex), fmt.Sprintf(
		"A discrete distribution in the discrete RKHS (thesis Figure 4.1, §4.4), drawn from a two-point example. "+
			"V = {a, b} = {%g, %g}, Gaussian kernel of σ = %g; its Gram matrix K is invertible, so every Dirac is in the RKHS H of "+
			"functions on V (Theorem 2), with ⟨f, g⟩_H = fᵀK⁻¹g. (a) P as weighted Diracs on the line (stems, heights %g and %g) "+
			"and its kernel mean embedding μ(x) = Σ pᵢ k(aᵢ, x) as a function of x. (b) H in the coordinates f ↦ K^(−1/2) f, "+
			"where its inner product is the Euclidean one (equal aspect): the Diracs dashed, as in the thesis, P = Σ pᵢ δ(aᵢ) as their "+
			"combination, the kernel functions k(aᵢ, ·) and μ = Σ pᵢ k(aᵢ, ·), the image of P under the operator O_k of §4.4 that gives the MMD. "+
			"The example (points, σ, weights) is our choice; no randomness, the same at every scale.",
		ex.points[0], ex.points[1], ex.sigma, w[0], w[1]))
}
