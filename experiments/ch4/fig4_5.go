package ch4

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/graphkernel"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

const fig4_5Dataset = "mutag"

// fig4_5Sizes are the sample sizes and draws of fig4_5 at each scale.
var fig4_5Sizes = run.PerScale[sizes]{
	Smoke: sizes{n: []int{10, 40}, exactMax: 40, tasks: 2, drawsPerTask: 2, timedDraws: 1, timeCalls: 1},
	Quick: sizes{n: []int{10, 20, 50, 100, 200}, exactMax: 200, tasks: 20, drawsPerTask: 10, timedDraws: 1, timeCalls: 3},
	Paper: sizes{n: []int{10, 20, 50, 100, 200, 500}, exactMax: 500, tasks: 50, drawsPerTask: 10, timedDraws: 1, timeCalls: 5},
}

// fig4_5 — the three-sample problem on the MUTAG molecules (thesis §4.6.2, Figure 4.5) with the
// shortest-path graph kernel of Borgwardt and Kriegel (2005), unnormalised as they define it (the
// thesis does not mention a normalisation): P_X = the 125 mutagenic graphs (label 1), P_Z = the 63
// others (label −1). The classes are too small for disjoint samples of useful size, so X, W and Z
// are drawn uniformly with replacement from their class: P_X and P_Z are the uniform distributions
// on the two classes, and X and W may share graphs, as any two samples of P_X may. RFF does not
// apply to graphs. The exact MMD² is computed at every n. Sizes (the thesis gives neither the n nor
// the draws of this figure; 500 draws as for MNIST and Covertype): paper 500 draws, n = 10 … 500;
// quick 200 draws, n = 10 … 200; smoke 4 draws. The kernel is unnormalised, so Δ has the raw
// scale of shortest-path counts (the exact MMD² is about 3.6·10³ at n = 200): panel (b) shows the
// relative Δ, Δ / MMD²_exact(Z, W) of each draw, and the results keep both. Protocol and shared
// choices: common.go.
func fig4_5() *run.Experiment {
	f := figure{
		id: "fig4_5", title: "Three-sample problem MUTAG (shortest-path kernel): error, Δ to exact MMD² and time vs n",
		seed: 4005, dataset: fig4_5Dataset, describe: "MUTAG, shortest-path kernel", graphs: true, relativeDelta: true,
		compared: [2]string{"nystrom", "exact"},
		sizes:    fig4_5Sizes,
		load:     loadMUTAGPools,
		setup: func(run.Scale) string {
			return "P_X = the 125 mutagenic graphs, P_Z = the 63 others, drawn uniformly with replacement (the classes are too small for disjoint samples). Shortest-path graph kernel (Borgwardt and Kriegel, 2005), unnormalised. The thesis gives neither the n nor the draws of this figure."
		},
	}
	const d = fig4_5Dataset
	return f.experiment(
		claimExactFewest("exact-fewest", d, []string{"linear", "block", "nystrom"}),
		run.Claim{
			ID:    "error-order",
			Kind:  run.Finding,
			Text:  "after the exact MMD come Nyström, then block, then linear",
			Rule:  "McNemar's exact tests on the same decisions over every n: Nyström errs less often than block, block less often than linear (a family of 2, Holm); premise: the exact MMD's error rate below 1/2 (exact binomial), else INCONCLUSIVE",
			Check: checkErrorOrder(d, "nystrom", "block", "linear"),
		},
		run.Claim{
			ID:    "nystrom-converges-fastest",
			Kind:  run.Finding,
			Text:  "Nyström converges fastest to the exact value",
			Rule:  deltaRule,
			Check: checkDeltaBelow(d, []string{"nystrom"}, []string{"block", "linear"}),
		},
		run.Claim{
			ID:    "linear-fastest-block-slowest",
			Kind:  run.Timing,
			Text:  "exact aside, linear is the fastest and block the slowest",
			Rule:  timeRule,
			Check: checkTimes(d, "linear", []timeOrder{{"linear", "nystrom", verdict.Faster}, {"linear", "block", verdict.Faster}, {"nystrom", "block", verdict.Faster}}),
		},
	)
}

// graphPools are a set of graphs with the shortest-path kernel and the pools of P_X and P_Z.
type graphPools struct {
	graphs *graphkernel.ShortestPath
	px, pz []int
}

// loadMUTAGPools loads MUTAG, computes its shortest-path histograms and splits the graphs by label.
func loadMUTAGPools(ctx context.Context, src dataset.Source, _ run.Scale) (sampler, error) {
	set, err := src.Graphs(ctx, fig4_5Dataset)
	if err != nil {
		return nil, err
	}
	sp, err := graphkernel.NewShortestPath(set.Graphs, graphkernel.Options{})
	if err != nil {
		return nil, err
	}
	g := &graphPools{graphs: sp}
	for i, label := range set.Labels {
		if label == 1 {
			g.px = append(g.px, i)
		} else {
			g.pz = append(g.pz, i)
		}
	}
	if len(g.px) == 0 || len(g.pz) == 0 {
		return nil, fmt.Errorf("fig4_5: %s has %d graphs labelled 1 and %d others, want both", fig4_5Dataset, len(g.px), len(g.pz))
	}
	return g.sample, nil
}

// sample draws X and W from px and Z from pz, n graphs each, uniformly with replacement.
func (g *graphPools) sample(rng *rand.Rand, n int) (threeSampleDraw, error) {
	if n < 1 {
		return threeSampleDraw{}, fmt.Errorf("sample size %d, want at least 1", n)
	}
	draw := func(pool []int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = pool[rng.IntN(len(pool))]
		}
		return out
	}
	x := draw(g.px)
	z := draw(g.pz)
	return threeSampleDraw{points: g.graphs, x: x, z: z, w: draw(g.px)}, nil
}

// checkErrorOrder decides "the methods err less often in the order given" over every n: each
// errs less often than the next (McNemar), provided the exact MMD separates.
func checkErrorOrder(dataset string, methods ...string) func(*run.Results) (verdict.Verdict, error) {
	return func(res *run.Results) (verdict.Verdict, error) {
		premise, ok, err := separationPremise(res, dataset, methods, everyN())
		if err != nil {
			return verdict.Verdict{}, err
		}
		if !ok {
			return noSeparation(premise), nil
		}
		var tests []verdict.Test
		for i := 1; i < len(methods); i++ {
			t, err := fewerErrors(res, dataset, methods[i-1], methods[i], everyN())
			if err != nil {
				return verdict.Verdict{}, err
			}
			tests = append(tests, t)
		}
		return verdict.Decide(tests, premise.String()), nil
	}
}
