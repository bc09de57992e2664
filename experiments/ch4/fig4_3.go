package ch4

import (
	"context"
	"fmt"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

const fig4_3Dataset = "mnist"

// fig4_3Sizes are the sample sizes and draws of fig4_3 at each scale.
var fig4_3Sizes = run.PerScale[sizes]{
	Smoke: sizes{n: []int{50, 200}, exactMax: 200, tasks: 2, drawsPerTask: 2, timedDraws: 1, timeCalls: 1},
	Quick: sizes{n: []int{100, 300, 1000, 3000, 10000}, exactMax: 1000, tasks: 4, drawsPerTask: 10, timedDraws: 2, timeCalls: 3},
	Paper: sizes{n: []int{100, 200, 500, 1000, 2000, 5000, 10000, 15000}, exactMax: 10000, tasks: 50, drawsPerTask: 10, timedDraws: 1, timeCalls: 5},
}

// fig4_3 — the three-sample problem on MNIST, P_X = the digits 0–4, P_Z = the digits 5–9 (thesis
// §4.6.2, Figure 4.3): the 70,000 images (training and test sets) with pixels scaled to [0, 1] and
// not standardised; X and W are disjoint uniform samples of the 35,735 images of 0–4, Z a uniform
// sample of the 34,265 images of 5–9, all without replacement. The Gaussian kernel's σ² is the mean
// squared distance over all 70,000 images (the thesis's rule on the data set F), fixed for every
// draw. The exact MMD² is computed up to n = 10⁴ (10³ at quick scale, where one exact estimate at
// n = 3000 already takes about 2 s in 784 dimensions). Sizes: paper 500 draws, n = 100 … 15,000
// (the largest n the 0–4 images allow for two disjoint samples, 17,867, rounded down); quick 40
// draws, n = 100 … 10⁴; smoke 4 draws. Protocol and shared choices: common.go.
func fig4_3() *run.Experiment {
	f := figure{
		id: "fig4_3", title: "Three-sample problem MNIST 0–4 vs 5–9: error, Δ to exact MMD² and time vs n",
		seed: 4003, dataset: fig4_3Dataset, describe: "MNIST 0–4 vs 5–9",
		compared: [2]string{"nystrom", "exact"},
		sizes:    fig4_3Sizes,
		load:     loadMNISTPools,
		setup: func(run.Scale) string {
			return "P_X = the 35,735 images of 0–4, P_Z = the 34,265 of 5–9 (training and test sets, pixels in [0, 1]), sampled without replacement, X and W disjoint. Gaussian kernel, σ² = the mean squared distance over all 70,000 images."
		},
	}
	const d = fig4_3Dataset
	return f.experiment(
		claimFewestErrors("rff-fewest-small-n",
			"for n ≤ 5000 RFF makes fewer errors than every other approximation",
			d, "rff", []string{"linear", "block", "nystrom"}, fixedRange(uptoN(5000))),
		claimFewestErrors("nystrom-fewest-large-n",
			"for n ≥ 5000 Nyström makes fewer errors than every other approximation",
			d, "nystrom", []string{"linear", "block", "rff"}, fixedRange(fromN(5000))),
		run.Claim{
			ID:    "nystrom-no-error-from-10000",
			Kind:  run.Finding,
			Text:  "from n ≈ 10000 Nyström makes no error",
			Rule:  noErrorRule,
			Check: checkNoErrorFrom(d, "nystrom", 10000),
		},
		run.Claim{
			ID:    "exact-no-error",
			Kind:  run.Finding,
			Text:  "the exact MMD makes no error, even at small n",
			Rule:  noErrorRule,
			Check: checkNoErrorFrom(d, "exact", 0),
		},
		run.Claim{
			ID:    "convergence-order",
			Kind:  run.Finding,
			Text:  "RFF converges fastest to the exact value, Nyström and block at the same speed, linear slowest",
			Rule:  deltaRule + "; pairs: RFF against linear, block and Nyström, and block and Nyström against linear; 'Nyström and block at the same speed': both log-log slopes of Δ against n below 0, then " + sameSpeedRule + "; one family, Holm",
			Check: checkConvergenceOrder(d),
		},
		run.Claim{
			ID:   "time-order",
			Kind: run.Timing,
			Text: "time order linear < RFF ≈ Nyström < block < exact",
			Rule: timeRule + " (the largest n where the exact MMD was timed)",
			Check: checkTimes(d, "exact", []timeOrder{
				{"linear", "rff", verdict.Faster}, {"linear", "nystrom", verdict.Faster}, {"rff", "nystrom", verdict.SameTime},
				{"rff", "block", verdict.Faster}, {"nystrom", "block", verdict.Faster}, {"block", "exact", verdict.Faster},
			}),
		},
	)
}

// loadMNISTPools loads MNIST (pixels / 255) and splits its images into the digits 0–4 (P_X) and
// 5–9 (P_Z), with the Gaussian kernel of σ² = the mean squared distance over all images.
func loadMNISTPools(ctx context.Context, src dataset.Source, _ run.Scale) (sampler, error) {
	t, err := src.Table(ctx, fig4_3Dataset)
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

// noErrorRule is the Rule of the "no error" claims.
var noErrorRule = fmt.Sprintf("at each n of the range, the error rate below %g ('no error', a rate the thesis's curves would not show; exact binomial, Clopper–Pearson), Holm over the n; contradicted if above %g at one n", noErrorRate, noErrorRate)

// checkNoErrorFrom decides "method makes no error at n ≥ from": a family over those n.
func checkNoErrorFrom(dataset, method string, from float64) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		ns, err := ns(res, dataset, method, metricWrong)
		if err != nil {
			return verdict.Verdict{}, err
		}
		var tests []verdict.Test
		for _, n := range ns {
			if n < from {
				continue
			}
			t, err := noError(res, dataset, method, atN(n))
			if err != nil {
				return verdict.Verdict{}, err
			}
			tests = append(tests, t)
		}
		if len(tests) == 0 {
			return verdict.InconclusiveVerdict(fmt.Sprintf("%s ran at no n ≥ %g in this run (n = %s)", method, from, kit.FormatFloats(ns))), nil
		}
		return verdict.Decide(tests), nil
	}
}

// checkConvergenceOrder decides fig4_3's order of convergence: RFF's Δ below every other's, linear's
// above block's and Nyström's, and Nyström and block converging at the same speed.
func checkConvergenceOrder(dataset string) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		var tests []verdict.Test
		for _, p := range [][2]string{{"rff", "linear"}, {"rff", "block"}, {"rff", "nystrom"}, {"block", "linear"}, {"nystrom", "linear"}} {
			t, err := deltaBelow(res, dataset, p[0], p[1], everyN())
			if err != nil {
				return verdict.Verdict{}, err
			}
			tests = append(tests, t)
		}
		same, notes, err := sameConvergence(res, dataset, "nystrom", "block")
		if err != nil {
			return verdict.Verdict{}, err
		}
		return verdict.Decide(append(tests, same), notes...), nil
	}
}
