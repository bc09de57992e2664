// Package styles is the catalogue's one style per method: every method (and reference line) of
// the experiments is drawn in one colour, marker and dash of lab/plotting's palette in every figure,
// registered here by the name the results table gives it (its Method column). Within the methods
// that appear together in a figure, any two differ in colour and in marker or dash, and a method's
// variant keeps the colour and changes both marker and dash, so every figure reads in colour, for
// colour-blind readers and in grey-scale print. The notebooks draw with it too, so a method looks
// the same there.
package styles

import (
	"fmt"
	"maps"
	"slices"

	"gonum.org/v1/plot"

	"github.com/fastkernels/kernellab/lab/plotting"
)

// entry is a registered style: a hue, a glyph and a dash of the palette.
type entry struct {
	hue   plotting.Hue
	glyph plotting.Glyph
	dash  plotting.Dash
}

// registry holds one style per method name. No two names share a style.
var registry = map[string]entry{
	// Chapter 3: ridge-leverage-score samplers. The thesis's method, DAC, is the solid circle.
	"dac":       {plotting.Vermillion, plotting.Circle, plotting.Solid},
	"recursive": {plotting.Blue, plotting.Box, plotting.Solid},
	// recursive-accelerated: dotted, so that in grey-scale print it does not pass for recursive's
	// solid line.
	"recursive-accelerated": {plotting.SkyBlue, plotting.OpenBox, plotting.Dotted},
	// recursive-own: the recursive sampler's authors' own pipeline (s = |S|, its own landmarks),
	// fig3_2's diagnostic curve; a variant of recursive, so its colour with another marker and dash.
	// Its star is a marker no method's curve has, so that the diagnostic reads as no method.
	"recursive-own": {plotting.Blue, plotting.Star, plotting.Dashed},
	"uniform-rls":   {plotting.Green, plotting.Triangle, plotting.DashDot},
	"uniform":       {plotting.Orange, plotting.Diamond, plotting.Dotted},
	// The exact computation (exact RLS in chapter 3, exact MMD in chapter 4): the reference.
	"exact": {plotting.Black, plotting.Cross, plotting.Dashed},

	// Chapter 4: MMD estimators; Nyström is the same method in the course figures.
	"nystrom": {plotting.Blue, plotting.Circle, plotting.Solid},
	"rff":     {plotting.SkyBlue, plotting.Triangle, plotting.LongDash},
	"block":   {plotting.Green, plotting.Diamond, plotting.DashDot},
	"linear":  {plotting.Purple, plotting.DownTriangle, plotting.Dotted},

	// Course: low-rank approximations and PCA.
	"meka":                {plotting.Vermillion, plotting.Box, plotting.Solid},
	"meka-all-rows":       {plotting.Vermillion, plotting.OpenBox, plotting.Dashed},    // links fitted on every row of a cluster
	"meka-eta0":           {plotting.Vermillion, plotting.OpenCircle, plotting.Dotted}, // η = 0: no off-diagonal block dropped
	"bka":                 {plotting.Orange, plotting.Triangle, plotting.DashDot},
	"best-rank-k":         {plotting.Black, plotting.Plus, plotting.Dotted},
	"best-rank-k-heldout": {plotting.DarkGrey, plotting.Plus, plotting.DashDot},
	"nystrom-train":       {plotting.Blue, plotting.OpenCircle, plotting.Dashed},
	"nystrom-heldout":     {plotting.SkyBlue, plotting.DownTriangle, plotting.Solid},
	"pca":                 {plotting.Orange, plotting.Box, plotting.Dashed},
	"kernel-pca":          {plotting.Purple, plotting.Diamond, plotting.Solid},

	// Chapter 5: sparse solvers.
	"mp":  {plotting.Green, plotting.DownTriangle, plotting.Dashed},
	"omp": {plotting.Blue, plotting.Diamond, plotting.Solid},
	"fw":  {plotting.Orange, plotting.Box, plotting.Solid},

	// Chapter 6: forest pruning. OMP keeps chapter 5's blue; the thesis's key comparison, OMP
	// against OMP w/o weights, sets it against orange, the palette's most distinct colour from blue
	// for every kind of colour vision (so the unweighted variant breaks the "variant keeps its
	// colour" rule on purpose). Random, the baseline every method is held against, is neutral grey.
	"omp-unweighted":    {plotting.Orange, plotting.OpenDiamond, plotting.Dashed},
	"nn-omp":            {plotting.Vermillion, plotting.Triangle, plotting.Solid},
	"nn-omp-unweighted": {plotting.Vermillion, plotting.OpenTriangle, plotting.Dashed},
	"random":            {plotting.DarkGrey, plotting.Cross, plotting.LongDash},
	"caruana":           {plotting.Green, plotting.Box, plotting.DashDot},
	"zhang-predictions": {plotting.Purple, plotting.Circle, plotting.LongDash},
	"zhang-similarity":  {plotting.Purple, plotting.OpenCircle, plotting.Dotted},
	"kmeans":            {plotting.SkyBlue, plotting.DownTriangle, plotting.DashDot},
	// nn-omp-stop: where NN-OMP stopped by itself, a star as in the thesis; black, not the
	// vermillion of NN-OMP's own markers, so that it stands out on NN-OMP's curve.
	"nn-omp-stop": {plotting.Black, plotting.Star, plotting.Solid},

	// Student slides: factorisations before KNN and the topic model.
	"classic-svd":    {plotting.Black, plotting.Plus, plotting.Dashed},
	"randomized-svd": {plotting.Vermillion, plotting.DownTriangle, plotting.Solid},
	"sparse-pca":     {plotting.Green, plotting.Box, plotting.Dotted},
	"bayesian-pca":   {plotting.Blue, plotting.Triangle, plotting.LongDash},
	// raw-pixels and guarantor: the slides' references (KNN without factorisation, the topic
	// model on the original counts).
	"raw-pixels": {plotting.DarkGrey, plotting.OpenBox, plotting.Dotted},
	"guarantor":  {plotting.Purple, plotting.OpenDiamond, plotting.Dotted},

	// Reference lines: neutral black and grey, no marker.
	"full-forest":    {plotting.Black, plotting.NoGlyph, plotting.Dashed},
	"bound":          {plotting.Black, plotting.NoGlyph, plotting.DashDot},
	"majority-class": {plotting.DarkGrey, plotting.NoGlyph, plotting.Dotted},
	// mean-target: a regression's no-feature baseline, predicting the training mean; solid, so that
	// it is not read as exact RLS's black dashed line of the same figure (fig3_5).
	"mean-target": {plotting.Black, plotting.NoGlyph, plotting.Solid},
	"chance":      {plotting.DarkGrey, plotting.NoGlyph, plotting.Dashed},
	"slope":       {plotting.DarkGrey, plotting.NoGlyph, plotting.LongDash},
	"identity":    {plotting.DarkGrey, plotting.NoGlyph, plotting.DashDot},
}

// aliases are other spellings of registered names.
var aliases = map[string]string{
	"nyström":     "nystrom",
	"best rank-k": "best-rank-k",
	"kernel pca":  "kernel-pca",
	"exact-rls":   "exact",
	"exact-mmd":   "exact",
	"ensemble":    "caruana",
	"k-means":     "kmeans",
}

// Of returns the registered style of a method (or reference line) name, and an error that says
// how to fix an unknown name: a new method gets its style once, here, instead of whatever colour
// its position in one figure would give it. The style's dash slice is the caller's own.
func Of(name string) (plotting.SeriesStyle, error) {
	if canonical, ok := aliases[name]; ok {
		name = canonical
	}
	e, ok := registry[name]
	if !ok {
		return plotting.SeriesStyle{}, fmt.Errorf("styles: method %q is not registered: add its style to the registry in experiments/styles", name)
	}
	return plotting.Style(e.hue, e.glyph, e.dash)
}

// Names returns the registered method and reference names, sorted (aliases excluded).
func Names() []string { return slices.Sorted(maps.Keys(registry)) }

// Band returns a band of the given label in the style of method; fill in its points.
func Band(label, method string) (plotting.Band, error) {
	s, err := Of(method)
	if err != nil {
		return plotting.Band{}, err
	}
	return plotting.Band{Label: label, Style: &s}, nil
}

// AddLine is [plotting.AddStyledLine] in the style of method.
func AddLine(p *plot.Plot, x, y []float64, label, method string) error {
	s, err := Of(method)
	if err != nil {
		return fmt.Errorf("styles: line %q: %w", label, err)
	}
	return plotting.AddStyledLine(p, x, y, label, s)
}

// AddScatter is [plotting.AddStyledScatter] in the style of method.
func AddScatter(p *plot.Plot, x, y []float64, label, method string) error {
	s, err := Of(method)
	if err != nil {
		return fmt.Errorf("styles: scatter %q: %w", label, err)
	}
	return plotting.AddStyledScatter(p, x, y, label, s)
}

// AddHLine is [plotting.AddStyledHLine] in the style of method.
func AddHLine(p *plot.Plot, y float64, label, method string) error {
	s, err := Of(method)
	if err != nil {
		return fmt.Errorf("styles: horizontal line %q: %w", label, err)
	}
	return plotting.AddStyledHLine(p, y, label, s)
}
