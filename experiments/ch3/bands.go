package ch3

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/fastkernels/kernellab/lab/run"
)

// confidence is the level of the bands of chapter 3's figures: a 95% confidence interval of the
// mean over the draws.
const confidence = 0.95

// meanCurve is one method's curve as chapter 3 draws it: at each x, the mean over the draws with the
// confidence interval of that mean, the band. On a log axis (geometric) the mean is that of the
// logarithms, drawn back on the data's scale (the geometric mean), and so is its interval, which then
// stays positive: the claims of the log-axis figures compare log ratios, so the figure shows the
// quantity they test. A band describes how well the mean is known, not how far a single draw
// strays (a min–max band over the draws would, and would hide every curve in the others' bands).
type meanCurve struct {
	method string
	// x lists the x values, ascending; mid, lo and hi the mean and the band at each (a single draw
	// has no interval: lo = hi = mid).
	x, mid, lo, hi []float64
}

// at returns the mean at x, ok false when the curve has no point there.
func (c meanCurve) at(x float64) (float64, bool) {
	i := slices.Index(c.x, x)
	if i < 0 {
		return 0, false
	}
	return c.mid[i], true
}

// last returns the x and the mean of the curve's largest x.
func (c meanCurve) last() (x, mid float64) { return c.x[len(c.x)-1], c.mid[len(c.mid)-1] }

// tInterval returns the half-width of the two-sided t interval at level confidence of a mean of
// draws values with sample standard deviation sd: t_{(1+confidence)/2, draws−1} · sd / √draws, 0
// for a single draw.
func tInterval(sd float64, draws int) float64 {
	if draws < 2 {
		return 0
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(draws - 1)}.Quantile((1 + confidence) / 2)
	return t * sd / math.Sqrt(float64(draws))
}

// meanCurves returns the curves of metric against xParam on dataset, for those of methods that have
// rows there (exact RLS runs only where n allows), in the order of methods; geometric curves for a
// log axis. A value that is not finite, or not positive for a geometric curve, is an error.
func meanCurves(res *run.Results, dataset, metric, xParam string, methods []string, geometric bool) ([]meanCurve, error) {
	present := present(res, dataset, metric, methods)
	if len(present) == 0 {
		return nil, fmt.Errorf("%s: no %s rows on %s", res.ID, metric, dataset)
	}
	out := make([]meanCurve, len(present))
	for i, m := range present {
		rows := slices.Clone(res.Where(dataset, m, metric))
		for j, r := range rows {
			if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || (geometric && r.Value <= 0) {
				return nil, fmt.Errorf("%s: %s %s %s = %g cannot be drawn on this axis", res.ID, dataset, m, metric, r.Value)
			}
			if geometric {
				rows[j].Value = math.Log(r.Value)
			}
		}
		sums, err := run.Summarise(rows, xParam)
		if err != nil {
			return nil, fmt.Errorf("%s: %s %s: %w", res.ID, m, metric, err)
		}
		c := meanCurve{method: m}
		back := func(v float64) float64 { return v }
		if geometric {
			back = math.Exp
		}
		for _, s := range sums {
			half := tInterval(s.SD, s.N)
			c.x = append(c.x, s.X)
			c.mid, c.lo, c.hi = append(c.mid, back(s.Mean)), append(c.lo, back(s.Mean-half)), append(c.hi, back(s.Mean+half))
		}
		out[i] = c
	}
	return out, nil
}

// bandWords says in a caption what the lines and bands of a figure drawn by panel are, on a log
// axis (geometric) or a linear one.
func bandWords(geometric bool) string {
	if geometric {
		return fmt.Sprintf("Lines: geometric mean over the draws; bands: its %g%% confidence interval (t interval on the logs).", 100*confidence)
	}
	return fmt.Sprintf("Lines: mean over the draws; bands: its %g%% confidence interval (t interval).", 100*confidence)
}
