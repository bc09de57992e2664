package experiments

import (
	"fmt"
	"strings"

	"github.com/fastkernels/kernellab/lab/run"
)

// fig3_4Sizes: Adult up to all its 48,842 rows; Covertype up to 581,012 at paper scale (the full UCI
// file) and up to 100,000 at quick scale, where the sizes beyond the mirror's 31,220 rows are drawn
// from them with replacement (the titles say so).
var fig3_4Sizes = map[run.Scale]ch3TimingScale{
	run.Smoke: {draws: 2, sets: map[string]ch3TimingSize{
		"adult":   {ns: []int{500, 1000}},
		"covtype": {ns: []int{500, 1000}},
	}},
	run.Quick: {draws: 3, sets: map[string]ch3TimingSize{
		"adult":   {ns: []int{5000, 10000, 20000, 0}},
		"covtype": {ns: []int{5000, 10000, 20000, 50000, 100000}},
	}},
	run.Paper: {draws: 10, sets: map[string]ch3TimingSize{
		"adult":   {ns: []int{5000, 10000, 20000, 30000, 0}},
		"covtype": {ns: []int{10000, 20000, 50000, 100000, 200000, 400000, 0}},
	}},
}

// fig3_4Methods are the two methods of fig3_4.
var fig3_4Methods = []string{ch3DAC, ch3UniformRLS}

// fig3_4Sets are its data sets, the two largest of chapter 3.
var fig3_4Sets = []string{"adult", "covtype"}

// fig3_4SameTimeFactor is how far apart two times may be to be "the same" (claim same-time-large-n).
const fig3_4SameTimeFactor = 1.5

// fig3_4 — time of DAC and uniform RLS against n, large n (thesis §3.3.1, Figure 3.4), on Adult and
// Covertype, m = √n. As in fig3_3, only the score computation is timed (serial tasks, wall clock,
// all cores per method), and the claims compare medians over the draws. The thesis's claims are
// about its own Python implementation; the figure reports what ours shows.
func fig3_4() *run.Experiment {
	return &run.Experiment{
		ID: "fig3_4", Title: "Time of the score computation only vs n, large n, DAC vs uniform RLS (thesis Figure 3.4)",
		Kind: run.Figure, Seed: 3004, Serial: true,
		Plan:   ch3TimingPlan("fig3_4", fig3_4Sizes, fig3_4Methods),
		Render: renderCh3Timing(fig3_4Methods, fig3_4Sets, 1, 2),
		Claims: []run.Claim{
			{
				ID:    "dac-slower-small-n",
				Text:  "for small n (≤ 10⁴ on Adult, ≤ 5·10⁴ on Covertype) DAC is slower than uniform RLS: its median time is above uniform RLS's at every such n",
				Check: checkFig3_4SmallN,
			},
			{
				ID:    "same-time-large-n",
				Text:  fmt.Sprintf("for n ≥ 10⁵ DAC and uniform RLS take about the same time: their median times are within a factor %g at every such n", fig3_4SameTimeFactor),
				Check: checkFig3_4LargeN,
			},
		},
	}
}

// fig3_4Pairs returns, for each data set and n that keep accepts, the median times of DAC and
// uniform RLS.
func fig3_4Pairs(res *run.Results, keep func(dataset string, n float64) bool) (dac, uni []float64, where []string, err error) {
	all, _, err := ch3TimingCurves(res, fig3_4Sets, fig3_4Methods)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, name := range fig3_4Sets {
		for _, s := range all[name][ch3DAC].Points {
			u, ok := ch3MedianAt(all[name][ch3UniformRLS], s.X)
			if !ok || !keep(name, s.X) {
				continue
			}
			dac, uni = append(dac, s.Median), append(uni, u)
			where = append(where, fmt.Sprintf("%s n = %g: DAC %.3g s, uniform RLS %.3g s", ch3Names[name], s.X, s.Median, u))
		}
	}
	return dac, uni, where, nil
}

func checkFig3_4SmallN(res *run.Results) (run.Verdict, error) {
	small := map[string]float64{"adult": 1e4, "covtype": 5e4}
	dac, uni, where, err := fig3_4Pairs(res, func(name string, n float64) bool { return n <= small[name] })
	if err != nil {
		return run.Verdict{}, err
	}
	if len(dac) == 0 {
		return run.Verdict{Outcome: legacyOutcome(false), Evidence: "no small n in this run"}, nil
	}
	pass := true
	for i := range dac {
		pass = pass && dac[i] > uni[i]
	}
	return run.Verdict{Outcome: legacyOutcome(pass), Evidence: "median times: " + strings.Join(where, "; ")}, nil
}

func checkFig3_4LargeN(res *run.Results) (run.Verdict, error) {
	dac, uni, where, err := fig3_4Pairs(res, func(_ string, n float64) bool { return n >= 1e5 })
	if err != nil {
		return run.Verdict{}, err
	}
	if len(dac) == 0 {
		return run.Verdict{Outcome: legacyOutcome(false), Evidence: "no n ≥ 10⁵ in this run"}, nil
	}
	pass := true
	for i := range dac {
		ratio := dac[i] / uni[i]
		pass = pass && ratio <= fig3_4SameTimeFactor && ratio >= 1/fig3_4SameTimeFactor
		where[i] += fmt.Sprintf(" (ratio %.3g)", ratio)
	}
	return run.Verdict{Outcome: legacyOutcome(pass), Evidence: "median times: " + strings.Join(where, "; ")}, nil
}
