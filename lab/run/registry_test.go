package run

import (
	"slices"
	"strings"
	"testing"
)

func stub(id string) *Experiment {
	e := (&toy{n: 1}).experiment()
	e.ID = id
	return e
}

func TestRegistryValidates(t *testing.T) {
	noPlan, noRender, dupClaim, emptyClaim, noKind := stub("a"), stub("b"), stub("c"), stub("d"), stub("e")
	noPlan.Plan = nil
	noRender.Render = nil
	dupClaim.Claims = []Claim{{ID: "c1", Kind: Finding}, {ID: "c1", Kind: Finding}}
	emptyClaim.Claims = []Claim{{Text: "no id"}}
	noKind.Claims = []Claim{{ID: "c1"}}
	timing := func(id string, change func(e *Experiment)) *Experiment {
		e := stub(id)
		e.Timings = []string{"seconds"}
		change(e)
		return e
	}
	emptyTiming := timing("t1", func(e *Experiment) { e.Timings = append(e.Timings, "") })
	twiceTiming := timing("t2", func(e *Experiment) { e.Timings = append(e.Timings, "seconds") })
	toleratedTiming := timing("t3", func(e *Experiment) { e.Tolerance = map[string]float64{"seconds": 1e-6} })
	spreadTiming := timing("t4", func(e *Experiment) { e.BySpread = map[string]string{"seconds": "noise"} })
	for want, exps := range map[string][]*Experiment{
		"empty":                           {stub("")},
		"registered twice":                {stub("x"), stub("x")},
		"no Plan":                         {noPlan},
		"no Render":                       {noRender},
		`"c1" appears twice`:              {dupClaim},
		"empty ID":                        {emptyClaim},
		`claim c1 has kind ""`:            {noKind},
		"character":                       {stub("fig 3")},
		"must not start":                  {stub("../x")},
		"nil experiment":                  {nil},
		"timing metric 2 is empty":        {emptyTiming},
		`timing metric "seconds" appears`: {twiceTiming},
		`"seconds" has a Tolerance`:       {toleratedTiming},
		`"seconds" is in BySpread`:        {spreadTiming},
	} {
		if _, err := NewRegistry(exps...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}

func TestRegistryOrderAndLookup(t *testing.T) {
	r, err := NewRegistry(stub("tab1"), stub("fig3_10"), stub("fig3_2"), stub("fig2_1"), stub("fig10_1"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range r.All() {
		ids = append(ids, e.ID)
	}
	if want := []string{"fig2_1", "fig3_2", "fig3_10", "fig10_1", "tab1"}; !slices.Equal(ids, want) {
		t.Fatalf("All = %v, want %v", ids, want)
	}
	if e, err := r.Get("fig3_10"); err != nil || e.ID != "fig3_10" {
		t.Fatalf("Get: %v, %v", e, err)
	}
	if _, err := r.Get("fig3_3"); err == nil || !strings.Contains(err.Error(), "did you mean fig3_2") {
		t.Errorf("close typo: %v", err)
	}
	if _, err := r.Get("zzzzzz"); err == nil || !strings.Contains(err.Error(), "known: fig2_1, fig3_2, fig3_10, fig10_1, tab1") {
		t.Errorf("far typo: %v", err)
	}
}

func TestNaturalCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		sign int
	}{
		{"fig3_2", "fig3_10", -1}, {"fig3_10", "fig3_2", 1}, {"fig3", "fig3_1", -1},
		{"a", "b", -1}, {"x007", "x7", -1}, {"same", "same", 0}, {"fig9", "fig10", -1},
	} {
		got := naturalCompare(c.a, c.b)
		if got < 0 && c.sign >= 0 || got > 0 && c.sign <= 0 || got == 0 && c.sign != 0 {
			t.Errorf("naturalCompare(%q, %q) = %d, want sign %d", c.a, c.b, got, c.sign)
		}
	}
}

func TestKindString(t *testing.T) {
	if Figure.String() != "figure" || Table.String() != "table" || Kind(7).String() != "Kind(7)" {
		t.Errorf("%v %v %v", Figure, Table, Kind(7))
	}
}
