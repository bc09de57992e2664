package ch3

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// Sizes of the fig3_1 illustration: n points, blocks of m = √n.
const (
	dacIllustrationN = 36
	dacIllustrationM = 6
)

// fig3_1 — the DAC-RLS illustration (thesis Figure 3.1, §3.2). A Gaussian Gram matrix of a small 2-D
// mixture (σ² by the thesis rule) with its rows and columns grouped by the random partition R₁..R_r of
// DAC-RLS (Algorithm 2: random permutation, consecutive blocks of m = √n); the diagonal blocks K_{R_i}
// are outlined and everything else, which DAC-RLS never computes, is greyed out.
func fig3_1() *run.Experiment {
	return &run.Experiment{
		ID: "fig3_1", Title: "DAC-RLS block illustration", Kind: run.Figure, Seed: 31,
		Plan: func(run.Scale) ([]run.Task, error) {
			return []run.Task{{Key: "gram", Run: func(_ context.Context, env *run.Env) ([]run.Record, error) {
				return dacIllustrationRecords(env.RNG)
			}}}, nil
		},
		Render: renderFig3_1,
	}
}

// dacIllustrationRecords draws the mixture, partitions it, and records the permuted Gram matrix and
// the block sizes.
func dacIllustrationRecords(rng *rand.Rand) ([]run.Record, error) {
	n := dacIllustrationN
	centres := [][2]float64{{0, 0}, {3, 0}, {1.5, 2.5}}
	X := mat.NewDense(n, 2, nil)
	for i := range n {
		c := centres[rng.IntN(len(centres))]
		X.Set(i, 0, c[0]+0.6*rng.NormFloat64())
		X.Set(i, 1, c[1]+0.6*rng.NormFloat64())
	}
	perm := rng.Perm(n)
	var grouped mat.Dense
	grouped.CloneFrom(X)
	for i, p := range perm {
		grouped.SetRow(i, X.RawRowView(p))
	}
	k, _, err := kernel.ThesisGaussian(&grouped)
	if err != nil {
		return nil, err
	}
	K, err := kernel.Gram(k, &grouped)
	if err != nil {
		return nil, err
	}
	var recs []run.Record
	for i := range n {
		for j := range n {
			recs = append(recs, run.Record{Dataset: "mixture", Method: "gram",
				Params: []run.Param{run.P("i", i), run.P("j", j)}, Metric: "k", Value: K.At(i, j)})
		}
	}
	for b, start := 0, 0; start < n; b, start = b+1, start+dacIllustrationM {
		size := min(dacIllustrationM, n-start)
		recs = append(recs, run.Record{Dataset: "mixture", Method: "partition",
			Params: []run.Param{run.P("block", b)}, Metric: "size", Value: float64(size)})
	}
	return recs, nil
}

// renderFig3_1 draws the heat map with the diagonal blocks outlined.
func renderFig3_1(res *run.Results, out *run.Output) error {
	entries := res.Where("mixture", "gram", "k")
	n := int(math.Round(math.Sqrt(float64(len(entries)))))
	if n == 0 || n*n != len(entries) {
		return fmt.Errorf("fig3_1: %d Gram entries do not form a square matrix", len(entries))
	}
	K := mat.NewDense(n, n, nil)
	for _, row := range entries {
		i, err := row.ParamFloat("i")
		if err != nil {
			return err
		}
		j, err := row.ParamFloat("j")
		if err != nil {
			return err
		}
		K.Set(int(i), int(j), row.Value)
	}
	var blocks []plotting.Rect
	start := 0
	for _, row := range res.Where("mixture", "partition", "size") {
		size := int(row.Value)
		blocks = append(blocks, plotting.Rect{Row0: start, Col0: start, Rows: size, Cols: size})
		start += size
	}
	if start != n {
		return fmt.Errorf("fig3_1: blocks cover %d of %d rows", start, n)
	}
	p := plotting.NewPrint(fmt.Sprintf("Gram matrix K, n = %d, r = %d blocks", n, len(blocks)),
		"columns j, grouped by block Rᵢ", "rows i, grouped by block Rᵢ")
	if err := plotting.HeatMap(p, K, plotting.HeatMapOptions{Outline: blocks, GreyOutside: true, BarLabel: "kernel value k(x, x′)"}); err != nil {
		return err
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = blockTicks(blocks, 0), blockTicks(blocks, n)
	if err := kit.SavePrintGrid(out, 1, 1, plotting.ColumnWidth, 7.6*vg.Centimeter, plotting.LegendBelow, p); err != nil {
		return err
	}
	computed := 0
	for _, b := range blocks {
		computed += b.Rows * b.Cols
	}
	result := fmt.Sprintf("DAC-RLS computes only the r = %d diagonal blocks K_{Rᵢ} of K: %d of its %d entries (%.0f%%, about 1/r).",
		len(blocks), computed, n*n, 100*float64(computed)/float64(n*n))
	return kit.WriteCaption(out, res, result, fmt.Sprintf("The block structure of DAC-RLS (thesis Figure 3.1, Algorithm 2): "+
		"the Gaussian Gram matrix K of n = %d points drawn from a mixture of three 2-D Gaussians (σ² by the thesis rule, the "+
		"mean squared distance between the points), rows and columns permuted at random and grouped into the r = %d "+
		"consecutive blocks R₁ … R_r of m = √n = %d points that DAC-RLS uses. The diagonal blocks (outlined, in viridis, colour "+
		"bar k(x, x′)) are all DAC-RLS computes; every other entry is greyed out (the grey keeps the colour map's lightness "+
		"order). The scores DAC-RLS then computes within each block are not drawn. One draw of the mixture and of the "+
		"permutation (seed %d); the same at every scale.", n, len(blocks), dacIllustrationM, fig3_1().Seed))
}

// blockTicks labels the blocks R₁, R₂, … of a heat map's axis at their centres: on the x axis
// (rows = 0) column j lies at x = j, on the y axis of a matrix of rows rows, row i at y = rows − 1 − i
// (plotting.HeatMap draws entry (0, 0) at the top left).
func blockTicks(blocks []plotting.Rect, rows int) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(blocks))
	for k, b := range blocks {
		centre := float64(b.Row0) + float64(b.Rows-1)/2
		if rows > 0 {
			centre = float64(rows-1) - centre
		}
		ticks[k] = plot.Tick{Value: centre, Label: "R" + subscript(k+1)}
	}
	return ticks
}

// subscript writes a positive integer in Unicode subscript digits.
func subscript(k int) string {
	digits := []rune("₀₁₂₃₄₅₆₇₈₉")
	var out []rune
	for _, c := range strconv.Itoa(k) {
		out = append(out, digits[c-'0'])
	}
	return string(out)
}
