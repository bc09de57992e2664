package slides

import (
	"fmt"

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

func renderSlidesFig2(res *run.Results, out *run.Output) error {
	sides := values(res, facesDataset, dataMethod, metricSide)
	if len(sides) == 0 {
		return fmt.Errorf("%s: no image size recorded", res.ID)
	}
	side := int(sides[0])
	cfg := facesScales.At(res.Scale)
	cols := min(cfg.basis, cfg.factor.components)
	var panels []*plot.Plot
	for _, m := range []string{methodSparse, methodClassic} {
		for j := range cols {
			img, err := basisImage(res, m, j, side)
			if err != nil {
				return err
			}
			p := plotting.NewPrint(fmt.Sprintf("%s %d", labels[m], j+1), "", "")
			if err := plotting.HeatMap(p, img, plotting.HeatMapOptions{}); err != nil {
				return err
			}
			p.HideAxes()
			panels = append(panels, p)
		}
	}
	// Panels about as tall as they are wide (the colour bar takes part of the width), so that the
	// images stay nearly square.
	if err := kit.SavePrintGrid(out, 2, cols, plotting.PageWidth, max(2*vg.Centimeter, 0.85*plotting.PageWidth/vg.Length(cols)), plotting.LegendBelow, panels...); err != nil {
		return err
	}
	return kit.WriteCaption(out, res, "", fmt.Sprintf("Student slides, experiment 1, figure (b): the %d leading basis images of sparse PCA (top row, its loadings v_j in the order of "+
		"their scales ‖u_j‖‖v_j‖) and of the classic SVD (bottom row, right singular vectors, the eigenfaces), from the training part of repetition 0, each shown as a %d×%d image "+
		"(blue–red diverging colours centred on zero; signs are arbitrary). The slides see whole faces in sparse PCA's basis where the SVD's shows separate features. %s",
		cols, side, side, facesSetUp(res)))
}
