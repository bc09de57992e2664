package run

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Param is one named parameter of a result row (e.g. s=100). Values are text so that any parameter
// (a method variant, a dataset size, a ridge λ) fits one column; numbers are formatted with
// strconv 'g' and precision -1 so they round-trip exactly.
type Param struct{ Name, Value string }

// P builds a Param from a string, a bool, or a value of any integer or float kind (named types
// included: a time.Duration gives its nanoseconds); anything else is formatted with fmt %v.
// Float32 values use the shortest text that reads back as the same float32.
func P(name string, value any) Param {
	return Param{Name: name, Value: formatParam(value)}
}

func formatParam(value any) string {
	v := reflect.ValueOf(value)
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return fmt.Sprintf("%v", value)
}

// Record is what a task returns: one measured value. The runtime adds the experiment ID and the
// task's repetition to make a Row.
type Record struct {
	Dataset, Method string
	Params          []Param
	Metric          string
	Value           float64
}

// Row is one line of the tidy results table (id,dataset,method,params,rep,metric,value), the only
// thing renderers and claim checks read. In the CSV, params is "name=value;name=value" in the order
// given.
type Row struct {
	ID, Dataset, Method string
	Params              []Param
	Rep                 int
	Metric              string
	Value               float64
}

// Param returns the value of the named parameter and whether the row has it.
func (r Row) Param(name string) (string, bool) {
	for _, p := range r.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// ParamFloat returns the named parameter as a number, the usual x axis of a figure; a missing or
// non-numeric parameter is an error naming the row.
func (r Row) ParamFloat(name string) (float64, error) {
	s, ok := r.Param(name)
	if !ok {
		return 0, fmt.Errorf("run: %s: no parameter %q", r.describe(), name)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("run: %s: parameter %s=%q is not a number", r.describe(), name, s)
	}
	return x, nil
}

// describe names a row in error messages.
func (r Row) describe() string {
	return fmt.Sprintf("row (id=%s dataset=%s method=%s rep=%d metric=%s)", r.ID, r.Dataset, r.Method, r.Rep, r.Metric)
}

// tableHeader is the first line of every results table and part file.
var tableHeader = []string{"id", "dataset", "method", "params", "rep", "metric", "value"}

// checkText rejects characters that would not survive a CSV round trip in a text field.
func checkText(what, s string) error {
	if strings.ContainsAny(s, "\r\n") {
		return fmt.Errorf("%s %q contains a line break", what, s)
	}
	return nil
}

// checkParams enforces the params encoding: names non-empty and unique, no ; = , or line breaks.
func checkParams(params []Param) error {
	for i, p := range params {
		if p.Name == "" {
			return fmt.Errorf("parameter %d has an empty name", i+1)
		}
		if strings.ContainsAny(p.Name, ";=,\r\n") {
			return fmt.Errorf("parameter name %q contains one of ; = , or a line break", p.Name)
		}
		if strings.ContainsAny(p.Value, ";=,\r\n") {
			return fmt.Errorf("parameter %s value %q contains one of ; = , or a line break", p.Name, p.Value)
		}
		for _, q := range params[:i] {
			if q.Name == p.Name {
				return fmt.Errorf("parameter %q appears twice", p.Name)
			}
		}
	}
	return nil
}

// checkRow validates everything a table row must satisfy to round-trip exactly.
func checkRow(r Row) error {
	for _, f := range []struct{ what, s string }{{"id", r.ID}, {"dataset", r.Dataset}, {"method", r.Method}, {"metric", r.Metric}} {
		if err := checkText(f.what, f.s); err != nil {
			return err
		}
	}
	if r.Metric == "" {
		return errors.New("metric is empty")
	}
	if err := checkParams(r.Params); err != nil {
		return err
	}
	if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
		return fmt.Errorf("value of metric %q is %v", r.Metric, r.Value)
	}
	return nil
}

// rowsFromRecords stamps a task's records with the experiment ID and repetition, validating each.
func rowsFromRecords(id string, rep int, recs []Record) ([]Row, error) {
	rows := make([]Row, len(recs))
	for i, rec := range recs {
		row := Row{ID: id, Dataset: rec.Dataset, Method: rec.Method, Rep: rep, Metric: rec.Metric, Value: rec.Value}
		if len(rec.Params) > 0 {
			row.Params = append([]Param(nil), rec.Params...)
		}
		if err := checkRow(row); err != nil {
			return nil, fmt.Errorf("record %d (dataset=%s method=%s metric=%s): %w", i+1, rec.Dataset, rec.Method, rec.Metric, err)
		}
		rows[i] = row
	}
	return rows, nil
}

func formatParams(params []Param) string {
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(p.Name)
		b.WriteByte('=')
		b.WriteString(p.Value)
	}
	return b.String()
}

func parseParams(s string) ([]Param, error) {
	if s == "" {
		return nil, nil
	}
	fields := strings.Split(s, ";")
	params := make([]Param, len(fields))
	for i, f := range fields {
		name, value, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("parameter %q is not name=value", f)
		}
		params[i] = Param{Name: name, Value: value}
	}
	if err := checkParams(params); err != nil {
		return nil, err
	}
	return params, nil
}

// writeTable writes the header and rows; the bytes depend only on the rows.
func writeTable(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(tableHeader); err != nil {
		return err
	}
	rec := make([]string, len(tableHeader))
	for _, r := range rows {
		rec[0], rec[1], rec[2] = r.ID, r.Dataset, r.Method
		rec[3] = formatParams(r.Params)
		rec[4] = strconv.Itoa(r.Rep)
		rec[5] = r.Metric
		rec[6] = strconv.FormatFloat(r.Value, 'g', -1, 64)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// readTable parses a table written by writeTable; errors name source:line.
func readTable(r io.Reader, source string) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked below, with a clearer message
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("run: %s:1: empty file, want the header %s", source, strings.Join(tableHeader, ","))
	}
	if err != nil {
		return nil, fmt.Errorf("run: %s: %w", source, err)
	}
	if strings.Join(head, ",") != strings.Join(tableHeader, ",") {
		return nil, fmt.Errorf("run: %s:1: header %q, want %q", source, strings.Join(head, ","), strings.Join(tableHeader, ","))
	}
	var rows []Row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("run: %s: %w", source, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(tableHeader) {
			return nil, fmt.Errorf("run: %s:%d: %d fields, want %d (%s)", source, line, len(rec), len(tableHeader), strings.Join(tableHeader, ","))
		}
		row, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("run: %s:%d: %w", source, line, err)
		}
		rows = append(rows, row)
	}
}

func parseRow(rec []string) (Row, error) {
	row := Row{ID: rec[0], Dataset: rec[1], Method: rec[2], Metric: rec[5]}
	var err error
	if row.Params, err = parseParams(rec[3]); err != nil {
		return Row{}, err
	}
	if row.Rep, err = strconv.Atoi(rec[4]); err != nil {
		return Row{}, fmt.Errorf("rep %q is not an integer", rec[4])
	}
	if row.Value, err = strconv.ParseFloat(rec[6], 64); err != nil {
		return Row{}, fmt.Errorf("value %q is not a number", rec[6])
	}
	if row.ID == "" {
		return Row{}, errors.New("id is empty")
	}
	if err := checkRow(row); err != nil {
		return Row{}, err
	}
	return row, nil
}
