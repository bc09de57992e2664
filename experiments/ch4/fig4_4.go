package ch4

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

const fig4_4Dataset = "covtype"

// fig4_4Variant is the Covertype file of each scale: the full UCI data at paper scale (downloaded
// when neither the mirror nor the cache has it), the 31,220-row subset of the offline mirror
// otherwise. The variant is named rather than left to the loader's default, which depends on the
// files present, so that a scale always means the same data.
func fig4_4Variant(sc run.Scale) string {
	if sc == run.Paper {
		return dataset.CovtypeFull
	}
	return dataset.CovtypeSubset
}

// fig4_4Sizes are the sample sizes and draws of fig4_4 at each scale.
var fig4_4Sizes = run.PerScale[sizes]{
	Smoke: sizes{n: []int{50, 200}, exactMax: 200, tasks: 2, drawsPerTask: 2, timedDraws: 1, timeCalls: 1},
	Quick: sizes{n: []int{100, 300, 1000, 3000}, exactMax: 1000, tasks: 20, drawsPerTask: 10, timedDraws: 1, timeCalls: 3},
	Paper: sizes{n: []int{100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000}, exactMax: 10000, tasks: 50, drawsPerTask: 10, timedDraws: 1, timeCalls: 5},
}

// fig4_4 — the three-sample problem on Covertype, P_X = cover type 1, P_Z = cover type 2 (the
// thesis's "classes 0 and 1", the two first classes; §4.6.2, Figure 4.4). The 54 features are
// standardised over the whole loaded table, then the rows of the two classes are kept; X and W are
// disjoint uniform samples of class 1 and Z a uniform sample of class 2, without replacement. The
// Gaussian kernel's σ² is the mean squared distance over the rows of the two classes. Data: the full
// UCI file at paper scale (211,840 and 283,301 rows in the two classes), the mirror's 31,220-row
// subset otherwise, whose 7,134 rows of class 1 cap n at 3,567 (two disjoint samples), hence
// n ≤ 3000 at quick scale. The exact MMD² is computed up to n = 10⁴ (10³ at quick scale). Sizes:
// paper 500 draws, n = 100 … 10⁵; quick 200 draws, n = 100 … 3000; smoke 4 draws. Protocol and
// shared choices: mmd_common.go.
func fig4_4() *run.Experiment {
	f := figure{
		id: "fig4_4", title: "Three-sample problem Covertype class 1 vs class 2: error, Δ to exact MMD² and time vs n",
		seed: 4004, dataset: fig4_4Dataset, describe: "Covertype 1 vs 2",
		sizes: fig4_4Sizes,
		load:  loadCovtypePools,
		setup: func(sc run.Scale) string {
			data := "the offline mirror's 31,220-row subset of Covertype (7,134 rows of cover type 1, which caps n at 3,567 for two disjoint samples)"
			if fig4_4Variant(sc) == dataset.CovtypeFull {
				data = "the full UCI Covertype data (211,840 rows of cover type 1 and 283,301 of type 2)"
			}
			return "P_X = cover type 1, P_Z = cover type 2 (the thesis's classes 0 and 1), from " + data + "; the 54 features are standardised over the loaded table; X and W are disjoint uniform samples of type 1 and Z a uniform sample of type 2, without replacement. Gaussian kernel, σ² = the mean squared distance over the rows of the two types."
		},
	}
	const d = fig4_4Dataset
	return f.experiment(
		claimExactFewest("exact-fewest", d, []string{"linear", "block", "rff", "nystrom"}),
		claimFewestErrors("nystrom-next",
			"Nyström comes next: it makes fewer errors than every other approximation",
			d, "nystrom", []string{"linear", "block", "rff"}, fixedRange(everyN())),
		claimSameConvergence("nystrom-rff-same-convergence",
			"Nyström and RFF converge to the exact MMD at almost the same speed", d, "nystrom", "rff"),
	)
}

// loadCovtypePools loads Covertype (the variant of the scale), standardises its features and keeps
// the rows of cover types 1 (P_X) and 2 (P_Z), with the Gaussian kernel of σ² = their mean squared
// distance.
func loadCovtypePools(ctx context.Context, src dataset.Source, sc run.Scale) (sampler, error) {
	t, err := src.Table(ctx, fig4_4Dataset, dataset.Variant(fig4_4Variant(sc)))
	if err != nil {
		return nil, err
	}
	X, err := t.Matrix(dataset.Prep{Standardise: true})
	if err != nil {
		return nil, err
	}
	if len(t.Target.Classes) < 2 || t.Target.Classes[0] != "1" || t.Target.Classes[1] != "2" {
		return nil, fmt.Errorf("fig4_4: %s classes %v, want cover types 1 and 2 first", fig4_4Dataset, t.Target.Classes)
	}
	var rows, px, pz []int
	for i, code := range t.Target.Values {
		switch code {
		case 0:
			px = append(px, len(rows))
		case 1:
			pz = append(pz, len(rows))
		default:
			continue
		}
		rows = append(rows, i)
	}
	_, d := X.Dims()
	kept := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		kept.SetRow(i, X.RawRowView(r))
	}
	pools, err := newVectorPools(kept, px, pz)
	if err != nil {
		return nil, err
	}
	return pools.sample, nil
}
