package ch3

import (
	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/run"
)

// table3_1 — data sets of chapter 3 (thesis Table 3.1), as loaded here beside the printed sizes.
// The thesis's Adult has d = 15: that counts the label among the columns (14 features + income).
// Covertype comes from the mirror's partial copy unless the full UCI file is present (see its notes).
func table3_1() *run.Experiment {
	return kit.DatasetTable("table3_1", "Data sets of chapter 3",
		"Table 3.1 — data sets of chapter 3: n and d as loaded here beside the thesis's printed values.",
		[]kit.PrintedDataset{
			{Name: "Covertype", Dataset: "covtype", N: 581012, D: 54, Task: "classification (7 classes)"},
			{Name: "Adult", Dataset: "adult", N: 48842, D: 15, DCountsLabel: true, Task: "classification (binary)"},
			{Name: "KC1", Dataset: "kc1", N: 2109, D: 21, Task: "classification (binary)"},
			{Name: "Houses (California housing)", Dataset: "houses", N: 20640, D: 8, Task: "regression"},
		})
}
