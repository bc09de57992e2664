package slides

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// The plateau claim of slides_fig1, fixed from the slides' words before any run: Bayesian PCA
// "quickly reaches a plateau of quality" when its score after earlyEM EM iterations is
// within plateau of its score after the last iteration of the grid.
const (
	earlyEM = 5
	plateau = 0.02
)

// slides_fig1 — the relative quality (score) against the iterations: power iterations of the
// randomized SVD (left) and EM iterations of Bayesian PCA (right); drawn from slides_table1's runs.
func fig1() *run.Experiment {
	return &run.Experiment{
		ID: "slides_fig1", Title: "Faces: score against the iterations of the randomized SVD and of Bayesian PCA (student slides, experiment 1, figure a)",
		Source: "student slides, experiment 1, figure (a)",
		Kind:   run.Figure, Uses: table1(),
		Render: renderSlidesFig1,
		Claims: []run.Claim{{
			ID:   "bayesian-plateaus-early",
			Kind: run.Finding,
			Text: "Bayesian PCA reaches its plateau of quality quickly",
			Rule: fmt.Sprintf("one value per repetition: the score after the last EM iteration of the grid minus the score after %d; TOST, supported if the 90%% interval lies inside ±%g, "+
				"contradicted if the mean lies outside (%d iterations and the margin fixed from the slides' words before any run; premise: KNN on the raw pixels is shown better than chance, ROC-AUC above 0.5)", earlyEM, plateau, earlyEM),
			Check: checkSlidesPlateau,
		}},
	}
}

func checkSlidesPlateau(res *run.Results) (verdict.Verdict, error) {
	rows := res.Where(facesDataset, methodBayesian, metricSweep)
	early, late := map[int]float64{}, map[int]float64{}
	last := -1.0
	for _, r := range rows {
		x, err := r.ParamFloat(iterParam)
		if err != nil {
			return verdict.Verdict{}, err
		}
		last = max(last, x)
	}
	if last <= earlyEM {
		return verdict.InconclusiveVerdict(fmt.Sprintf("the EM grid ends at %g iterations, not after %d: no plateau to test", last, earlyEM)), nil
	}
	for _, r := range rows {
		x, _ := r.ParamFloat(iterParam)
		switch x {
		case earlyEM:
			early[r.Rep] = r.Value
		case last:
			late[r.Rep] = r.Value
		}
	}
	var d []float64
	for _, rep := range slices.Sorted(maps.Keys(late)) {
		e, ok := early[rep]
		if !ok {
			return verdict.Verdict{}, fmt.Errorf("%s: repetition %d has no score after %d EM iterations", res.ID, rep, earlyEM)
		}
		d = append(d, late[rep]-e)
	}
	label := fmt.Sprintf("%s: score of %s after %g − after %d EM iterations", facesDataset, labels[methodBayesian], last, earlyEM)
	return verdict.Decide([]verdict.Test{scoreTest(res, label, d, verdict.Equivalent, plateau)}, "one value per repetition: the same split for every iteration count"), nil
}

// sweepEnds returns the mean score of a sweep curve at its first and last iteration counts, and
// at iteration count at (NaN when the grid lacks it).
func sweepEnds(c kit.Curve, at float64) (first, last, atMean float64, firstX, lastX float64) {
	atMean = math.NaN()
	for _, p := range c.Points {
		if p.X == at {
			atMean = p.Mean
		}
	}
	f, l := c.Points[0], c.Points[len(c.Points)-1]
	return f.Mean, l.Mean, atMean, f.X, l.X
}

// slidesFig1Result says how far each curve climbs and where Bayesian PCA stands after earlyEM
// iterations, against the classic SVD's median score.
func slidesFig1Result(randomized, bayesian kit.Curve, classicMedian float64) string {
	r0, r1, _, rx0, rx1 := sweepEnds(randomized, 0)
	b0, b1, bEarly, bx0, bx1 := sweepEnds(bayesian, earlyEM)
	early := " and"
	if !math.IsNaN(bEarly) {
		early = fmt.Sprintf(", %.3f after %d and", bEarly, earlyEM)
	}
	return fmt.Sprintf("The randomized SVD's mean score is %.3f at q = %g and %.3f at q = %g power iterations; Bayesian PCA's is %.3f after %g EM iterations%s "+
		"%.3f after %g; the classic SVD's median is %.3f.", r0, rx0, r1, rx1, b0, bx0, early, b1, bx1, classicMedian)
}

func renderSlidesFig1(res *run.Results, out *run.Output) error {
	classic := values(res, facesDataset, methodClassic, metricScore)
	if len(classic) == 0 {
		return fmt.Errorf("%s: no classic SVD score", res.ID)
	}
	classicMedian := median(classic) // as slides_table1 prints it
	curves := map[string]kit.Curve{}
	panel := func(method, xLabel string) (*plot.Plot, error) {
		cs, err := kit.Curves(res, facesDataset, metricSweep, iterParam, method)
		if err != nil {
			return nil, err
		}
		if len(cs[0].Points) == 0 {
			return nil, fmt.Errorf("%s: no %s sweep", res.ID, method)
		}
		curves[method] = cs[0]
		p := plotting.NewPrint(labels[method], xLabel, "score (ROC-AUC / raw pixels')")
		bands, err := kit.MethodBands(cs, labels)
		if err != nil {
			return nil, err
		}
		if err := plotting.AddBands(p, bands...); err != nil {
			return nil, err
		}
		pad := 0.04 * (p.Y.Max - p.Y.Min) // headroom, so that no band looks clipped by the frame
		p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
		if err := styles.AddHLine(p, classicMedian, labels[methodClassic]+" (median, slides_table1)", methodClassic); err != nil {
			return nil, err
		}
		return p, nil
	}
	top, err := panel(methodRandomized, "power iterations q")
	if err != nil {
		return err
	}
	bottom, err := panel(methodBayesian, "EM iterations")
	if err != nil {
		return err
	}
	if err := kit.SavePrintRow(out, 5.5*vg.Centimeter, top, bottom); err != nil {
		return err
	}
	cfg := facesScales.At(res.Scale)
	return kit.WriteCaption(out, res, slidesFig1Result(curves[methodRandomized], curves[methodBayesian], classicMedian),
		fmt.Sprintf("Student slides, experiment 1, figure (a), with the panels side by side (the slides stack them): the score against the iterations of the randomized SVD "+
			"(left: power iterations q = %s) and of Bayesian PCA (right: EM iterations from a random start, %s). Each point refits the factorisation with that many iterations "+
			"and keeps its own |Σ̃|; lines: mean over the %d repetitions, bands: minimum to maximum; dashed: the classic SVD's median score. The slides do not say which "+
			"iterations they count. %s", plainInts(cfg.powerGrid), plainInts(cfg.emGrid), cfg.reps, facesFigureSetUp(res)))
}
