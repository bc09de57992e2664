package kit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
)

// PerRep indexes rows without an x parameter by repetition; a repetition twice is an error.
func PerRep(rows []run.Row) (map[int]float64, error) {
	out := make(map[int]float64, len(rows))
	for _, r := range rows {
		if _, dup := out[r.Rep]; dup {
			return nil, fmt.Errorf("%s %s %s: repetition %d twice", r.Dataset, r.Method, r.Metric, r.Rep)
		}
		out[r.Rep] = r.Value
	}
	return out, nil
}

// Without returns methods less the ones listed.
func Without(methods []string, not ...string) []string {
	var out []string
	for _, m := range methods {
		if !slices.Contains(not, m) {
			out = append(out, m)
		}
	}
	return out
}

// IndexRange returns lo, lo+1, …, hi-1.
func IndexRange(lo, hi int) []int {
	out := make([]int, hi-lo)
	for i := range out {
		out[i] = lo + i
	}
	return out
}

// SelectRows returns the given rows of X as a new matrix.
func SelectRows(X mat.Matrix, rows []int) *mat.Dense {
	_, d := X.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		for j := range d {
			out.Set(i, j, X.At(r, j))
		}
	}
	return out
}

// LogLogSlope returns the least-squares slope of log y against log x: the exponent of a power law
// y ∝ x^slope. It needs two distinct positive x values and positive y values.
func LogLogSlope(x, y []float64) (float64, error) {
	if len(x) != len(y) || len(x) < 2 {
		return 0, fmt.Errorf("log-log slope: need two points or more with as many y as x, have %d and %d", len(x), len(y))
	}
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		if !(x[i] > 0) || !(y[i] > 0) || math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			return 0, fmt.Errorf("log-log slope: point (%g, %g) is not positive and finite", x[i], y[i])
		}
		lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
	}
	if slices.Min(lx) == slices.Max(lx) {
		return 0, fmt.Errorf("log-log slope: all x equal %g", x[0])
	}
	_, slope := stat.LinearRegression(lx, ly, nil, false)
	return slope, nil
}

// Reps is the number of repetitions behind a curve (the fewest over its x values).
func Reps(c Curve) int {
	n := 0
	for i, s := range c.Points {
		if i == 0 || s.N < n {
			n = s.N
		}
	}
	return n
}

// LogLog puts both axes of the plots on log scales.
func LogLog(plots ...*plot.Plot) error {
	for _, p := range plots {
		if err := plotting.LogX(p); err != nil {
			return err
		}
		if err := plotting.LogY(p); err != nil {
			return err
		}
	}
	return nil
}

// Xs lists a curve's x values.
func Xs(c Curve) []float64 {
	out := make([]float64, len(c.Points))
	for i, s := range c.Points {
		out[i] = s.X
	}
	return out
}

// FormatFloats prints values with four significant digits.
func FormatFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', 4, 64)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// Eye is the k×k identity.
func Eye(k int) *mat.Dense {
	m := mat.NewDense(k, k, nil)
	for i := range k {
		m.Set(i, i, 1)
	}
	return m
}
