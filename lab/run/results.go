package run

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/lab/internal/median"
)

// Results is the tidy results table of one experiment at one scale: what renderers and claim
// checks read.
type Results struct {
	ID    string
	Scale Scale
	Rows  []Row
}

// ReadResults reads a results table written by Execute or Merge. Errors name file:line. ID comes
// from the rows (the file name without .csv when there are none) and Scale from the parent folder
// when it is a scale name.
func ReadResults(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	return parseResults(data, path)
}

// parseResults is ReadResults of the table data read from path.
func parseResults(data []byte, path string) (*Results, error) {
	rows, err := readTable(bytes.NewReader(data), path)
	if err != nil {
		return nil, err
	}
	res := &Results{ID: strings.TrimSuffix(filepath.Base(path), ".csv"), Rows: rows}
	if len(rows) > 0 {
		res.ID = rows[0].ID
	}
	for i, r := range rows {
		if r.ID != res.ID {
			return nil, fmt.Errorf("run: %s:%d: row of experiment %q in a table of %q", path, i+2, r.ID, res.ID)
		}
	}
	if sc, err := ParseScale(filepath.Base(filepath.Dir(path))); err == nil {
		res.Scale = sc
	}
	return res, nil
}

// Load reads the results of e at scale sc under the results root dir (<dir>/<sc>/<ID>.csv).
// When the experiment has not been run the error wraps fs.ErrNotExist.
func Load(e *Experiment, sc Scale, dir string) (*Results, error) {
	if e == nil {
		return nil, errors.New("run: nil experiment")
	}
	if err := sc.validate(); err != nil {
		return nil, err
	}
	e = e.Producer()
	lay := layoutOf(dir, sc, e.ID)
	path := lay.table()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	if err := verifyTable(lay, data); err != nil {
		return nil, err
	}
	res, err := parseResults(data, path)
	if err != nil {
		return nil, err
	}
	if len(res.Rows) > 0 && res.ID != e.ID {
		return nil, fmt.Errorf("run: %s holds results of %q, not %q", path, res.ID, e.ID)
	}
	res.ID, res.Scale = e.ID, sc
	return res, nil
}

// Where returns the rows with the given dataset, method and metric; "" matches anything.
func (r *Results) Where(dataset, method, metric string) []Row {
	var out []Row
	for _, row := range r.Rows {
		if (dataset == "" || row.Dataset == dataset) && (method == "" || row.Method == method) && (metric == "" || row.Metric == metric) {
			out = append(out, row)
		}
	}
	return out
}

// Datasets lists the datasets in first-seen order (the order the experiment planned them).
func (r *Results) Datasets() []string {
	return firstSeen(r.Rows, func(row Row) string { return row.Dataset })
}

// Methods lists the methods in first-seen order.
func (r *Results) Methods() []string {
	return firstSeen(r.Rows, func(row Row) string { return row.Method })
}

// Metrics lists the metrics in first-seen order.
func (r *Results) Metrics() []string {
	return firstSeen(r.Rows, func(row Row) string { return row.Metric })
}

func firstSeen(rows []Row, field func(Row) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, row := range rows {
		if s := field(row); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Summary is a metric over repetitions at one value of one parameter: one point of a curve with
// its spread.
type Summary struct {
	Dataset, Method, Metric string
	// X is the value of the x parameter.
	X float64
	// N is the number of rows summarised.
	N int
	// SD is the sample standard deviation (divisor N-1; 0 when N is 1).
	Mean, SD, Min, Max, Median float64
}

// Summarise groups rows by (dataset, method, metric, value of the xParam parameter) and returns
// the groups sorted by dataset, method and metric (each in first-seen order), then X ascending.
// Rows lacking the parameter, or with a non-numeric or NaN one, are an error.
func Summarise(rows []Row, xParam string) ([]Summary, error) {
	type groupKey struct {
		dataset, method, metric string
		x                       float64
	}
	rank := func(field func(Row) string) map[string]int {
		m := map[string]int{}
		for i, s := range firstSeen(rows, field) {
			m[s] = i
		}
		return m
	}
	dsRank := rank(func(r Row) string { return r.Dataset })
	methodRank := rank(func(r Row) string { return r.Method })
	metricRank := rank(func(r Row) string { return r.Metric })

	groups := map[groupKey][]float64{}
	var keys []groupKey
	for _, row := range rows {
		x, err := row.ParamFloat(xParam)
		if err != nil {
			return nil, err
		}
		if math.IsNaN(x) {
			return nil, fmt.Errorf("run: %s: parameter %s is NaN", row.describe(), xParam)
		}
		k := groupKey{row.Dataset, row.Method, row.Metric, x}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], row.Value)
	}
	slices.SortFunc(keys, func(a, b groupKey) int {
		return cmp.Or(
			cmp.Compare(dsRank[a.dataset], dsRank[b.dataset]),
			cmp.Compare(methodRank[a.method], methodRank[b.method]),
			cmp.Compare(metricRank[a.metric], metricRank[b.metric]),
			cmp.Compare(a.x, b.x),
		)
	})
	out := make([]Summary, len(keys))
	for i, k := range keys {
		out[i] = summarise(groups[k])
		out[i].Dataset, out[i].Method, out[i].Metric, out[i].X = k.dataset, k.method, k.metric, k.x
	}
	return out, nil
}

// summarise computes the statistics of a non-empty sample.
func summarise(values []float64) Summary {
	v := slices.Clone(values)
	slices.Sort(v)
	n := len(v)
	s := Summary{N: n, Min: v[0], Max: v[n-1]}
	for _, x := range v {
		s.Mean += x
	}
	s.Mean /= float64(n)
	if n > 1 {
		var ss float64
		for _, x := range v {
			ss += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(ss / float64(n-1))
	}
	s.Median = median.Sorted(v)
	return s
}
