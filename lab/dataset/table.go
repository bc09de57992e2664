package dataset

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// Kind says what a table's target is.
type Kind int

const (
	// Regression targets are real values.
	Regression Kind = iota
	// Classification targets are class codes 0..len(Classes)-1.
	Classification
)

// String returns "regression" or "classification".
func (k Kind) String() string {
	switch k {
	case Regression:
		return "regression"
	case Classification:
		return "classification"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Target is the column a table's features predict.
type Target struct {
	Name    string
	Kind    Kind
	Values  []float64 // regression values, or class codes 0..len(Classes)-1
	Classes []string  // class names by code (classification only)
}

// Table is a data set loaded for learning: features, target, and what the loader did to them.
type Table struct {
	Name    string
	Variant string              // which files and columns: "uci", "openml", "subset-31220", "train+test", ...
	Frame   dataframe.DataFrame // features (no target); empty for image sets, which fill Dense
	Dense   *mat.Dense          // image sets only (a frame of 784+ columns would be too heavy)
	Target  Target
	Notes   []string // what the loader did: rows dropped for missing values, subset used, ...
}

// LoadOption changes how [Source.Table] loads a data set.
type LoadOption func(*loadConfig)

type loadConfig struct {
	variant string
}

// Variant picks the files and columns of a data set that has several readings, for example
// gamma and steel_plates "openml" (the thesis's columns, default, which leak the label) or "uci"
// (honest features), covtype "uci" (full) or "subset-31220", lfw_pairs "train" (default),
// "test" or "10_folds". [Source.Table]'s documentation lists every data set's variants.
func Variant(v string) LoadOption {
	return func(c *loadConfig) { c.variant = v }
}

// tableLoader loads one tabular or vector-image data set; variant "" means the default.
type tableLoader struct {
	variants []string
	load     func(ctx context.Context, s Source, spec Spec, variant string) (*Table, error)
}

// Table loads data set name as features and target.
//
// Variants (first = default) and missing-value rules:
//   - adult: "train+test" (adult.data then adult.test), "train", "test"; rows with '?' are dropped.
//   - boston, breast_cancer, kr_vs_kp, spambase: "uci". breast_cancer drops the ID column.
//   - covtype: "uci" (the full covtype.data.gz, 581,012 rows) when the mirror or cache has it,
//     else "subset-31220" (the two partial files without their 98 shared rows); asking for "uci"
//     downloads the full file when it is missing. [Label] names each variant's rows for display.
//   - diabetes: "raw" (unstandardised, as scikit-learn's scaled=False). diamonds: "ggplot2".
//   - gamma: "openml" (11 features including ID, which leaks the label), "uci" (10 features).
//   - houses: "torgo" (cal_housing.data). kc1: "promise". kin8nm: "arff".
//   - steel_plates: "openml" (33 columns including six fault flags, which leak the label),
//     "uci" (27 features, same Other_Faults target), "uci-7class" (27 features, fault type).
//   - mnist: "train+test" (training rows first), "train", "test"; pixels/255 in Dense.
//   - lfw_pairs: "train", "test", "10_folds"; scikit-learn fetch_lfw_pairs gray values in Dense.
//
// None of the other data sets has missing values (their SOURCE.md files were checked); a value
// that does not parse is an error naming the file and the record.
func (s Source) Table(ctx context.Context, name string, opts ...LoadOption) (*Table, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	var cfg loadConfig
	for _, o := range opts {
		o(&cfg)
	}
	loader, ok := tableLoaders[name]
	if !ok {
		var what string
		switch spec.Task {
		case "graphs":
			what = "a graph set: use Source.Graphs"
		case "images":
			what = "a face image set: use Source.Faces"
		case "corpus":
			what = "a text corpus: use Source.Corpus"
		default:
			what = "not loadable as a table"
		}
		return nil, fmt.Errorf("dataset %s is %s", name, what)
	}
	if cfg.variant != "" && !contains(loader.variants, cfg.variant) {
		return nil, fmt.Errorf("dataset %s: unknown variant %q (variants: %s)", name, cfg.variant, strings.Join(loader.variants, ", "))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return loader.load(ctx, s, spec, cfg.variant)
}

// LoadTable is [DefaultSource]().Table.
func LoadTable(ctx context.Context, name string, opts ...LoadOption) (*Table, error) {
	return DefaultSource().Table(ctx, name, opts...)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.Target.Values) }

// NumFeatures returns the number of feature columns (the target is not one).
func (t *Table) NumFeatures() int {
	if t.Dense != nil {
		_, c := t.Dense.Dims()
		return c
	}
	return t.Frame.Ncol()
}

// Prep says how Matrix prepares the features.
type Prep struct {
	Standardise bool // zero mean, unit variance per column (constant columns become 0, noted)
}

// Matrix returns the features as a new n×d float64 matrix: numeric columns as they are,
// categorical (string) columns ordinal-coded 0, 1, ... in the sorted order of their values, then
// standardised when asked (population variance, as scikit-learn's StandardScaler). It appends a
// note to t.Notes for every constant column standardised to 0, so do not call it concurrently on
// one table. Memory: the n×d matrix.
func (t *Table) Matrix(p Prep) (*mat.Dense, error) {
	n, d := t.Len(), t.NumFeatures()
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("dataset %s: Matrix of an empty table (%d rows, %d features)", t.Name, n, d)
	}
	var m *mat.Dense
	if t.Dense != nil {
		if r, _ := t.Dense.Dims(); r != n {
			return nil, fmt.Errorf("dataset %s: Dense has %d rows but the target %d", t.Name, r, n)
		}
		m = mat.DenseCopyOf(t.Dense)
	} else {
		if t.Frame.Err != nil {
			return nil, fmt.Errorf("dataset %s: %w", t.Name, t.Frame.Err)
		}
		if r := t.Frame.Nrow(); r != n {
			return nil, fmt.Errorf("dataset %s: Frame has %d rows but the target %d", t.Name, r, n)
		}
		m = mat.NewDense(n, d, nil)
		for j, name := range t.Frame.Names() {
			col := t.Frame.Col(name)
			values, err := columnValues(col)
			if err != nil {
				return nil, fmt.Errorf("dataset %s: column %q: %w", t.Name, name, err)
			}
			m.SetCol(j, values)
		}
	}
	if p.Standardise {
		names := t.Frame.Names()
		for j := 0; j < d; j++ {
			if !standardiseColumn(m, j) {
				name := fmt.Sprintf("%d", j)
				if j < len(names) {
					name = names[j]
				}
				t.addNote(fmt.Sprintf("standardise: column %s is constant, set to 0", name))
			}
		}
	}
	return m, nil
}

// columnValues returns a column as float64: numbers as they are, strings as the rank of their
// value among the column's sorted distinct values.
func columnValues(col series.Series) ([]float64, error) {
	switch col.Type() {
	case series.String:
		records := col.Records()
		distinct := map[string]float64{}
		for _, v := range records {
			distinct[v] = 0
		}
		keys := make([]string, 0, len(distinct))
		for k := range distinct {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			distinct[k] = float64(i)
		}
		out := make([]float64, len(records))
		for i, v := range records {
			out[i] = distinct[v]
		}
		return out, nil
	default:
		out := col.Float()
		for i, v := range out {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("row %d: value %v is missing or not finite", i, v)
			}
		}
		return out, nil
	}
}

// standardiseColumn centres column j and scales it to unit population variance; a constant
// column becomes 0 and standardiseColumn returns false.
func standardiseColumn(m *mat.Dense, j int) bool {
	n, _ := m.Dims()
	var mean float64
	for i := 0; i < n; i++ {
		mean += m.At(i, j)
	}
	mean /= float64(n)
	var ss float64
	for i := 0; i < n; i++ {
		d := m.At(i, j) - mean
		ss += d * d
	}
	sd := math.Sqrt(ss / float64(n))
	constant := sd == 0 || sd <= 1e-12*math.Abs(mean)
	for i := 0; i < n; i++ {
		if constant {
			m.Set(i, j, 0)
		} else {
			m.Set(i, j, (m.At(i, j)-mean)/sd)
		}
	}
	return !constant
}

func (t *Table) addNote(note string) {
	for _, n := range t.Notes {
		if n == note {
			return
		}
	}
	t.Notes = append(t.Notes, note)
}

// Subset returns a new table with the given rows, in the given order (repeats allowed, so it
// also draws bootstrap samples); at least one row. The frame, the matrix and the target are
// copied.
func (t *Table) Subset(rows []int) (*Table, error) {
	n := t.Len()
	if len(rows) == 0 {
		return nil, fmt.Errorf("dataset %s: Subset: no rows", t.Name)
	}
	for k, r := range rows {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("dataset %s: Subset: row %d (position %d) is outside 0..%d", t.Name, r, k, n-1)
		}
	}
	out := &Table{
		Name:    t.Name,
		Variant: t.Variant,
		Target:  Target{Name: t.Target.Name, Kind: t.Target.Kind, Classes: append([]string(nil), t.Target.Classes...)},
		Notes:   append(append([]string(nil), t.Notes...), fmt.Sprintf("subset of %d of %d rows", len(rows), n)),
	}
	out.Target.Values = make([]float64, len(rows))
	for k, r := range rows {
		out.Target.Values[k] = t.Target.Values[r]
	}
	if t.Frame.Ncol() > 0 {
		out.Frame = t.Frame.Subset(rows)
		if out.Frame.Err != nil {
			return nil, fmt.Errorf("dataset %s: Subset: %w", t.Name, out.Frame.Err)
		}
	}
	if t.Dense != nil {
		r, c := t.Dense.Dims()
		if r != n {
			return nil, fmt.Errorf("dataset %s: Subset: Dense has %d rows but the target %d", t.Name, r, n)
		}
		out.Dense = mat.NewDense(len(rows), c, nil)
		for k, r := range rows {
			out.Dense.SetRow(k, t.Dense.RawRowView(r))
		}
	}
	return out, nil
}
