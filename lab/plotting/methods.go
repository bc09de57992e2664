package plotting

import (
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SeriesStyle is how one method is drawn in every figure of the catalogue: its colour, its
// marker (nil for none: reference lines) and its dash pattern (nil for a solid line). Dashes are
// given for the screen style; print plots scale them with their line widths.
type SeriesStyle struct {
	Color  color.Color
	Marker draw.GlyphDrawer
	Dashes []vg.Length
}

// Dash patterns of the registry: each reads differently in grey-scale print.
var (
	solid    []vg.Length
	dashed   = dashes
	dotted   = []vg.Length{vg.Points(1.2), vg.Points(2.2)}
	dashDot  = []vg.Length{vg.Points(6), vg.Points(2.2), vg.Points(1.2), vg.Points(2.2)}
	longDash = []vg.Length{vg.Points(10), vg.Points(3)}
)

// Neutral colours of reference lines (a bound, a slope, the majority-class rate, the full forest):
// they must not compete with the methods' colours.
var (
	black    = okabeIto[6]
	darkGrey = color.NRGBA{R: 0x59, G: 0x59, B: 0x59, A: 0xff}
)

// Okabe–Ito colours by name, for the registry below.
var (
	blue       = okabeIto[0]
	vermillion = okabeIto[1]
	green      = okabeIto[2]
	purple     = okabeIto[3]
	orange     = okabeIto[4]
	skyBlue    = okabeIto[5]
)

// Open markers of the registry, the outlined twins of the filled ones: a method's variant (the
// unweighted OMP, the held-out curve) keeps its colour and swaps its filled marker for the open
// one, and its solid line for a dashed one.
var (
	circle       = markers[0]
	box          = markers[1]
	triangle     = markers[2]
	diamond      = markers[3]
	downTriangle = markers[4]
	cross        = markers[5]
	plus         = markers[6]
	openBox      = markers[7]
	openCircle   = outline(12, func(k int) vg.Point {
		s, c := math.Sincos(2 * math.Pi * float64(k) / 12)
		return vg.Point{X: vg.Length(1.05 * c), Y: vg.Length(1.05 * s)}
	})
	openTriangle = outline(3, func(k int) vg.Point { return triangleVertices[k] })
	openDiamond  = outline(4, func(k int) vg.Point { return diamondVertices[k] })
)

// star is a filled five-pointed star (outer radius 1.6, inner 0.65), larger than the other
// markers because it marks one point (NN-OMP's stopping point, drawn as the thesis does).
var star = func() shapeGlyph {
	g := shapeGlyph{}
	for k := range 10 {
		r := 1.6
		if k%2 == 1 {
			r = 0.65
		}
		s, c := math.Sincos(math.Pi/2 + math.Pi*float64(k)/5)
		g.points = append(g.points, vg.Point{X: vg.Length(r * c), Y: vg.Length(r * s)})
	}
	return g
}()

// Vertices of the open triangle and diamond, for a unit radius, as the filled ones.
var (
	triangleVertices = []vg.Point{{X: 0, Y: 1.3}, {X: 1.13, Y: -0.65}, {X: -1.13, Y: -0.65}}
	diamondVertices  = []vg.Point{{X: 0, Y: 1.25}, {X: 1.05, Y: 0}, {X: 0, Y: -1.25}, {X: -1.05, Y: 0}}
)

// outline is the closed polygon through n unit-radius vertices, drawn as a stroked shapeGlyph.
func outline(n int, vertex func(k int) vg.Point) shapeGlyph {
	g := shapeGlyph{stroked: true}
	for k := range n {
		g.points = append(g.points, vertex(k), vertex((k+1)%n))
	}
	return g
}

// methodStyles is the registry: one style per method name, as the experiments write it in the
// results table (the Method column). Within each figure group (a chapter's methods, see
// methodGroups in methods_test.go) any two methods differ in colour and in marker or dash, and a
// method's variant keeps the colour and changes both marker and dash, so every figure reads in
// colour, for colour-blind readers and in grey-scale print. No two names share a style.
var methodStyles = map[string]SeriesStyle{
	// Chapter 3: ridge-leverage-score samplers. The thesis's method, DAC, is the solid circle.
	"dac":                   {vermillion, circle, solid},
	"recursive":             {blue, box, solid},
	"recursive-accelerated": {skyBlue, openBox, longDash},
	// recursive-own: the recursive sampler's authors' own pipeline (s = |S|, its own landmarks),
	// fig3_2's diagnostic curve; a variant of recursive, so its colour with another marker and dash.
	"recursive-own": {blue, openBox, dashed},
	"uniform-rls":   {green, triangle, dashDot},
	"uniform":       {orange, diamond, dotted},
	// The exact computation (exact RLS in chapter 3, exact MMD in chapter 4): the reference.
	"exact": {black, cross, dashed},

	// Chapter 4: MMD estimators; Nyström is the same method in the course figures.
	"nystrom": {blue, circle, solid},
	"rff":     {skyBlue, triangle, longDash},
	"block":   {green, diamond, dashDot},
	"linear":  {purple, downTriangle, dotted},

	// Course: low-rank approximations and PCA.
	"meka":                {vermillion, box, solid},
	"meka-all-rows":       {vermillion, openBox, dashed},    // links fitted on every row of a cluster
	"meka-eta0":           {vermillion, openCircle, dotted}, // η = 0: no off-diagonal block dropped
	"bka":                 {orange, triangle, dashDot},
	"best-rank-k":         {black, plus, dotted},
	"best-rank-k-heldout": {darkGrey, plus, dashDot},
	"nystrom-train":       {blue, openCircle, dashed},
	"nystrom-heldout":     {skyBlue, downTriangle, solid},
	"pca":                 {orange, box, dashed},
	"kernel-pca":          {purple, diamond, solid},

	// Chapter 5: sparse solvers.
	"mp":  {green, downTriangle, dashed},
	"omp": {blue, diamond, solid},
	"fw":  {orange, box, solid},

	// Chapter 6: forest pruning.
	"omp-unweighted":    {blue, openDiamond, dashed},
	"nn-omp":            {vermillion, triangle, solid},
	"nn-omp-unweighted": {vermillion, openTriangle, dashed},
	"random":            {orange, cross, dotted},
	"caruana":           {green, box, dashDot},
	"zhang-predictions": {purple, circle, longDash},
	"zhang-similarity":  {purple, openCircle, dotted},
	"kmeans":            {skyBlue, downTriangle, dashDot},
	// nn-omp-stop: where NN-OMP stopped by itself, a star as in the thesis (vermillion is its red).
	"nn-omp-stop": {vermillion, star, solid},

	// Student slides: factorisations before KNN and the topic model.
	"classic-svd":    {black, plus, dashed},
	"randomized-svd": {vermillion, downTriangle, solid},
	"sparse-pca":     {green, box, dotted},
	"bayesian-pca":   {blue, triangle, longDash},
	// raw-pixels and guarantor: the slides' references (KNN without factorisation, the topic
	// model on the original counts).
	"raw-pixels": {darkGrey, openBox, dotted},
	"guarantor":  {purple, openDiamond, dotted},

	// Reference lines: neutral black and grey, no marker.
	"full-forest":    {black, nil, dashed},
	"bound":          {black, nil, dashDot},
	"majority-class": {darkGrey, nil, dotted},
	// mean-target: a regression's no-feature baseline, predicting the training mean.
	"mean-target": {black, nil, longDash},
	"chance":      {darkGrey, nil, dashed},
	"slope":       {darkGrey, nil, longDash},
	"identity":    {darkGrey, nil, dashDot},
}

// methodAliases are other spellings of registered methods.
var methodAliases = map[string]string{
	"nyström":     "nystrom",
	"best rank-k": "best-rank-k",
	"kernel pca":  "kernel-pca",
	"exact-rls":   "exact",
	"exact-mmd":   "exact",
	"ensemble":    "caruana",
	"k-means":     "kmeans",
}

// MethodStyle returns the registered style of a method (or reference line) name, and false for a
// name that is not registered. Every figure draws a method in this style, so that a method has
// one colour, marker and dash across the whole catalogue.
func MethodStyle(name string) (SeriesStyle, bool) {
	if canonical, ok := methodAliases[name]; ok {
		name = canonical
	}
	s, ok := methodStyles[name]
	if !ok {
		return SeriesStyle{}, false
	}
	s.Dashes = slices.Clone(s.Dashes)
	return s, true
}

// Methods returns the registered method and reference names, sorted (aliases excluded).
func Methods() []string { return slices.Sorted(maps.Keys(methodStyles)) }

// methodStyle is MethodStyle with an error that says how to fix an unknown name: series styled by
// method must use a registered name, so that a new method gets its style once, here, instead of
// whatever colour its position in a figure would give it.
func methodStyle(name string) (SeriesStyle, error) {
	s, ok := MethodStyle(name)
	if !ok {
		return s, fmt.Errorf("method %q is not registered: add its style to methodStyles in lab/plotting/methods.go", name)
	}
	return s, nil
}
