package experiments

import (
	"fmt"
	"maps"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// The plateau claim of slides_fig1, fixed from the slides' words before any run: Bayesian PCA
// "quickly reaches a plateau of quality" when its score after slidesEarlyEM EM iterations is
// within slidesPlateau of its score after the last iteration of the grid.
const (
	slidesEarlyEM = 5
	slidesPlateau = 0.02
)

// slides_fig1 — the relative quality (score) against the iterations: power iterations of the
// randomized SVD (left) and EM iterations of Bayesian PCA (right); drawn from slides_table1's runs.
func slidesFig1() *run.Experiment {
	return &run.Experiment{
		ID: "slides_fig1", Title: "Faces: score against the iterations of the randomized SVD and of Bayesian PCA (student slides, experiment 1, figure a)",
		Source: "student slides (seed 002), experiment 1, figure (a)",
		Kind:   run.Figure, Uses: slidesTable1(),
		Render: renderSlidesFig1,
		Claims: []run.Claim{{
			ID:   "bayesian-plateaus-early",
			Text: "Bayesian PCA reaches its plateau of quality quickly",
			Rule: fmt.Sprintf("one value per repetition: the score after the last EM iteration of the grid minus the score after %d; TOST, supported if the 90%% interval lies inside ±%g, "+
				"contradicted if the mean lies outside (%d iterations and the margin fixed from the slides' words before any run; premise: KNN on the raw pixels is shown better than chance, ROC-AUC above 0.5)", slidesEarlyEM, slidesPlateau, slidesEarlyEM),
			Check: checkSlidesPlateau,
		}},
	}
}

func checkSlidesPlateau(res *run.Results) (verdict.Verdict, error) {
	rows := res.Where(slidesFaces, slidesBayesian, metricSweep)
	early, late := map[int]float64{}, map[int]float64{}
	last := -1.0
	for _, r := range rows {
		x, err := r.ParamFloat(slidesIterParam)
		if err != nil {
			return verdict.Verdict{}, err
		}
		last = max(last, x)
	}
	if last <= slidesEarlyEM {
		return verdict.InconclusiveVerdict(fmt.Sprintf("the EM grid ends at %g iterations, not after %d: no plateau to test", last, slidesEarlyEM)), nil
	}
	for _, r := range rows {
		x, _ := r.ParamFloat(slidesIterParam)
		switch x {
		case slidesEarlyEM:
			early[r.Rep] = r.Value
		case last:
			late[r.Rep] = r.Value
		}
	}
	var d []float64
	for _, rep := range slices.Sorted(maps.Keys(late)) {
		e, ok := early[rep]
		if !ok {
			return verdict.Verdict{}, fmt.Errorf("%s: repetition %d has no score after %d EM iterations", res.ID, rep, slidesEarlyEM)
		}
		d = append(d, late[rep]-e)
	}
	label := fmt.Sprintf("%s: score of %s after %g − after %d EM iterations", slidesFaces, slidesLabels[slidesBayesian], last, slidesEarlyEM)
	return verdict.Decide([]verdict.Test{slidesScoreTest(res, label, d, verdict.Equivalent, slidesPlateau)}, "one value per repetition: the same split for every iteration count"), nil
}

func renderSlidesFig1(res *run.Results, out *run.Output) error {
	classic := slidesValues(res, slidesFaces, slidesClassic, metricScore)
	if len(classic) == 0 {
		return fmt.Errorf("%s: no classic SVD score", res.ID)
	}
	panel := func(method, xLabel string) (*plot.Plot, error) {
		cs, err := curves(res, slidesFaces, metricSweep, slidesIterParam, method)
		if err != nil {
			return nil, err
		}
		p := plotting.NewPrint(slidesLabels[method], xLabel, "score (ROC-AUC / raw pixels')")
		if err := plotting.AddBands(p, methodBands(cs, slidesLabels)...); err != nil {
			return nil, err
		}
		if err := plotting.AddMethodHLine(p, stat.Mean(classic, nil), slidesLabels[slidesClassic]+" (table)", slidesClassic); err != nil {
			return nil, err
		}
		return p, nil
	}
	top, err := panel(slidesRandomized, "power iterations q")
	if err != nil {
		return err
	}
	bottom, err := panel(slidesBayesian, "EM iterations")
	if err != nil {
		return err
	}
	if err := savePrintRow(out, 5.5*vg.Centimeter, top, bottom); err != nil {
		return err
	}
	cfg := slidesFacesScales[res.Scale]
	return writeCaption(out, res, fmt.Sprintf("Student slides (seed 002), experiment 1, figure (a): the relative quality (score = ROC-AUC of KNN on the projections over "+
		"ROC-AUC of KNN on the raw pixels) against the iterations, for the randomized SVD (left: power iterations q, %s; the slides' figure puts it on top) and Bayesian PCA "+
		"(right: EM iterations from a random start, %s; the slides' figure puts it below). Each point refits the factorisation with that many iterations and keeps its own |Σ̃| by the 70%% rule; "+
		"lines: mean over the repetitions, bands: minimum to maximum; the dashed line is the classic SVD's mean score in slides_table1. The slides do not say which iterations they count; "+
		"power iterations are the randomized SVD's only iterations. %s", plainInts(cfg.powerGrid), plainInts(cfg.emGrid), slidesFacesSetUp(res)))
}
