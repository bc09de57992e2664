package ch5

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"

	"github.com/fastkernels/kernellab/lab/pursuit"
	"github.com/fastkernels/kernellab/lab/run"
	"gonum.org/v1/gonum/floats"
)

// sizes are the dimensions, draws and iterations of fig5_1 at one scale.
type sizes struct {
	d, n int
	// draws (dictionary, signal) draws in tasks of perTask draws.
	draws, perTask int
	// iterations K of Frank-Wolfe; log‖r_k‖ is recorded every `every` iterations (k = 0, every, …, K).
	iterations, every int
}

// scales: paper = the thesis (d = 10⁴, n = 2·10⁴, 2000 draws); quick = the catalogue's
// d = 1000, n = 2000, 60 draws (the fewest that let below-theorem5 show fewer than 5% of
// crossings with none seen); smoke tiny. K = 200·m* for the m* the scale's coherence gives
// (quick m* = 3, paper m* = 8), so that the sparsest signals reach the rounding floor early and the
// densest (20m*) get ten iterations per support atom; 201 recorded values of k per curve. A paper
// task is one draw (a minute or more of one core), so that a partial run (lab run --first K) is K
// draws and a run stopped by a time limit loses at most one draw per worker.
var scales = run.PerScale[sizes]{
	Smoke: sizes{d: 300, n: 600, draws: 4, perTask: 2, iterations: 200, every: 2},
	Quick: sizes{d: 1000, n: 2000, draws: 60, perTask: 5, iterations: 600, every: 3},
	Paper: sizes{d: 10000, n: 20000, draws: 2000, perTask: 1, iterations: 1600, every: 8},
}

func planFig5_1(sc run.Scale) ([]run.Task, error) {
	sz := scales.At(sc)
	if sz.draws%sz.perTask != 0 || sz.iterations%sz.every != 0 {
		return nil, fmt.Errorf("fig5_1: %d draws in tasks of %d, K = %d recorded every %d: want exact divisions", sz.draws, sz.perTask, sz.iterations, sz.every)
	}
	tasks := make([]run.Task, sz.draws/sz.perTask)
	for t := range tasks {
		tasks[t] = run.Task{Key: "draws=" + strconv.Itoa(t*sz.perTask) + "-" + strconv.Itoa((t+1)*sz.perTask-1), Rep: t,
			Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
				var recs []run.Record
				for j := range sz.perTask {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					r, err := draw(ctx, env, sz, t*sz.perTask+j)
					if err != nil {
						return nil, err
					}
					recs = append(recs, r...)
					// The draw's dictionary and Gram matrix (4.7 GiB at paper scale) are garbage
					// now: collect them before the next draw allocates its own, which the
					// collector's pacing (a heap up to twice the live one) would let coexist.
					runtime.GC()
				}
				return recs, nil
			}}
	}
	return tasks, nil
}

// draw makes one dictionary and its four signals and records the dictionary's coherence, m*,
// μ₁(D, m* − 1), and for each sparsity log‖y‖, log‖r_k‖ on the recorded k, the number of atoms
// outside the support that Frank-Wolfe selected (Theorem 4: none at m*), and at m* the rates θ of
// Theorem 5 and of matching pursuit. The dictionary carries its Gram matrix (withGram).
func draw(ctx context.Context, env *run.Env, sz sizes, draw int) ([]run.Record, error) {
	return drawWith(ctx, env, sz, draw, withGram)
}

// withGram pairs the dictionary with its Gram matrix, computed once by a symmetric rank-d update:
// the coherence pass reads it, and every Frank-Wolfe search of the draw takes Dᵀr_k = Dᵀy − Gα_k
// from it (the same atoms and values as a search over the dictionary, for O(n) a step instead of
// O(dn)).
func withGram(dd *pursuit.DenseDictionary) (pursuit.Dictionary, error) {
	return pursuit.NewGramDictionary(dd)
}

// drawWith is draw with the dictionary that the coherence pass and Frank-Wolfe use made by
// prepare from the drawn atoms (BenchmarkFig5_1Draw and TestFig5_1GramChangesNothing also use the
// DenseDictionary alone, the way draws ran before).
func drawWith(ctx context.Context, env *run.Env, sz sizes, draw int, prepare func(*pursuit.DenseDictionary) (pursuit.Dictionary, error)) ([]run.Record, error) {
	atoms, err := pursuit.NewGaussianDictionary(env.RNG, sz.d, sz.n)
	if err != nil {
		return nil, err
	}
	dict, err := prepare(atoms)
	if err != nil {
		return nil, err
	}
	inc, err := pursuit.MeasureIncoherence(dict, maxBabel)
	if err != nil {
		return nil, err
	}
	mStar, err := pursuit.RecoverySparsity(inc.Coherence)
	if err != nil {
		return nil, err
	}
	babel, exact := inc.Babel(mStar - 1)
	if !exact {
		fmt.Fprintf(env.Log, "fig5_1 draw %d: m* = %d > %d, μ₁(D, m*−1) bounded by (m*−1)μ\n", draw, mStar, maxBabel+1)
	}
	drawParam := run.P("draw", draw)
	recs := []run.Record{
		{Dataset: dataset, Method: dictionary, Params: []run.Param{drawParam, run.P("d", sz.d), run.P("n", sz.n)}, Metric: coherence, Value: inc.Coherence},
		{Dataset: dataset, Method: dictionary, Params: []run.Param{drawParam}, Metric: metricMStar, Value: float64(mStar)},
	}
	// μ₁(D, m − 1) at every sparsity m = c·m*: Theorem 5's rate at m, which exponential-2m-5m
	// extrapolates (exact up to maxBabel, Tropp's bound beyond).
	for _, multiple := range multiples {
		b, ex := inc.Babel(multiple*mStar - 1)
		recs = append(recs, run.Record{Dataset: dataset, Method: dictionary,
			Params: []run.Param{drawParam, run.P("m", multiple*mStar-1), run.P("exact", ex)}, Metric: metricBabel, Value: b})
	}
	for _, multiple := range multiples {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := multiple * mStar
		r, err := signal(env.RNG, dict, sz, m)
		if err != nil {
			return nil, fmt.Errorf("draw %d, m = %d: %w", draw, m, err)
		}
		method := method(multiple)
		params := []run.Param{drawParam, run.P("m", m)}
		recs = append(recs,
			run.Record{Dataset: dataset, Method: method, Params: params, Metric: logSignal, Value: r.logNorms[0]},
			run.Record{Dataset: dataset, Method: method, Params: params, Metric: offSupport, Value: float64(r.offSupport)})
		for k := 0; k <= sz.iterations; k += sz.every {
			recs = append(recs, run.Record{Dataset: dataset, Method: method, Params: []run.Param{drawParam, run.P("m", m), run.P("k", k)},
				Metric: logResidual, Value: r.logNorms[k]})
		}
		if multiple == 1 {
			theta, err := pursuit.FrankWolfeRate(babel, m, r.l1Norm, radiusFactor*r.l1Norm)
			if err != nil {
				return nil, fmt.Errorf("draw %d: %w", draw, err)
			}
			thetaMP, err := pursuit.MatchingPursuitRate(babel, m)
			if err != nil {
				return nil, fmt.Errorf("draw %d: %w", draw, err)
			}
			recs = append(recs,
				run.Record{Dataset: dataset, Method: method, Params: params, Metric: metricTheta, Value: theta},
				run.Record{Dataset: dataset, Method: method, Params: params, Metric: metricThetaMP, Value: thetaMP})
		}
	}
	return recs, nil
}

// fwRun is one Frank-Wolfe run on one signal.
type fwRun struct {
	// logNorms[k] is ln‖r_k‖ for k = 0..K (ln‖y‖ at k = 0).
	logNorms   []float64
	l1Norm     float64 // ‖α*‖₁
	offSupport int     // selected atoms outside the support of α*
}

// signal draws y = Dα* with a uniform support of size m and N(0, 1) coefficients and runs
// Frank-Wolfe with the line search on the ball of radius 8‖α*‖₁.
func signal(rng *rand.Rand, dict pursuit.Dictionary, sz sizes, m int) (fwRun, error) {
	if m > sz.n {
		return fwRun{}, fmt.Errorf("sparsity %d above the %d atoms", m, sz.n)
	}
	coef := make([]float64, sz.n)
	support := rng.Perm(sz.n)[:m]
	l1 := 0.0
	for _, j := range support {
		coef[j] = rng.NormFloat64()
		l1 += math.Abs(coef[j])
	}
	y := make([]float64, sz.d)
	if err := dict.Apply(y, coef); err != nil {
		return fwRun{}, err
	}
	yNorm := floats.Norm(y, 2)
	res, err := pursuit.FrankWolfe(dict, y, radiusFactor*l1, pursuit.StepLineSearch,
		pursuit.Options{MaxIterations: sz.iterations, Tolerance: stopRelative * yNorm, DropIterates: true})
	if err != nil {
		return fwRun{}, err
	}
	out := fwRun{logNorms: make([]float64, sz.iterations+1), l1Norm: l1}
	norms := res.ResidualNorms()
	floor := 0x1p-52 * res.SignalNorm
	for k := range out.logNorms {
		out.logNorms[k] = math.Log(max(norms[min(k, len(norms)-1)], floor))
	}
	for _, a := range res.Atoms {
		if coef[a] == 0 {
			out.offSupport++
		}
	}
	return out, nil
}
