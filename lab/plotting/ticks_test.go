package plotting

import (
	"reflect"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		labels []string
	}{
		{0, 100, []string{"0", "20", "40", "60", "80", "100"}},
		{75.3, 96, []string{"80", "85", "90", "95"}},
		{0, 0.001, []string{"0.0000", "0.0002", "0.0004", "0.0006", "0.0008", "0.0010"}},
		{-1, 1, []string{"-1.0", "-0.5", "0.0", "0.5", "1.0"}},
		{-0.3, 2e-5, []string{"-0.3", "-0.2", "-0.1", "0.0"}},
		{0, 5e-6, []string{"0", "1e-06", "2e-06", "3e-06", "4e-06", "5e-06"}},
		{0, 4e6, []string{"0", "1e+06", "2e+06", "3e+06", "4e+06"}},
	} {
		_, got := labelled(niceTicks{}.Ticks(tc.lo, tc.hi))
		if !reflect.DeepEqual(got, tc.labels) {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, got, tc.labels)
		}
	}
	if ticks := (niceTicks{}).Ticks(1, 1); ticks != nil {
		t.Errorf("ticks %v for an empty range", ticks)
	}
}

func TestIndexTicks(t *testing.T) {
	values, labels := labelled(indexTicks{}.Ticks(-0.5, 59.5))
	if !reflect.DeepEqual(values, []float64{0, 10, 20, 30, 40, 50}) || !reflect.DeepEqual(labels, []string{"0", "10", "20", "30", "40", "50"}) {
		t.Errorf("columns: %v %q", values, labels)
	}
	// Rows: row i lies at y = 59 - i, so label "0" sits at the top.
	values, labels = labelled(indexTicks{rows: 60}.Ticks(-0.5, 59.5))
	if !reflect.DeepEqual(values, []float64{59, 49, 39, 29, 19, 9}) || !reflect.DeepEqual(labels, []string{"0", "10", "20", "30", "40", "50"}) {
		t.Errorf("rows: %v %q", values, labels)
	}
	_, labels = labelled(indexTicks{}.Ticks(-0.5, 2.5))
	if !reflect.DeepEqual(labels, []string{"0", "1", "2"}) {
		t.Errorf("3 columns: %q", labels)
	}
}

func TestNiceTicksFitTheRoom(t *testing.T) {
	for _, tc := range []struct {
		ticker niceTicks
		lo, hi float64
		labels []string
	}{
		// Five 5-digit labels need about 180 pt.
		{niceTicks{room: 250}, 1000, 50000, []string{"10000", "20000", "30000", "40000", "50000"}},
		{niceTicks{room: 150}, 1000, 50000, []string{"20000", "40000"}},
		// Six labels need about 120 pt of height.
		{niceTicks{room: 130, vertical: true}, 0, 100, []string{"0", "20", "40", "60", "80", "100"}},
		{niceTicks{room: 100, vertical: true}, 0, 100, []string{"0", "50", "100"}},
		// Never fewer than two labels, even when they do not fit.
		{niceTicks{room: 1}, 0, 100, []string{"0", "100"}},
	} {
		_, got := labelled(tc.ticker.Ticks(tc.lo, tc.hi))
		if !reflect.DeepEqual(got, tc.labels) {
			t.Errorf("%+v on [%g, %g]: labels %q, want %q", tc.ticker, tc.lo, tc.hi, got, tc.labels)
		}
	}
}
