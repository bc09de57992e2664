package ch5

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
	"gonum.org/v1/gonum/stat"
)

func checkFig5_1BelowTheorem5(res *run.Results) (verdict.Verdict, error) {
	mean, _, err := lines(res, metricTheta)
	if err != nil {
		return verdict.Verdict{}, err
	}
	gaps, err := worstGaps(res)
	if err != nil {
		return verdict.Verdict{}, err
	}
	g := values(gaps)
	crossing := 0
	for _, v := range g {
		if v >= 0 {
			crossing++
		}
	}
	offSupport, err := perDraw(res, method(1), offSupport)
	if err != nil {
		return verdict.Verdict{}, err
	}
	clean := 0
	for _, v := range offSupport {
		if v == 0 {
			clean++
		}
	}
	dictionary, err := dictionarySummary(res)
	if err != nil {
		return verdict.Verdict{}, err
	}
	return verdict.Decide([]verdict.Test{
		verdict.MeanBelow("m*: per draw, largest ln‖r_k‖ − its Theorem 5 line over k ≥ 1", g, 0),
		verdict.RateBelow("m*: draws that reach their Theorem 5 line at some k ≥ 1", crossing, len(g), crossingRate),
	}, dictionary, fmt.Sprintf("Theorem 5 slope ½ ln(1 − θ): mean %.3g (thesis −0.002 at d = 10⁴)", mean.slope),
		fmt.Sprintf("Theorem 4: no atom outside the support in %d of %d draws", clean, len(offSupport))), nil
}

// crossingRate is the largest share of draws whose curve may reach its own Theorem 5 line
// for "the maximum over the draws lies below the bound" to hold: 5%, the level of every test. With
// 0 crossings in n draws the exact binomial test supports it only from n = 59 on, hence the 60
// draws at quick scale.
const crossingRate = 0.05

// worstGaps returns, for each draw at m*, the largest ln‖r_k‖ − (ln‖y‖ + (k/2) ln(1 − θ))
// over the recorded k ≥ 1: negative when the draw stays below its own Theorem 5 line.
func worstGaps(res *run.Results) (map[int]float64, error) {
	logY, err := perDraw(res, method(1), logSignal)
	if err != nil {
		return nil, err
	}
	theta, err := perDraw(res, method(1), metricTheta)
	if err != nil {
		return nil, err
	}
	worst := map[int]float64{}
	for _, r := range res.Where(dataset, method(1), logResidual) {
		d, err := r.ParamFloat("draw")
		if err != nil {
			return nil, err
		}
		k, err := r.ParamFloat("k")
		if err != nil {
			return nil, err
		}
		draw := int(d)
		ly, okY := logY[draw]
		th, okT := theta[draw]
		if !okY || !okT {
			return nil, fmt.Errorf("%s: draw %d has no ‖y‖ or θ", res.ID, draw)
		}
		if k < 1 {
			continue
		}
		g := r.Value - (ly + 0.5*k*math.Log1p(-th))
		if w, ok := worst[draw]; !ok || g > w {
			worst[draw] = g
		}
	}
	if len(worst) != len(logY) {
		return nil, fmt.Errorf("%s: %d draws at m* have no residual at k ≥ 1", res.ID, len(logY)-len(worst))
	}
	return worst, nil
}

// tailSlope fits the slope of the mean log‖r_k‖ of one sparsity over the last half of the
// iterations before the mean of log(‖r_k‖/‖y‖) falls below ln(fitFloor) (over the last half
// of all iterations when it never does), and returns it with the fitted range of k.
func tailSlope(res *run.Results, multiple int) (slope, from, to float64, err error) {
	sums, err := curve(res, multiple)
	if err != nil {
		return 0, 0, 0, err
	}
	logY, err := perDraw(res, method(multiple), logSignal)
	if err != nil {
		return 0, 0, 0, err
	}
	meanLogY := stat.Mean(values(logY), nil)
	to = sums[len(sums)-1].X
	for _, s := range sums {
		if s.Mean-meanLogY < math.Log(fitFloor) {
			to = s.X
			break
		}
	}
	from = to / 2
	var ks, ys []float64
	for _, s := range sums {
		if s.X >= from && s.X <= to {
			ks, ys = append(ks, s.X), append(ys, s.Mean)
		}
	}
	if len(ks) < 3 {
		return 0, from, to, fmt.Errorf("%s: %s: %d recorded iterations in [%g, %g], want 3 or more for a slope", res.ID, method(multiple), len(ks), from, to)
	}
	_, slope = stat.LinearRegression(ks, ys, nil, false)
	return slope, from, to, nil
}

// babelAt returns, for each draw, μ₁(D, m − 1) at the sparsity m = multiple·m* of that draw,
// and the number of draws where it is exact (not Tropp's bound).
func babelAt(res *run.Results, multiple int) (map[int]float64, int, error) {
	mStar, err := perDraw(res, dictionary, metricMStar)
	if err != nil {
		return nil, 0, err
	}
	out, exact := map[int]float64{}, 0
	for _, r := range res.Where(dataset, dictionary, metricBabel) {
		d, err := r.ParamFloat("draw")
		if err != nil {
			return nil, 0, err
		}
		m, err := r.ParamFloat("m")
		if err != nil {
			return nil, 0, err
		}
		if ms, ok := mStar[int(d)]; ok && int(m) == multiple*int(ms)-1 {
			out[int(d)] = r.Value
			if v, _ := r.Param("exact"); v == "true" {
				exact++
			}
		}
	}
	if len(out) != len(mStar) {
		return nil, 0, fmt.Errorf("%s: μ₁(D, %d·m* − 1) recorded for %d of %d draws", res.ID, multiple, len(out), len(mStar))
	}
	return out, exact, nil
}

// drawSlopes fits, for each draw, the least-squares slope of its own ln‖r_k‖ over the window
// of tailSlope (the last half of the iterations before the mean curve meets the fit floor),
// leaving out the points where that draw has already stopped (‖r_k‖ ≤ stopRelative·‖y‖).
func drawSlopes(res *run.Results, multiple int) (slopes map[int]float64, from, to float64, err error) {
	_, from, to, err = tailSlope(res, multiple)
	if err != nil {
		return nil, 0, 0, err
	}
	logY, err := perDraw(res, method(multiple), logSignal)
	if err != nil {
		return nil, 0, 0, err
	}
	ks, ys := map[int][]float64{}, map[int][]float64{}
	for _, r := range res.Where(dataset, method(multiple), logResidual) {
		d, err := r.ParamFloat("draw")
		if err != nil {
			return nil, 0, 0, err
		}
		k, err := r.ParamFloat("k")
		if err != nil {
			return nil, 0, 0, err
		}
		draw := int(d)
		if k >= from && k <= to && r.Value-logY[draw] > math.Log(stopRelative) {
			ks[draw], ys[draw] = append(ks[draw], k), append(ys[draw], r.Value)
		}
	}
	slopes = map[int]float64{}
	for draw := range logY {
		if len(ks[draw]) < 2 {
			return nil, 0, 0, fmt.Errorf("%s: %s, draw %d: %d points before its stop in k ∈ [%g, %g], want 2 or more for a slope",
				res.ID, method(multiple), draw, len(ks[draw]), from, to)
		}
		_, slopes[draw] = stat.LinearRegression(ks[draw], ys[draw], nil, false)
	}
	return slopes, from, to, nil
}

// exponentialTest is the test of exponential-2m-5m at sparsity multiple·m*. Theorem 5's rate
// is θ(m) = (1/16)((1 − μ₁(D, m−1))/m)(1 − ‖α*‖₁/β)², so where it still gives a rate at m = c·m*
// (μ₁(D, m−1) < 1 in every draw), its dependence on m predicts the slope at c·m* from the one at
// m*: s(m*)·θ(c·m*)/θ(m*) = s(m*)·(1 − μ₁(D, c·m*−1))/(c·(1 − μ₁(D, m*−1))) — the theorem's form
// with its loose constant replaced by the observed rate at m* (the same dictionary, so paired by
// draw). Where μ₁(D, m−1) ≥ 1 the theorem gives no rate; the comparison is then with the
// sublinear rate Frank-Wolfe is guaranteed without it (‖r_k‖² ≤ C/(k + 2), §5.3): the steepest
// slope such a decay has on the window, −½ ln((to + 2)/(from + 2))/(to − from).
func exponentialTest(res *run.Results, multiple int) (verdict.Test, string, error) {
	label := fmt.Sprintf("%s: per-draw slope of ln‖r_k‖", method(multiple))
	sc, from, to, err := drawSlopes(res, multiple)
	if err != nil {
		return verdict.Test{}, "", err
	}
	s1, _, _, err := drawSlopes(res, 1)
	if err != nil {
		return verdict.Test{}, "", err
	}
	b1, _, err := babelAt(res, 1)
	if err != nil {
		return verdict.Test{}, "", err
	}
	bc, exact, err := babelAt(res, multiple)
	if err != nil {
		return verdict.Test{}, "", err
	}
	draws := slices.Sorted(maps.Keys(sc))
	worst := 0.0
	for _, d := range draws {
		worst = max(worst, bc[d], b1[d])
	}
	window := fmt.Sprintf("k ∈ [%g, %g]", from, to)
	if worst < 1 {
		diffs := make([]float64, len(draws))
		var predicted float64
		for i, d := range draws {
			rho := (1 - bc[d]) / (float64(multiple) * (1 - b1[d]))
			diffs[i] = sc[d] - rho*s1[d]
			predicted += rho * s1[d] / float64(len(draws))
		}
		t := verdict.MeanBelow(label+" − Theorem 5's m-scaling of the m* slope", diffs, 0)
		return t, fmt.Sprintf("%s: mean slope %.4g on %s, Theorem 5's scaling of the m* slope predicts %.4g (μ₁(D, m−1) < 1 in every draw, exact in %d of %d)",
			method(multiple), stat.Mean(values(sc), nil), window, predicted, exact, len(draws)), nil
	}
	sub := -0.5 * math.Log((to+2)/(from+2)) / (to - from)
	t := verdict.MeanBelow(label+" vs FW's sublinear rate", values(sc), sub)
	return t, fmt.Sprintf("%s: mean slope %.4g on %s; Theorem 5 gives no rate there (largest μ₁(D, m−1) = %.3g ≥ 1; exact in %d of %d draws), "+
		"so the comparison is with the steepest slope of FW's sublinear O(1/k) rate on the window, %.4g",
		method(multiple), stat.Mean(values(sc), nil), window, worst, exact, len(draws), sub), nil
}

func checkFig5_1Exponential(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	var notes []string
	for _, c := range []int{2, 5} {
		t, note, err := exponentialTest(res, c)
		if err != nil {
			return verdict.Verdict{}, err
		}
		tests, notes = append(tests, t), append(notes, note)
	}
	s1, from, to, err := drawSlopes(res, 1)
	if err != nil {
		return verdict.Verdict{}, err
	}
	notes = append(notes, fmt.Sprintf("m*: mean slope %.4g on k ∈ [%g, %g]", stat.Mean(values(s1), nil), from, to))
	return verdict.Decide(tests, notes...), nil
}

func checkFig5_1Slower(res *run.Results) (verdict.Verdict, error) {
	s5, from5, to5, err := drawSlopes(res, 5)
	if err != nil {
		return verdict.Verdict{}, err
	}
	s20, from20, to20, err := drawSlopes(res, 20)
	if err != nil {
		return verdict.Verdict{}, err
	}
	draws := slices.Sorted(maps.Keys(s5))
	diffs := make([]float64, len(draws))
	for i, d := range draws {
		v, ok := s20[d]
		if !ok {
			return verdict.Verdict{}, fmt.Errorf("%s: draw %d has a 5m* slope but no 20m* slope", res.ID, d)
		}
		diffs[i] = 20*v - 5*s5[d]
	}
	return verdict.Decide([]verdict.Test{verdict.MeanAbove("20·slope(20m*) − 5·slope(5m*), per draw", diffs, 0)},
		fmt.Sprintf("mean slopes: 5m* %.4g on k ∈ [%g, %g], 20m* %.4g on k ∈ [%g, %g]",
			stat.Mean(values(s5), nil), from5, to5, stat.Mean(values(s20), nil), from20, to20)), nil
}
