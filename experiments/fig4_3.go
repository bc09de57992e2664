package experiments

import (
	"context"
	"fmt"
	"math"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

const fig4_3Dataset = "mnist"

// fig4_3Sizes are the sample sizes and draws of fig4_3 at each scale.
var fig4_3Sizes = map[run.Scale]mmdSizes{
	run.Smoke: {n: []int{50, 200}, exactMax: 200, tasks: 2, drawsPerTask: 2},
	run.Quick: {n: []int{100, 300, 1000, 3000, 10000}, exactMax: 1000, tasks: 4, drawsPerTask: 10},
	run.Paper: {n: []int{100, 200, 500, 1000, 2000, 5000, 10000, 15000}, exactMax: 10000, tasks: 50, drawsPerTask: 10},
}

// fig4_3 — the three-sample problem on MNIST, P_X = the digits 0–4, P_Z = the digits 5–9 (thesis
// §4.6.2, Figure 4.3): the 70,000 images (training and test sets) with pixels scaled to [0, 1] and
// not standardised; X and W are disjoint uniform samples of the 35,735 images of 0–4, Z a uniform
// sample of the 34,265 images of 5–9, all without replacement. The Gaussian kernel's σ² is the mean
// squared distance over all 70,000 images (the thesis's rule on the data set F), fixed for every
// draw. The exact MMD² is computed up to n = 10⁴ (10³ at quick scale, where one exact estimate at
// n = 3000 already takes about 2 s in 784 dimensions). Sizes: paper 500 draws, n = 100 … 15,000
// (the largest n the 0–4 images allow for two disjoint samples, 17,867, rounded down); quick 40
// draws, n = 100 … 10⁴; smoke 4 draws. Protocol and shared choices: mmd_common.go.
func fig4_3() *run.Experiment {
	f := mmdFigure{
		id: "fig4_3", title: "Three-sample problem MNIST 0–4 vs 5–9: error, Δ to exact MMD² and time vs n",
		seed: 4003, dataset: fig4_3Dataset, describe: "MNIST 0–4 vs 5–9",
		sizes: fig4_3Sizes,
		load:  loadMNISTPools,
	}
	const d = fig4_3Dataset
	approx := []string{"linear", "block", "rff", "nystrom"}
	return f.experiment(
		claimFewestErrors("rff-fewest-small-n",
			"for n ≤ 5000 RFF makes the fewest errors among the approximations (mean error over those n ≤ that of linear, block and Nyström)",
			d, "rff", []string{"linear", "block", "nystrom"}, func(n float64) bool { return n <= 5000 }, "n ≤ 5000"),
		claimFewestErrors("nystrom-fewest-large-n",
			"for n ≥ 5000 Nyström makes the fewest errors among the approximations (mean error over those n ≤ that of linear, block and RFF)",
			d, "nystrom", []string{"linear", "block", "rff"}, func(n float64) bool { return n >= 5000 }, "n ≥ 5000"),
		run.Claim{
			ID:    "nystrom-no-error-from-10000",
			Text:  "from n ≈ 10000 Nyström makes no error: its error rate is 0 at every n ≥ 10000",
			Check: checkNoErrorFrom(d, "nystrom", 10000),
		},
		run.Claim{
			ID:    "exact-no-error",
			Text:  "the exact MMD makes no error, even at small n: its error rate is 0 at every n where it ran",
			Check: checkNoErrorFrom(d, "exact", 0),
		},
		run.Claim{
			ID:    "convergence-order",
			Text:  "RFF converges fastest to the exact value, Nyström and block alike, linear slowest: at the largest n with the exact MMD, RFF has the smallest mean Δ and linear the largest, and Nyström's and block's are within a factor 3",
			Check: checkConvergenceOrder(d),
		},
		run.Claim{
			ID:    "time-order",
			Text:  "time order linear < RFF ≈ Nyström < block < exact: at the largest n with the exact MMD, linear is below RFF and Nyström, RFF and Nyström are within a factor 2 and both below block, and block is below exact",
			Check: checkTimeOrder(d, approx),
		},
	)
}

// loadMNISTPools loads MNIST (pixels / 255) and splits its images into the digits 0–4 (P_X) and
// 5–9 (P_Z), with the Gaussian kernel of σ² = the mean squared distance over all images.
func loadMNISTPools(ctx context.Context, _ run.Scale) (mmdSampler, error) {
	t, err := dataset.DefaultSource().Table(ctx, fig4_3Dataset)
	if err != nil {
		return nil, err
	}
	if t.Dense == nil {
		return nil, fmt.Errorf("fig4_3: the %s table has no image matrix", fig4_3Dataset)
	}
	var px, pz []int
	for i, digit := range t.Target.Values {
		if digit < 5 {
			px = append(px, i)
		} else {
			pz = append(pz, i)
		}
	}
	pools, err := newVectorPools(t.Dense, px, pz)
	if err != nil {
		return nil, err
	}
	return pools.sample, nil
}

// checkNoErrorFrom passes when method's error rate is 0 at every n ≥ from, with one such n at least.
func checkNoErrorFrom(dataset, method string, from float64) func(*run.Results) (run.Verdict, error) {
	return func(res *run.Results) (run.Verdict, error) {
		cs, err := mmdCurves(res, dataset, mmdMetricError, method)
		if err != nil {
			return run.Verdict{}, err
		}
		var ns, errs []float64
		for _, s := range cs[method].Points {
			if s.X >= from {
				ns, errs = append(ns, s.X), append(errs, s.Mean)
			}
		}
		if len(ns) == 0 {
			return run.Verdict{Outcome: legacyOutcome(false), Evidence: fmt.Sprintf("%s ran at no n ≥ %g in this run", method, from)}, nil
		}
		pass := true
		for _, e := range errs {
			pass = pass && e == 0
		}
		return run.Verdict{Outcome: legacyOutcome(pass), Evidence: fmt.Sprintf("%s error rate at n = %v: %s", method, ns, formatFloats(errs))}, nil
	}
}

// checkConvergenceOrder checks fig4_3's order of the mean Δ at the largest n with the exact MMD:
// RFF smallest, linear largest, Nyström and block within a factor 3.
func checkConvergenceOrder(dataset string) func(*run.Results) (run.Verdict, error) {
	return func(res *run.Results) (run.Verdict, error) {
		methods := []string{"linear", "block", "rff", "nystrom"}
		cs, err := mmdCurves(res, dataset, mmdMetricDelta, methods...)
		if err != nil {
			return run.Verdict{}, err
		}
		n := cs["rff"].last().X
		v := func(m string) float64 { return valueAt(cs[m], n) }
		ratio := math.Max(v("nystrom"), v("block")) / math.Min(v("nystrom"), v("block"))
		pass := ratio <= 3
		for _, m := range []string{"linear", "block", "nystrom"} {
			pass = pass && v("rff") < v(m)
		}
		for _, m := range []string{"block", "rff", "nystrom"} {
			pass = pass && v("linear") > v(m)
		}
		return run.Verdict{
			Outcome:  legacyOutcome(pass),
			Evidence: fmt.Sprintf("mean Δ at n = %g: %s; Nyström/block ratio %.3g (at most 3 either way)", n, describeAt(cs, n, methods...), v("nystrom")/v("block")),
		}, nil
	}
}

// checkTimeOrder checks fig4_3's time order linear < RFF ≈ Nyström < block < exact at the largest
// n where the exact MMD ran.
func checkTimeOrder(dataset string, approximations []string) func(*run.Results) (run.Verdict, error) {
	return func(res *run.Results) (run.Verdict, error) {
		all := append(append([]string{}, approximations...), "exact")
		cs, err := mmdCurves(res, dataset, mmdMetricSeconds, all...)
		if err != nil {
			return run.Verdict{}, err
		}
		n := cs["exact"].last().X
		v := func(m string) float64 { return valueAt(cs[m], n) }
		fast, slow := math.Min(v("rff"), v("nystrom")), math.Max(v("rff"), v("nystrom"))
		pass := v("linear") < fast && slow/fast <= 2 && slow < v("block") && v("block") < v("exact")
		return run.Verdict{
			Outcome:  legacyOutcome(pass),
			Evidence: fmt.Sprintf("mean seconds per estimate at n = %g: %s; RFF/Nyström ratio %.3g (within a factor 2)", n, describeAt(cs, n, all...), v("rff")/v("nystrom")),
		}, nil
	}
}
