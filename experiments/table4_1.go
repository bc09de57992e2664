package experiments

import (
	"context"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

// gaussianPairSize and gaussianPairDim describe chapter 4's synthetic data: 2·10⁵ draws of N(0,1) and
// N(0,1.001). The thesis does not state the dimension; we use d = 1 (a parameter of fig4_2).
const (
	gaussianPairSize = 200000
	gaussianPairDim  = 1
)

// table4_1 — data sets of chapter 4 (thesis Table 4.1). The thesis prints no dimensions here; we show ours.
func table4_1() *run.Experiment {
	return datasetTable("table4_1", "Data sets of chapter 4",
		"Table 4.1 — data sets of chapter 4: n as loaded (and generated) here beside the thesis's printed values; d is ours (the thesis prints none; MUTAG holds graphs).",
		[]printedDataset{
			{Name: "Covertype", Dataset: "covtype", N: 581012, Task: "vectors"},
			{Name: "MNIST", Dataset: "mnist", N: 70000, Task: "vectors"},
			{Name: "N(0,1) vs N(0,1.001)", Dataset: "gaussians", N: gaussianPairSize, Task: "vectors (generated)",
				measure: func(context.Context, dataset.Source) (int, int, string, error) {
					return gaussianPairSize, gaussianPairDim, "generated", nil
				}},
			{Name: "MUTAG", Dataset: "mutag", N: 188, Task: "graphs",
				measure: func(ctx context.Context, src dataset.Source) (int, int, string, error) {
					g, err := src.Graphs(ctx, "mutag")
					if err != nil {
						return 0, 0, "", err
					}
					return len(g.Graphs), 0, "TU-Dortmund", nil
				}},
		})
}
