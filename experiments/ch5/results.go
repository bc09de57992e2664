package ch5

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
	"gonum.org/v1/gonum/stat"
)

// perDraw returns the value of a per-draw metric of a method, by draw.
func perDraw(res *run.Results, method, metric string) (map[int]float64, error) {
	rows := res.Where(dataset, method, metric)
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no %s rows for %s", res.ID, metric, method)
	}
	out := make(map[int]float64, len(rows))
	for _, r := range rows {
		d, err := r.ParamFloat("draw")
		if err != nil {
			return nil, err
		}
		out[int(d)] = r.Value
	}
	return out, nil
}

// curve summarises log‖r_k‖ of one sparsity over the draws, against k.
func curve(res *run.Results, multiple int) ([]run.Summary, error) {
	cs, err := kit.Curves(res, dataset, logResidual, "k", method(multiple))
	if err != nil {
		return nil, err
	}
	return cs[0].Points, nil
}

// line is a straight line log‖y‖ + (k/2)·ln(1 − θ) in the (k, ln‖r_k‖) plane.
type line struct{ intercept, slope float64 }

func (l line) at(k float64) float64 { return l.intercept + k*l.slope }

// lines returns, at m*, the mean over the draws of their Theorem 5 lines and the envelope
// line (largest ‖y‖, smallest θ) of a rate metric (Theorem 5's or matching pursuit's θ).
func lines(res *run.Results, thetaMetric string) (mean, envelope line, err error) {
	logY, err := perDraw(res, method(1), logSignal)
	if err != nil {
		return mean, envelope, err
	}
	theta, err := perDraw(res, method(1), thetaMetric)
	if err != nil {
		return mean, envelope, err
	}
	envelope = line{intercept: math.Inf(-1), slope: math.Inf(-1)}
	for _, draw := range slices.Sorted(maps.Keys(logY)) {
		ly := logY[draw]
		th, ok := theta[draw]
		if !ok {
			return mean, envelope, fmt.Errorf("%s: draw %d has no %s", res.ID, draw, thetaMetric)
		}
		s := 0.5 * math.Log1p(-th)
		mean.intercept += ly / float64(len(logY))
		mean.slope += s / float64(len(logY))
		envelope.intercept = max(envelope.intercept, ly)
		envelope.slope = max(envelope.slope, s)
	}
	return mean, envelope, nil
}

// dictionarySummary describes the measured coherence, m* and Babel values of the draws.
func dictionarySummary(res *run.Results) (string, error) {
	mu, err := perDraw(res, dictionary, coherence)
	if err != nil {
		return "", err
	}
	mStar, err := perDraw(res, dictionary, metricMStar)
	if err != nil {
		return "", err
	}
	_, exact, err := babelAt(res, 1)
	if err != nil {
		return "", err
	}
	mus := values(mu)
	return fmt.Sprintf("%d draws, μ mean %.4f (range %.4f–%.4f), m* %s, μ₁(D, m*−1) exact in %d of %d",
		len(mu), stat.Mean(mus, nil), slices.Min(mus), slices.Max(mus), rangeOf(values(mStar)), exact, len(mu)), nil
}

// partialNote names the part of the plan that the results hold when they lack some of its
// draws: "paper sizes, 100 of 2,000 draws" (a partial run, lab run --first), with ", the first"
// when they are draws 0..K−1, as such a run makes them; "" when they hold every draw of their
// scale's plan. The figure, the caption and every claim's evidence carry it. A draw the plan does
// not have (results of another plan) is an error.
func partialNote(res *run.Results) (string, error) {
	mStar, err := perDraw(res, dictionary, metricMStar)
	if err != nil {
		return "", err
	}
	planned := scales.At(res.Scale).draws
	if planned == 0 {
		return "", fmt.Errorf("%s: results of scale %q, which has no plan (want smoke, quick or paper)", res.ID, res.Scale)
	}
	for d := range mStar {
		if d < 0 || d >= planned {
			return "", fmt.Errorf("%s: draw %d in results of %s scale, whose plan has draws 0–%d", res.ID, d, res.Scale, planned-1)
		}
	}
	if len(mStar) == planned {
		return "", nil
	}
	note := fmt.Sprintf("%s sizes, %s of %s draws", res.Scale, grouped(len(mStar)), grouped(planned))
	if slices.Max(slices.Collect(maps.Keys(mStar))) == len(mStar)-1 {
		note += fmt.Sprintf(" (a partial run: the first %s)", grouped(len(mStar)))
	} else {
		note += " (a partial run)"
	}
	return note, nil
}

// grouped writes a non-negative count with thousands separated by commas ("2,000").
func grouped(v int) string {
	s := strconv.Itoa(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// labelled returns check with the partial-run note of the results (partialNote), when there is
// one, put before its evidence.
func labelled(check func(*run.Results) (verdict.Verdict, error)) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		v, err := check(res)
		if err != nil {
			return v, err
		}
		note, err := partialNote(res)
		if err != nil {
			return verdict.Verdict{}, err
		}
		if note != "" {
			v.Evidence = note + ": " + v.Evidence
		}
		return v, nil
	}
}

// values returns the values of a per-draw map in draw order.
func values(byDraw map[int]float64) []float64 {
	draws := slices.Sorted(maps.Keys(byDraw))
	out := make([]float64, len(draws))
	for i, d := range draws {
		out[i] = byDraw[d]
	}
	return out
}

// rangeOf writes integer values as "= v" when they agree, else "in [lo, hi]".
func rangeOf(v []float64) string {
	lo, hi := slices.Min(v), slices.Max(v)
	if lo == hi {
		return fmt.Sprintf("= %g", lo)
	}
	return fmt.Sprintf("∈ [%g, %g]", lo, hi)
}
