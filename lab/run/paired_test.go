package run

import "testing"

func TestPairedDifferences(t *testing.T) {
	row := func(rep int, n string, v float64) Row {
		return Row{Dataset: "d", Rep: rep, Params: []Param{{"n", n}}, Value: v}
	}
	a := []Row{row(0, "1", 5), row(1, "1", 7), row(0, "2", 1)}
	b := []Row{row(0, "2", 0.5), row(1, "1", 6), row(0, "1", 4)}
	d, err := PairedDifferences(a, b)
	if err != nil || len(d) != 3 || d[0] != 1 || d[1] != 1 || d[2] != 0.5 {
		t.Fatalf("%v %v", d, err)
	}
	if _, err := PairedDifferences(a, b[:2]); err == nil {
		t.Error("unpaired rows accepted")
	}
	if _, err := PairedDifferences(a, []Row{b[0], b[0], b[1]}); err == nil {
		t.Error("duplicate rows accepted")
	}
}
