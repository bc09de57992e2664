// Package kit holds what the sources' experiment packages share: curves and their print-quality
// rendering (series.go), the data set tables of chapters 3, 4 and 6 (datatables.go), the random
// train/test splits (draw.go), the metric names several sources record (metrics.go) and small
// helpers (helpers.go). It is internal: the experiments' building blocks, not a public API.
package kit
