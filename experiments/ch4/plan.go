package ch4

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/mmd"
	"github.com/fastkernels/kernellab/lab/run"
	"gonum.org/v1/gonum/mat"
)

func (f figure) plan(sc run.Scale) ([]run.Task, error) {
	sz := f.sizes.At(sc)
	tasks := make([]run.Task, sz.tasks)
	for b := range sz.tasks {
		tasks[b] = run.Task{Key: "batch=" + strconv.Itoa(b), Rep: b, Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
			return f.runBatch(ctx, env.Data, env.RNG, sc, sz)
		}}
	}
	if f.extraTasks != nil {
		extra, err := f.extraTasks(sc)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, extra...)
	}
	return tasks, nil
}

// runBatch draws sz.drawsPerTask three-sample problems at every n and decides each with every
// method; the draws come from rng in a fixed order (n ascending, then draw, then the estimators in
// legend order), so a batch's numbers depend only on its key.
func (f figure) runBatch(ctx context.Context, src dataset.Source, rng *rand.Rand, sc run.Scale, sz sizes) ([]run.Record, error) {
	sample, err := f.load(ctx, src, sc)
	if err != nil {
		return nil, err
	}
	recs := []run.Record{{Dataset: f.dataset, Method: setupMethod, Metric: metricDraws, Value: float64(sz.drawsPerTask)}}
	ests := append(f.approximations(), mmd.Exact{})
	for _, n := range sz.n {
		for i := range sz.drawsPerTask {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			d, err := sample(rng, n)
			if err != nil {
				return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
			}
			calls := 0
			if i < sz.timedDraws {
				calls = sz.timeCalls
			}
			// The exact MMD decides first: the approximations' Δ needs its MMD²(Z, W).
			exactZW := math.NaN()
			if n <= sz.exactMax {
				dec, secs, err := decideTimed(ctx, mmd.Exact{}, rng, d, calls, n, i)
				if err != nil {
					return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
				}
				exactZW = dec.ZW
				recs = append(recs, drawRecords(f.dataset, "exact", n, i, dec, secs, math.NaN())...)
			}
			for _, est := range ests[:len(ests)-1] {
				dec, secs, err := decideTimed(ctx, est, rng, d, calls, n, i)
				if err != nil {
					return nil, fmt.Errorf("%s: n = %d: %w", f.id, n, err)
				}
				recs = append(recs, drawRecords(f.dataset, est.Name(), n, i, dec, secs, exactZW)...)
			}
		}
	}
	return recs, nil
}

// decideTimed solves one three-sample problem with est and, when calls > 0, times it: the decision
// is run.TimeMedian's warm-up call, and the calls timed ones redo it on the same samples with a
// generator of their own (seeded by n and the draw), so that rng, hence every decision, is the
// same whether or not a draw is timed. It returns the decision and the time of one MMD² estimate
// (half the decision's; NaN when untimed).
func decideTimed(ctx context.Context, est mmd.Estimator, rng *rand.Rand, d threeSampleDraw, calls, n, draw int) (mmd.Decision, float64, error) {
	if calls == 0 {
		dec, err := mmd.ThreeSample(ctx, rng, est, d.points, d.x, d.z, d.w)
		return dec, math.NaN(), err
	}
	var dec mmd.Decision
	timing := rand.New(rand.NewPCG(uint64(n), uint64(draw)))
	first := true
	secs, err := run.TimeMedian(calls, func() error {
		r := timing
		if first {
			r = rng
		}
		got, err := mmd.ThreeSample(ctx, r, est, d.points, d.x, d.z, d.w)
		if first {
			dec, first = got, false
		}
		return err
	})
	return dec, secs / 2, err
}

// drawRecords returns one method's rows for one draw: whether it erred, its time when timed (secs
// not NaN), and its Δ and relative Δ when the exact MMD²(Z, W) is known (exactZW not NaN).
func drawRecords(dataset, method string, n, draw int, dec mmd.Decision, secs, exactZW float64) []run.Record {
	params := []run.Param{run.P("n", n)}
	if method == "block" || method == "rff" || method == "nystrom" {
		params = append(params, run.P("s", mmd.DefaultSize(n)))
	}
	params = append(params, run.P("draw", draw))
	wrong := 0.0
	if !dec.FromX() {
		wrong = 1
	}
	recs := []run.Record{{Dataset: dataset, Method: method, Params: params, Metric: metricWrong, Value: wrong}}
	if !math.IsNaN(secs) {
		recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: params, Metric: metricSeconds, Value: secs})
	}
	if !math.IsNaN(exactZW) {
		delta := math.Abs(dec.ZW - exactZW)
		recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: params, Metric: metricDelta, Value: delta})
		if exactZW > 0 {
			recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: params, Metric: metricRelDelta, Value: delta / exactZW})
		}
	}
	return recs
}

// vectorPools are the rows of one matrix split into the pools P_X and P_Z are drawn from, with the
// Gaussian kernel of the thesis.
type vectorPools struct {
	points *mmd.Vectors
	px, pz []int
}

// newVectorPools puts the Gaussian kernel with the thesis's bandwidth (σ² = mean squared distance
// between the rows of X, kernel.MeanSquaredDistance) on the rows of X, px and pz being the rows of
// each pool.
func newVectorPools(X *mat.Dense, px, pz []int) (*vectorPools, error) {
	k, _, err := kernel.ThesisGaussian(X)
	if err != nil {
		return nil, err
	}
	points, err := mmd.NewVectors(k, X)
	if err != nil {
		return nil, err
	}
	return &vectorPools{points: points, px: px, pz: pz}, nil
}

// sample draws X and W from px and Z from pz, without replacement: X and W are disjoint, so W is a
// fresh sample of P_X. It needs 2n points in px and n in pz.
func (v *vectorPools) sample(rng *rand.Rand, n int) (threeSampleDraw, error) {
	if 2*n > len(v.px) || n > len(v.pz) {
		return threeSampleDraw{}, fmt.Errorf("samples of %d points need %d points of P_X and %d of P_Z, the data have %d and %d",
			n, 2*n, n, len(v.px), len(v.pz))
	}
	xw, err := lowrank.UniformLandmarks(rng, len(v.px), 2*n)
	if err != nil {
		return threeSampleDraw{}, err
	}
	z, err := lowrank.UniformLandmarks(rng, len(v.pz), n)
	if err != nil {
		return threeSampleDraw{}, err
	}
	return threeSampleDraw{points: v.points, x: rowsOfPool(v.px, xw[:n]), z: rowsOfPool(v.pz, z), w: rowsOfPool(v.px, xw[n:])}, nil
}

// rowsOfPool maps positions in a pool to the rows they stand for, sorted (the order of a sample
// does not matter to any estimator, and sorted rows are gathered faster).
func rowsOfPool(pool, positions []int) []int {
	rows := make([]int, len(positions))
	for i, p := range positions {
		rows[i] = pool[p]
	}
	slices.Sort(rows)
	return rows
}
