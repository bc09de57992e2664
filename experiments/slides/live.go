package slides

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/learn"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/plotting"
)

// The live figures of the course notebook (issue 36) work on the Olivetti faces of its sections
// 3–5 rather than on experiment 1's LFW: 400 images of 40 people load in a fraction of a second,
// so that every figure is ready in seconds, and ten images per person make 1-NN identification
// (who is this?) a clear measure of what a rank-k projection keeps.
const (
	liveFaces = "faces_olivetti"
	// liveBlock averages 2×2 pixel blocks: 56×46 images, sharp enough to recognise a face.
	liveBlock = 2
	// liveMaxRank and liveRank are FacesLive's largest rank and its default; liveShown is the
	// training image it draws.
	liveMaxRank = 100
	liveRank    = 20
	liveShown   = 0
	// liveSparseComponents and liveSparseIterations are SparseBasisLive's sparse PCA: the basis
	// images of slides_fig2 and of the notebook's section 4, with its alternations.
	liveSparseComponents = 6
	liveSparseIterations = 30
)

// liveSparsePenalties is SparseBasisLive's grid of λ/‖A‖_F, logarithmic (1, 2, 5 per decade): from
// a few zero pixels at its start (the experiments' 0.004 lies between its first two values) to
// most components switched off at its end. liveSparseDefault is the position of its default, the
// notebook's section 4 penalty 0.02.
var (
	liveSparsePenalties = []float64{0.002, 0.005, 0.01, 0.02, 0.05, 0.1}
	liveSparseDefault   = 3
)

// liveFaceSet is the faces of the live figures: each image normalised to mean 0 and standard
// deviation 1 (standardiseImages, as experiment 1 does), split half and half per person into
// training and test images, and centred on the mean of the training images.
type liveFaceSet struct {
	train, test   *mat.Dense
	ytrain, ytest []float64 // the person, numbered from 0
	mean          []float64 // of the training images
	height, width int
}

// loadLiveFaces loads and prepares the faces of the live figures; seed draws the split.
func loadLiveFaces(ctx context.Context, src dataset.Source, seed uint64) (*liveFaceSet, error) {
	f, err := src.Faces(ctx, liveFaces, liveBlock)
	if err != nil {
		return nil, err
	}
	if err := standardiseImages(f.Pixels); err != nil {
		return nil, err
	}
	person := make([]float64, len(f.Person))
	for i := 1; i < len(person); i++ { // the loader sorts images by person
		person[i] = person[i-1]
		if f.Person[i] != f.Person[i-1] {
			person[i]++
		}
	}
	parts, err := dataset.StratifiedSplit(rand.New(rand.NewPCG(seed, 1)), person, 0.5, 0.5)
	if err != nil {
		return nil, err
	}
	s := &liveFaceSet{height: f.Height, width: f.Width}
	pick := func(idx []int) (*mat.Dense, []float64) {
		y := make([]float64, len(idx))
		for i, j := range idx {
			y[i] = person[j]
		}
		return kit.SelectRows(f.Pixels, idx), y
	}
	s.train, s.ytrain = pick(parts[0])
	s.test, s.ytest = pick(parts[1])
	n, d := s.train.Dims()
	s.mean = make([]float64, d)
	for i := range n {
		floats.AddScaled(s.mean, 1/float64(n), s.train.RawRowView(i))
	}
	for _, m := range []*mat.Dense{s.train, s.test} {
		r, _ := m.Dims()
		for i := range r {
			floats.Sub(m.RawRowView(i), s.mean)
		}
	}
	return s, nil
}

// image is the image of d pixels v (row-major) plus, if mean is not nil, the training mean.
func (s *liveFaceSet) image(v, mean []float64) *mat.Dense {
	img := mat.NewDense(s.height, s.width, append([]float64(nil), v...))
	if mean != nil {
		floats.Add(img.RawMatrix().Data, mean)
	}
	return img
}

// FacesLive is the live figure of the rank of a PCA for the course notebook (notebook.Live): its
// one control is the rank k, and it draws one training face beside its rank-k reconstruction and
// the test accuracy of 1-NN identification on the first k principal coordinates against k, with
// 1-NN on all pixels as a horizontal line and the current k marked. NewFacesLive computes the SVD
// of the centred training images and the whole accuracy curve once; a redraw projects one face.
type FacesLive struct {
	faces    *liveFaceSet
	svd      *fit      // the thin SVD of the centred training images: all its components
	accuracy []float64 // accuracy[k-1]: 1-NN test accuracy on k principal coordinates
	raw      float64   // 1-NN test accuracy on all pixels
}

// NewFacesLive loads the faces (from src, split by seed), computes the thin SVD of the centred
// training images, the classic SVD of the slides, and the 1-NN test accuracy on the first k
// coordinates for every k of the slider (each test image given the person of its nearest
// training image): about a second on two cores.
func NewFacesLive(ctx context.Context, src dataset.Source, seed uint64) (*FacesLive, error) {
	s, err := loadLiveFaces(ctx, src, seed)
	if err != nil {
		return nil, err
	}
	n, d := s.train.Dims()
	svd, err := svdFit(factor.TruncatedSVD(s.train, min(n, d)))
	if err != nil {
		return nil, fmt.Errorf("slides: live figure: %w", err)
	}
	l := &FacesLive{faces: s, svd: svd}
	kmax := min(liveMaxRank, len(svd.values))
	ztr, err := svd.coordinates(s.train, kmax)
	if err != nil {
		return nil, err
	}
	zte, err := svd.coordinates(s.test, kmax)
	if err != nil {
		return nil, err
	}
	nte, _ := zte.Dims()
	for k := 1; k <= kmax; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		acc, err := nearestAccuracy(ztr.Slice(0, n, 0, k), s.ytrain, zte.Slice(0, nte, 0, k), s.ytest)
		if err != nil {
			return nil, err
		}
		l.accuracy = append(l.accuracy, acc)
	}
	if l.raw, err = nearestAccuracy(s.train, s.ytrain, s.test, s.ytest); err != nil {
		return nil, err
	}
	return l, nil
}

// nearestAccuracy is the accuracy on (test, ytest) of 1-NN with the training points (train, y).
func nearestAccuracy(train mat.Matrix, y []float64, test mat.Matrix, ytest []float64) (float64, error) {
	knn, err := learn.FitKNN(train, y, 1)
	if err != nil {
		return 0, err
	}
	pred, err := knn.Predict(test)
	if err != nil {
		return 0, err
	}
	return learn.Accuracy(ytest, pred)
}

// Controls returns the live figure's one control, the rank k: from 1 to 100 (or the rank of the
// training images, if smaller), 20 by default.
func (l *FacesLive) Controls() []notebook.Control {
	if l == nil || len(l.accuracy) == 0 {
		return nil
	}
	return []notebook.Control{{Label: "rank k", Min: 1, Max: len(l.accuracy), Value: min(liveRank, len(l.accuracy))}}
}

// reconstruction returns the shown face and its rank-k reconstruction mean + (x − mean)·V_k·V_kᵀ,
// as images; k may be any rank of the SVD, up to the number of training images, where the
// reconstruction is the face itself.
func (l *FacesLive) reconstruction(k int) (face, approx *mat.Dense, err error) {
	_, d := l.faces.train.Dims()
	x := l.faces.train.Slice(liveShown, liveShown+1, 0, d)
	z, err := l.svd.coordinates(x, k)
	if err != nil {
		return nil, nil, err
	}
	var r mat.Dense
	r.Mul(z, l.svd.basis.Slice(0, d, 0, k).T())
	return l.faces.image(l.faces.train.RawRowView(liveShown), l.faces.mean), l.faces.image(r.RawRowView(0), l.faces.mean), nil
}

// Render draws the live figure for the rank values[0] (notebook.Render): the face and its rank-k
// reconstruction on one blue–red scale centred on the image's mean grey, then the 1-NN accuracy
// curve with k marked. Its alt text names k, the relative error ‖x − x̂_k‖/‖x − mean‖ of the
// reconstruction and both accuracies. A wrong number of values, or a rank outside the control's
// range, is an error.
func (l *FacesLive) Render(values []int) (notebook.Frame, error) {
	if err := checkLive("FacesLive", l.Controls(), values); err != nil {
		return notebook.Frame{}, err
	}
	k := values[0]
	face, approx, err := l.reconstruction(k)
	if err != nil {
		return notebook.Frame{}, err
	}
	var diff mat.Dense
	diff.Sub(face, approx)
	rel := mat.Norm(&diff, 2) / floats.Norm(l.faces.train.RawRowView(liveShown), 2)
	limit := max(mat.Max(face), -mat.Min(face), mat.Max(approx), -mat.Min(approx))
	fig := plotting.NewFigure(1, 3, 3*vg.Inch, 3.2*vg.Inch)
	for i, img := range []*mat.Dense{face, approx} {
		title := "a training face"
		if i == 1 {
			title = fmt.Sprintf("its rank-%d reconstruction", k)
		}
		p, err := imagePanel(title, img, limit, i == 0)
		if err != nil {
			return notebook.Frame{}, err
		}
		fig.Set(0, i, p)
	}
	curve, err := l.accuracyPanel(k)
	if err != nil {
		return notebook.Frame{}, err
	}
	fig.Set(0, 2, curve)
	png, err := fig.LivePNG()
	if err != nil {
		return notebook.Frame{}, err
	}
	alt := fmt.Sprintf("%s; relative error of the reconstruction %.3f; 1-NN test accuracy on %d principal coordinates %.3f, on all pixels %.3f",
		notebook.AltText(l.Controls(), values), rel, k, l.accuracy[k-1], l.raw)
	return notebook.Frame{PNG: png, Alt: alt}, nil
}

// accuracyPanel draws the 1-NN test accuracy against the rank (log axis), 1-NN on all pixels as
// a horizontal line, and the rank k ringed.
func (l *FacesLive) accuracyPanel(k int) (*plot.Plot, error) {
	p := plotting.New("who is it? 1-NN on the test faces", "rank k", "test accuracy (40 people)")
	if err := plotting.LogX(p); err != nil {
		return nil, err
	}
	ks := make([]float64, len(l.accuracy))
	for i := range ks {
		ks[i] = float64(i + 1)
	}
	if err := styles.AddLine(p, ks, l.accuracy, "1-NN on k principal coordinates", methodClassic); err != nil {
		return nil, err
	}
	if err := styles.AddHLine(p, l.raw, "1-NN on all pixels", methodRaw); err != nil {
		return nil, err
	}
	ring, err := plotting.Style(plotting.Black, plotting.OpenCircle, plotting.Solid)
	if err != nil {
		return nil, err
	}
	if err := plotting.AddStyledScatter(p, []float64{float64(k)}, []float64{l.accuracy[k-1]}, fmt.Sprintf("k = %d", k), ring); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = 0, 1.02 // every accuracy, with room above a perfect one
	return p, nil
}

// imagePanel draws an image as a heat map with square pixels and no axes, on the symmetric
// colour scale ±limit (0: the image's own), with the colour bar unless noBar.
func imagePanel(title string, img *mat.Dense, limit float64, noBar bool) (*plot.Plot, error) {
	p := plotting.New(title, "", "")
	if err := plotting.HeatMap(p, img, plotting.HeatMapOptions{Limit: limit, NoBar: noBar}); err != nil {
		return nil, err
	}
	p.HideAxes()
	return p, plotting.EqualAspect(p)
}

// checkLive checks the values a live figure of type name is drawn for against its controls: one
// per control, each within its range. No controls means no figure (a nil or zero value).
func checkLive(name string, controls []notebook.Control, values []int) error {
	if len(controls) == 0 {
		return fmt.Errorf("slides: %s.Render: no live figure (make it with New%s)", name, name)
	}
	if err := notebook.CheckValues(controls, values); err != nil {
		return fmt.Errorf("slides: %s.Render: %w", name, err)
	}
	return nil
}

// SparseBasisLive is the live figure of sparse PCA's penalty for the course notebook
// (notebook.Live): its one control is λ on a logarithmic grid, and it draws the six basis images
// (loadings) of sparse PCA at that λ, ordered by their scales ‖u_j‖‖v_j‖, each labelled with its
// share of zero pixels: as λ grows the images turn from eigenface-like wholes into separate parts
// (the slides' "parts, not faces"), and the weakest switch off. A fit takes up to a second on two
// cores, too slow for a slider, so NewSparseBasisLive fits every λ of the grid.
type SparseBasisLive struct {
	faces     *liveFaceSet
	penalties []float64    // λ/‖A‖_F of the grid
	bases     []*mat.Dense // bases[i]: the d×6 loadings at penalties[i], by decreasing scale
}

// NewSparseBasisLive loads the faces (from src, split by seed) and fits sparse PCA with six
// components and 30 alternations (the slides' Algorithm 2, factor.FitSparsePCA, from the same
// randomized-SVD start for every λ) to the centred training images at each λ of the grid
// (0.002 to 0.1 times ‖A‖_F), as slides_table1 fits it (its λ relative to ‖A‖_F): a few seconds
// on two cores.
func NewSparseBasisLive(ctx context.Context, src dataset.Source, seed uint64) (*SparseBasisLive, error) {
	s, err := loadLiveFaces(ctx, src, seed)
	if err != nil {
		return nil, err
	}
	l := &SparseBasisLive{faces: s, penalties: liveSparsePenalties}
	for _, c := range l.penalties {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cfg := factorSetUp{components: liveSparseComponents, sparsePenalty: c, sparseIterations: liveSparseIterations}
		f, err := fitSlides(rand.New(rand.NewPCG(seed, 2)), methodSparse, s.train, cfg)
		if err != nil {
			return nil, fmt.Errorf("slides: live figure: λ = %g·‖A‖_F: %w", c, err)
		}
		l.bases = append(l.bases, f.basis)
	}
	return l, nil
}

// Controls returns the live figure's one control, the position of λ on the grid, shown as
// λ/‖A‖_F; 0.02·‖A‖_F by default.
func (l *SparseBasisLive) Controls() []notebook.Control {
	if l == nil || len(l.bases) == 0 {
		return nil
	}
	return []notebook.Control{{Label: "λ", Min: 0, Max: len(l.bases) - 1, Value: min(liveSparseDefault, len(l.bases)-1), Format: l.penalty}}
}

// penalty writes the λ at position i of the grid as λ/‖A‖_F (a position off the grid as itself).
func (l *SparseBasisLive) penalty(i int) string {
	if i < 0 || i >= len(l.penalties) {
		return strconv.Itoa(i)
	}
	return fmt.Sprintf("%g·‖A‖_F", l.penalties[i])
}

// zeroShares returns the share of exactly zero pixels of each basis image (column) of B.
func zeroShares(B *mat.Dense) []float64 {
	d, k := B.Dims()
	out := make([]float64, k)
	for j := range k {
		for i := range d {
			if B.At(i, j) == 0 {
				out[j]++
			}
		}
		out[j] /= float64(d)
	}
	return out
}

// Render draws the live figure for the grid position values[0] (notebook.Render): the six basis
// images, three to a row, on one blue–red scale centred on zero (a component switched off is
// flat), each labelled with its share of zero pixels, which the alt text lists after λ. A wrong
// number of values, or a position outside the grid, is an error.
func (l *SparseBasisLive) Render(values []int) (notebook.Frame, error) {
	if err := checkLive("SparseBasisLive", l.Controls(), values); err != nil {
		return notebook.Frame{}, err
	}
	B := l.bases[values[0]]
	d, k := B.Dims()
	limit := max(mat.Max(B), -mat.Min(B))
	shares := zeroShares(B)
	texts := make([]string, k)
	for j, z := range shares {
		texts[j] = fmt.Sprintf("%.0f%%", 100*z)
	}
	const perRow = 3
	rows := (k + perRow - 1) / perRow
	fig := plotting.NewFigure(rows, 1, 6*vg.Inch, 2.2*vg.Inch)
	for r := range rows {
		from, to := r*perRow, min(k, (r+1)*perRow)
		title := fmt.Sprintf("sparse PCA at λ = %s: basis images %d–%d", l.penalty(values[0]), from+1, to)
		p, err := l.basisRow(title, B, from, to, texts, limit, r < rows-1)
		if err != nil {
			return notebook.Frame{}, err
		}
		fig.Set(r, 0, p)
	}
	png, err := fig.LivePNG()
	if err != nil {
		return notebook.Frame{}, err
	}
	alt := fmt.Sprintf("%s; zero pixels in the %d basis images (of %d each): %s", notebook.AltText(l.Controls(), values), k, d, strings.Join(texts, ", "))
	return notebook.Frame{PNG: png, Alt: alt}, nil
}

// basisRow draws the basis images from…to−1 (columns of B) side by side, outlined, in one heat map
// on the scale ±limit (one raster image for the row instead of one per basis image: a redraw is
// then about twice as fast), each labelled below with its share of zero pixels zeros[j], with the colour
// bar unless noBar.
func (l *SparseBasisLive) basisRow(title string, B *mat.Dense, from, to int, zeros []string, limit float64, noBar bool) (*plot.Plot, error) {
	const gap = 3 // pixels between two images
	h, w := l.faces.height, l.faces.width
	row := mat.NewDense(h, (to-from)*(w+gap)-gap, nil)
	var blocks []plotting.Rect
	var ticks []plot.Tick
	for j := from; j < to; j++ {
		c0 := (j - from) * (w + gap)
		row.Slice(0, h, c0, c0+w).(*mat.Dense).Copy(l.faces.image(mat.Col(nil, j, B), nil))
		blocks = append(blocks, plotting.Rect{Row0: 0, Col0: c0, Rows: h, Cols: w})
		ticks = append(ticks, plot.Tick{Value: float64(c0) + float64(w-1)/2, Label: fmt.Sprintf("%d: %s zeros", j+1, zeros[j])})
	}
	p := plotting.New(title, "", "")
	if err := plotting.HeatMap(p, row, plotting.HeatMapOptions{Limit: limit, Outline: blocks, NoBar: noBar}); err != nil {
		return nil, err
	}
	p.HideY()
	p.X.Width, p.X.Tick.Length = 0, 0 // no axis: the ticks only label the images
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	return p, plotting.EqualAspect(p)
}
