package slides

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// slides_fig2 — basis images ("eigenfaces") of sparse PCA (top row) and of the classic SVD (bottom
// row) from repetition 0 of slides_table1's runs.
func fig2() *run.Experiment {
	return &run.Experiment{
		ID: "slides_fig2", Title: "Faces: basis images of sparse PCA and of the classic SVD (student slides, experiment 1, figure b)",
		Source: "student slides, experiment 1, figure (b)",
		Kind:   run.Figure, Uses: table1(),
		Render: renderSlidesFig2,
		Claims: []run.Claim{{
			ID:   "sparse-lags-in-quality",
			Kind: run.Finding,
			Text: "sparse PCA lags well behind the other methods in the quality of its projections",
			Rule: "against each other factorisation, one value per repetition: sparse PCA's score minus the other's, mean below 0 (paired t; premise: KNN on the raw pixels is shown better than chance, ROC-AUC above 0.5); family of 3, Holm at 0.05",
			Check: func(res *run.Results) (verdict.Verdict, error) {
				var tests []verdict.Test
				for _, m := range kit.Without(methodOrder, methodSparse) {
					d, err := diff(res, facesDataset, metricScore, methodSparse, m)
					if err != nil {
						return verdict.Verdict{}, err
					}
					tests = append(tests, scoreTest(res, fmt.Sprintf("%s: score %s − %s", facesDataset, labels[methodSparse], labels[m]), d, verdict.MeanBelow, 0))
				}
				return verdict.Decide(tests, "one value per repetition: the same images, split and admitted people for every method"), nil
			},
		}},
	}
}

// basisImage is basis image j of method from the results: a side×side matrix.
func basisImage(res *run.Results, method string, j, side int) (*mat.Dense, error) {
	img := mat.NewDense(side, side, nil)
	n := 0
	for _, r := range res.Where(facesDataset, method, metricBasis) {
		if r.Rep != 0 {
			continue
		}
		c, err := r.ParamFloat(compParam)
		if err != nil {
			return nil, err
		}
		if int(c) != j {
			continue
		}
		p, err := r.ParamFloat(pixelParam)
		if err != nil {
			return nil, err
		}
		if int(p) < 0 || int(p) >= side*side {
			return nil, fmt.Errorf("%s: %s basis image %d: pixel %g outside the %d×%d image", res.ID, method, j, p, side, side)
		}
		img.Set(int(p)/side, int(p)%side, r.Value)
		n++
	}
	if n != side*side {
		return nil, fmt.Errorf("%s: %s basis image %d has %d of %d pixels", res.ID, method, j, n, side*side)
	}
	return img, nil
}

// coincideCos is the |cosine| above which a sparse PCA basis image counts as the eigenface it is
// closest to (a residual of at most √(1 − 0.9²) ≈ 0.44 of its norm).
const coincideCos = 0.9

// basisComparison compares each of sparse PCA's basis images with the eigenfaces (both as
// flattened images of the same shape): for image j, the eigenface it is closest to (largest
// |cosine|, sign-invariant, since the signs of both bases are arbitrary) and that |cosine|, and
// the share of exactly zero loadings among sparse PCA's images.
type basisComparison struct {
	match []int
	cos   []float64
	zeros float64
}

func compareBases(sparse, classic []*mat.Dense) (basisComparison, error) {
	if len(sparse) == 0 || len(sparse) != len(classic) {
		return basisComparison{}, fmt.Errorf("slides: %d sparse basis images against %d eigenfaces", len(sparse), len(classic))
	}
	var c basisComparison
	var zero, all int
	for j, s := range sparse {
		sv := mat.NewVecDense(len(s.RawMatrix().Data), mat.DenseCopyOf(s).RawMatrix().Data)
		best, at := -1.0, -1
		for k, e := range classic {
			ev := mat.NewVecDense(len(e.RawMatrix().Data), mat.DenseCopyOf(e).RawMatrix().Data)
			if ev.Len() != sv.Len() {
				return basisComparison{}, fmt.Errorf("slides: basis image %d has %d pixels, eigenface %d %d", j+1, sv.Len(), k+1, ev.Len())
			}
			norms := mat.Norm(sv, 2) * mat.Norm(ev, 2)
			if norms == 0 {
				continue
			}
			if cos := math.Abs(mat.Dot(sv, ev)) / norms; cos > best {
				best, at = cos, k
			}
		}
		if at < 0 {
			return basisComparison{}, fmt.Errorf("slides: sparse basis image %d or every eigenface is zero", j+1)
		}
		c.match, c.cos = append(c.match, at), append(c.cos, best)
		for _, v := range sv.RawVector().Data {
			if v == 0 {
				zero++
			}
		}
		all += sv.Len()
	}
	c.zeros = float64(zero) / float64(all)
	return c, nil
}

// sentence says whether sparse PCA's basis images coincide with the eigenfaces at penalty λ =
// penalty·‖A‖_F: they do when each is within coincideCos of a different eigenface.
func (c basisComparison) sentence(penalty float64) string {
	lo, hi := slices.Min(c.cos), slices.Max(c.cos)
	distinct := map[int]bool{}
	var same, swapped []string
	for j, k := range c.match {
		distinct[k] = true
		if k == j {
			same = append(same, fmt.Sprint(j+1))
		} else {
			swapped = append(swapped, fmt.Sprintf("%d with eigenface %d", j+1, k+1))
		}
	}
	zeros := fmt.Sprintf("%.1f%% of sparse PCA's loadings in these images are zero", 100*c.zeros)
	if lo < coincideCos || len(distinct) < len(c.match) {
		return fmt.Sprintf("At λ = %g·‖A‖_F sparse PCA's basis images (top row) differ from the eigenfaces (bottom row): the closest eigenface of each has |cosine| %.3f–%.3f with it, and %s.",
			penalty, lo, hi, zeros)
	}
	pairs := fmt.Sprintf("images %s with the eigenface of the same rank", strings.Join(same, ", "))
	if len(swapped) > 0 {
		pairs += "; " + strings.Join(swapped, ", ") + ", their scales ranking them the other way"
	}
	return fmt.Sprintf("At λ = %g·‖A‖_F sparse PCA's basis images (top row) coincide with the eigenfaces (bottom row), so the slides' contrast "+
		"(whole faces against separate features) cannot be seen here: each has |cosine| %.3f–%.3f with one eigenface (%s), and only %s.",
		penalty, lo, hi, pairs, zeros)
}

func renderSlidesFig2(res *run.Results, out *run.Output) error {
	sides := values(res, facesDataset, dataMethod, metricSide)
	if len(sides) == 0 {
		return fmt.Errorf("%s: no image size recorded", res.ID)
	}
	side := int(sides[0])
	cfg := facesScales.At(res.Scale)
	cols := min(cfg.basis, cfg.factor.components)
	rows := map[string][]*mat.Dense{}
	var panels []*plot.Plot
	for _, m := range []string{methodSparse, methodClassic} {
		limit := 0.0 // one symmetric colour scale per row
		for j := range cols {
			img, err := basisImage(res, m, j, side)
			if err != nil {
				return err
			}
			rows[m] = append(rows[m], img)
			limit = max(limit, mat.Max(img), -mat.Min(img))
		}
		if limit == 0 {
			return fmt.Errorf("%s: every %s basis image is zero", res.ID, m)
		}
		for j, img := range rows[m] {
			p := plotting.NewPrint(fmt.Sprintf("%s %d", labels[m], j+1), "", "")
			if err := plotting.HeatMap(p, img, plotting.HeatMapOptions{Limit: limit, NoBar: j < cols-1}); err != nil {
				return err
			}
			p.HideAxes()
			if err := plotting.EqualAspect(p); err != nil { // square pixels
				return err
			}
			panels = append(panels, p)
		}
	}
	if err := kit.SavePrintGrid(out, 2, cols, plotting.PageWidth, max(2*vg.Centimeter, 0.8*plotting.PageWidth/vg.Length(cols)), plotting.LegendBelow, panels...); err != nil {
		return err
	}
	agree, err := compareBases(rows[methodSparse], rows[methodClassic])
	if err != nil {
		return fmt.Errorf("%s: %w", res.ID, err)
	}
	return kit.WriteCaption(out, res, agree.sentence(cfg.factor.sparsePenalty), fmt.Sprintf("Student slides, experiment 1, figure (b): the %d leading basis images of sparse PCA "+
		"(top row: its loadings v_j, ordered by their scales ‖u_j‖‖v_j‖) and of the classic SVD (bottom row: the eigenfaces), fitted on the training part of repetition 0, "+
		"each a %d×%d image with square pixels; blue–red diverging colours centred on zero, one symmetric scale per row (bar at the right); signs are arbitrary. %s", cols, side, side, facesFigureSetUp(res)))
}
