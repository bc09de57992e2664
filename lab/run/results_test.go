package run

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func row(dataset, method, metric string, x string, value float64) Row {
	return Row{ID: "e", Dataset: dataset, Method: method, Metric: metric, Params: []Param{{"s", x}}, Value: value}
}

func TestSummarise(t *testing.T) {
	rows := []Row{
		row("d1", "zeta", "err", "10", 4), row("d1", "zeta", "err", "10", 1),
		row("d1", "alpha", "err", "5", 9),
		row("d1", "zeta", "err", "1e1", 3), row("d1", "zeta", "err", "10", 2),
		row("d1", "zeta", "err", "5", 7),
	}
	got, err := Summarise(rows, "s")
	if err != nil {
		t.Fatal(err)
	}
	// zeta at s=10: {4,1,3,2}: mean 2.5, sample SD sqrt(5/3), median 2.5. Methods keep first-seen
	// order (zeta before alpha), X ascends within a method.
	want := []Summary{
		{Dataset: "d1", Method: "zeta", Metric: "err", X: 5, N: 1, Mean: 7, SD: 0, Min: 7, Max: 7, Median: 7},
		{Dataset: "d1", Method: "zeta", Metric: "err", X: 10, N: 4, Mean: 2.5, SD: math.Sqrt(5.0 / 3), Min: 1, Max: 4, Median: 2.5},
		{Dataset: "d1", Method: "alpha", Metric: "err", X: 5, N: 1, Mean: 9, Min: 9, Max: 9, Median: 9},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d summaries: %+v", len(got), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if math.Abs(g.SD-w.SD) > 1e-15 {
			t.Errorf("%d: SD %v, want %v", i, g.SD, w.SD)
		}
		g.SD, w.SD = 0, 0
		if g != w {
			t.Errorf("%d: got %+v\nwant %+v", i, g, w)
		}
	}
	odd, _ := Summarise([]Row{row("d", "m", "t", "1", 5), row("d", "m", "t", "1", 1), row("d", "m", "t", "1", 2)}, "s")
	if odd[0].Median != 2 || odd[0].Mean != 8.0/3 {
		t.Errorf("odd sample: %+v", odd[0])
	}
	for _, bad := range [][]Row{
		{row("d", "m", "t", "many", 1)},
		{row("d", "m", "t", "NaN", 1)},
		{{ID: "e", Metric: "t"}},
	} {
		if _, err := Summarise(bad, "s"); err == nil {
			t.Errorf("Summarise(%+v): no error", bad)
		}
	}
}

func TestWhereAndFirstSeenLists(t *testing.T) {
	res := &Results{Rows: []Row{
		row("b", "m2", "err", "1", 1), row("a", "m1", "time", "1", 2), row("b", "m1", "err", "2", 3),
	}}
	if got := res.Where("b", "", "err"); len(got) != 2 || got[0].Value != 1 || got[1].Value != 3 {
		t.Errorf("Where(b, , err) = %+v", got)
	}
	if got := res.Where("", "m1", ""); len(got) != 2 {
		t.Errorf("Where(, m1, ) = %+v", got)
	}
	if got := res.Where("", "", ""); len(got) != 3 {
		t.Errorf("Where all = %d rows", len(got))
	}
	if d, m, k := res.Datasets(), res.Methods(), res.Metrics(); !slices.Equal(d, []string{"b", "a"}) ||
		!slices.Equal(m, []string{"m2", "m1"}) || !slices.Equal(k, []string{"err", "time"}) {
		t.Errorf("lists %v %v %v", d, m, k)
	}
}

func TestReadResultsErrorsNameTheLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "quick")
	const head = "id,dataset,method,params,rep,metric,value\n"
	for want, content := range map[string]string{
		"line 3":                     head + "e,d,m,,0,err,1\ne,\"d,m,,0,err,1\n",
		":1: empty file":             "",
		":1: header":                 "id,dataset\n",
		":3: value \"x\"":            head + "e,d,m,,0,err,1\ne,d,m,,0,err,x\n",
		":2: value of metric":        head + "e,d,m,,0,err,NaN\n",
		":2: rep":                    head + "e,d,m,,zero,err,1\n",
		":2: parameter \"s\" is not": head + "e,d,m,s,0,err,1\n",
		":2: id is empty":            head + ",d,m,,0,err,1\n",
		":2: 6 fields, want 7":       head + "e,d,m,0,err,1\n",
		":3: row of experiment":      head + "e,d,m,,0,err,1\nf,d,m,,0,err,1\n",
	} {
		path := filepath.Join(dir, "e.csv")
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadResults(path)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: got %v, want file and %q", content, err, want)
		}
	}
	path := filepath.Join(dir, "e.csv")
	os.WriteFile(path, []byte(head), 0o644)
	res, err := ReadResults(path)
	if err != nil || res.ID != "e" || res.Scale != Quick || len(res.Rows) != 0 {
		t.Errorf("header-only table: %+v, %v", res, err)
	}
}
