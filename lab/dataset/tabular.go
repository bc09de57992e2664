package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// role says what a column of a data file becomes in a Table.
type role byte

const (
	numericFeature role = iota
	categoricalFeature
	targetColumn
	droppedColumn
)

// columnSpec names a column of a data file and gives its role.
type columnSpec struct {
	name string
	role role
}

// numericColumns returns numeric feature columns with the given names.
func numericColumns(names ...string) []columnSpec {
	out := make([]columnSpec, len(names))
	for i, n := range names {
		out[i] = columnSpec{name: n, role: numericFeature}
	}
	return out
}

// tableBuilder turns rows of text fields into a Table. It checks every value (numbers must parse
// and be finite, class labels must be declared when classes are), drops rows with the missing
// marker, and builds typed gota series directly, so the frame never holds a silent NaN.
type tableBuilder struct {
	set     string
	columns []columnSpec
	kind    Kind
	classes []string // declared class order; nil = sorted distinct labels (numerically if all are numbers)
	missing string   // a field equal to it is a missing value and drops its row; "" = none
	// missingCategory keeps the marker in categorical columns as a category of its own instead of
	// dropping the row (numeric columns still drop it).
	missingCategory bool

	numeric   [][]float64 // by column index, numeric features only
	category  [][]string  // by column index, categorical features only
	intern    []map[string]string
	labels    []string  // classification targets
	values    []float64 // regression targets
	rows      int       // rows offered
	missingBy []int     // rows dropped, by the first column holding the marker
	keptBy    []int     // markers kept as a category, by column (missingCategory)
}

func newTableBuilder(set string, kind Kind, columns []columnSpec) *tableBuilder {
	b := &tableBuilder{set: set, columns: columns, kind: kind,
		numeric: make([][]float64, len(columns)), category: make([][]string, len(columns)),
		intern: make([]map[string]string, len(columns)), missingBy: make([]int, len(columns)),
		keptBy: make([]int, len(columns))}
	for j, c := range columns {
		if c.role == categoricalFeature {
			b.intern[j] = map[string]string{}
		}
	}
	return b
}

// position names a row of a data file in errors: "adult.data.gz:17" (a line) or
// "kc1.arff: data row 3" (a record of a parsed file).
type position struct {
	file   string
	n      int
	isLine bool
}

func (p position) String() string {
	if p.isLine {
		return fmt.Sprintf("%s:%d", p.file, p.n)
	}
	return fmt.Sprintf("%s: data row %d", p.file, p.n)
}

// add appends one row.
func (b *tableBuilder) add(fields []string, at position) error {
	b.rows++
	if len(fields) != len(b.columns) {
		return fmt.Errorf("dataset %s: %v: %d fields, want %d", b.set, at, len(fields), len(b.columns))
	}
	if b.missing != "" {
		for j, f := range fields {
			if f != b.missing || b.columns[j].role == droppedColumn {
				continue
			}
			if b.missingCategory && b.columns[j].role == categoricalFeature {
				continue
			}
			b.missingBy[j]++
			return nil
		}
		if b.missingCategory {
			for j, f := range fields {
				if f == b.missing && b.columns[j].role == categoricalFeature {
					b.keptBy[j]++
				}
			}
		}
	}
	// Parse every number first, so a bad row leaves the columns unchanged.
	var parsed [64]float64
	nums := parsed[:0]
	for j, c := range b.columns {
		if c.role == numericFeature || c.role == targetColumn && b.kind == Regression {
			v, err := parseFinite(fields[j])
			if err != nil {
				return fmt.Errorf("dataset %s: %v: column %s: %w", b.set, at, c.name, err)
			}
			nums = append(nums, v)
		}
	}
	k := 0
	for j, c := range b.columns {
		switch {
		case c.role == numericFeature:
			b.numeric[j] = append(b.numeric[j], nums[k])
			k++
		case c.role == targetColumn && b.kind == Regression:
			b.values = append(b.values, nums[k])
			k++
		case c.role == categoricalFeature:
			v, ok := b.intern[j][fields[j]]
			if !ok {
				v = strings.Clone(fields[j])
				b.intern[j][v] = v
			}
			b.category[j] = append(b.category[j], v)
		case c.role == targetColumn:
			b.labels = append(b.labels, strings.Clone(fields[j]))
		}
	}
	return nil
}

func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("value %q is not finite", s)
	}
	return v, nil
}

// table returns the Table built from the rows added so far, with the notes given plus one on
// dropped rows.
func (b *tableBuilder) table(variant string, notes ...string) (*Table, error) {
	t := &Table{Name: b.set, Variant: variant, Notes: notes}
	var series_ []series.Series
	for j, c := range b.columns {
		switch c.role {
		case numericFeature:
			series_ = append(series_, series.New(b.numeric[j], series.Float, c.name))
		case categoricalFeature:
			series_ = append(series_, series.New(b.category[j], series.String, c.name))
		case targetColumn:
			t.Target.Name = c.name
		}
	}
	t.Target.Kind = b.kind
	if b.kind == Classification {
		codes, classes, err := classCodes(b.labels, b.classes)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: target %s: %w", b.set, t.Target.Name, err)
		}
		t.Target.Values, t.Target.Classes = codes, classes
	} else {
		t.Target.Values = b.values
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("dataset %s: no rows left (%d read)", b.set, b.rows)
	}
	t.Frame = dataframe.New(series_...)
	if t.Frame.Err != nil {
		return nil, fmt.Errorf("dataset %s: %w", b.set, t.Frame.Err)
	}
	var kept []string
	for j, n := range b.keptBy {
		if n > 0 {
			kept = append(kept, fmt.Sprintf("%s %d", b.columns[j].name, n))
		}
	}
	if len(kept) > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("missing values (%q) in categorical columns kept as a category of their own: %s",
			b.missing, strings.Join(kept, ", ")))
	}
	if dropped := b.rows - t.Len(); dropped > 0 {
		var by []string
		for j, n := range b.missingBy {
			if n > 0 {
				by = append(by, fmt.Sprintf("%s %d", b.columns[j].name, n))
			}
		}
		t.Notes = append(t.Notes, fmt.Sprintf("dropped %d of %d rows with a missing value (%q), counted by the first such column: %s",
			dropped, b.rows, b.missing, strings.Join(by, ", ")))
	}
	return t, nil
}

// classCodes maps labels to codes 0..k-1: in the declared order when classes is given (every
// label must be declared), else in the sorted order of the distinct labels, numerically when
// all of them are numbers.
func classCodes(labels, declared []string) ([]float64, []string, error) {
	classes := declared
	if classes == nil {
		seen := map[string]bool{}
		for _, l := range labels {
			if !seen[l] {
				seen[l] = true
				classes = append(classes, l)
			}
		}
		numeric := true
		nums := map[string]float64{}
		for _, c := range classes {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				numeric = false
				break
			}
			nums[c] = v
		}
		if numeric {
			sort.Slice(classes, func(i, j int) bool { return nums[classes[i]] < nums[classes[j]] })
		} else {
			sort.Strings(classes)
		}
	}
	code := make(map[string]float64, len(classes))
	for i, c := range classes {
		code[c] = float64(i)
	}
	out := make([]float64, len(labels))
	for i, l := range labels {
		v, ok := code[l]
		if !ok {
			return nil, nil, fmt.Errorf("row %d: label %q is not one of the classes %s", i+1, l, strings.Join(classes, ", "))
		}
		out[i] = v
	}
	return out, append([]string(nil), classes...), nil
}

// addCSV streams comma-separated rows of r into b. With header non-nil the first record must
// equal it.
func (b *tableBuilder) addCSV(r io.Reader, file string, header []string) error {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	first := true
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("dataset %s: %s: %w", b.set, file, err)
		}
		line, _ := cr.FieldPos(0)
		if first && header != nil {
			first = false
			if strings.Join(rec, ",") != strings.Join(header, ",") {
				return fmt.Errorf("dataset %s: %s:%d: header %q, want %q", b.set, file, line, strings.Join(rec, ","), strings.Join(header, ","))
			}
			continue
		}
		first = false
		if err := b.add(rec, position{file: file, n: line, isLine: true}); err != nil {
			return err
		}
	}
	if first {
		return fmt.Errorf("dataset %s: %s: no rows", b.set, file)
	}
	return nil
}

// addRows feeds rows already split (format.ReadDelimited, ARFF data); positions are record
// numbers within file.
func (b *tableBuilder) addRows(rows [][]string, file string) error {
	for i, row := range rows {
		if err := b.add(row, position{file: file, n: i + 1}); err != nil {
			return err
		}
	}
	return nil
}
