package plotting

import (
	"image/color"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// methodGroups are the sets of methods (and reference lines) that appear together in a figure:
// any two of one group must be told apart in colour, and in grey-scale print.
var methodGroups = map[string][]string{
	"chapter 3 samplers":   {"uniform", "uniform-rls", "recursive", "recursive-accelerated", "recursive-own", "dac", "exact", "bound", "slope"},
	"chapter 3 learning":   {"uniform", "uniform-rls", "recursive", "dac", "exact", "majority-class", "mean-target"},
	"chapter 4 MMD":        {"linear", "block", "rff", "nystrom", "exact", "chance"},
	"course low rank":      {"nystrom", "meka", "meka-all-rows", "meka-eta0", "bka", "best-rank-k", "rff"},
	"course Nyström notes": {"nystrom", "best-rank-k", "nystrom-train", "nystrom-heldout", "best-rank-k-heldout", "slope"},
	"course PCA":           {"pca", "kernel-pca", "identity"},
	"chapter 5 solvers":    {"mp", "omp", "fw", "bound", "slope"},
	"chapter 6 pruning": {"omp", "omp-unweighted", "nn-omp", "nn-omp-unweighted", "random", "caruana",
		"zhang-predictions", "zhang-similarity", "kmeans", "full-forest", "majority-class"},
	"student slides": {"classic-svd", "randomized-svd", "sparse-pca", "bayesian-pca", "raw-pixels", "guarantor"},
}

func sameDashes(a, b []vg.Length) bool { return slices.Equal(a, b) }

func TestMethodGroupsAreDistinguishable(t *testing.T) {
	for group, names := range methodGroups {
		for i, a := range names {
			sa, ok := MethodStyle(a)
			if !ok {
				t.Fatalf("%s: %q is not registered", group, a)
			}
			for _, b := range names[i+1:] {
				sb, _ := MethodStyle(b)
				sameColour := sameColor(sa.Color, sb.Color)
				sameMarker := reflect.DeepEqual(sa.Marker, sb.Marker)
				same := sameDashes(sa.Dashes, sb.Dashes)
				// In grey-scale print the marker or the dash must differ; in colour, a shared colour
				// (a method and its variant) needs both a different marker and a different dash.
				if sameMarker && same {
					t.Errorf("%s: %q and %q share marker and dash", group, a, b)
				}
				if sameColour && (sameMarker || same) {
					t.Errorf("%s: %q and %q share their colour and differ in only one of marker and dash", group, a, b)
				}
			}
		}
	}
}

func TestRegistryStylesAreUnique(t *testing.T) {
	names := Methods()
	if len(names) < 30 || !slices.IsSorted(names) {
		t.Fatalf("Methods() = %q", names)
	}
	for i, a := range names {
		sa, _ := MethodStyle(a)
		for _, b := range names[i+1:] {
			sb, _ := MethodStyle(b)
			if sameColor(sa.Color, sb.Color) && reflect.DeepEqual(sa.Marker, sb.Marker) && sameDashes(sa.Dashes, sb.Dashes) {
				t.Errorf("%q and %q have the same style", a, b)
			}
		}
	}
}

func TestRegistryColoursAreOkabeItoOrNeutral(t *testing.T) {
	for _, name := range Methods() {
		s, _ := MethodStyle(name)
		c := color.NRGBAModel.Convert(s.Color).(color.NRGBA)
		if !slices.ContainsFunc(okabeIto[:], func(o color.NRGBA) bool { return o == c }) && c != darkGrey {
			t.Errorf("%q is drawn in %v, outside the Okabe–Ito palette and the neutral greys", name, c)
		}
		if c == okabeIto[7] {
			t.Errorf("%q is yellow, which is weak on white", name)
		}
		if s.Marker == nil && c.R != c.G {
			t.Errorf("reference %q has a colour; reference lines are black or grey", name)
		}
	}
}

func TestMethodStyleAliasesAndCopies(t *testing.T) {
	for alias, name := range methodAliases {
		a, ok := MethodStyle(alias)
		b, _ := MethodStyle(name)
		if !ok || !sameColor(a.Color, b.Color) || !reflect.DeepEqual(a.Marker, b.Marker) {
			t.Errorf("alias %q does not give the style of %q", alias, name)
		}
	}
	s, _ := MethodStyle("exact")
	s.Dashes[0] = 100
	if again, _ := MethodStyle("exact"); again.Dashes[0] == 100 {
		t.Error("MethodStyle returns the registry's dash slice, which callers can change")
	}
	if _, ok := MethodStyle("no-such-method"); ok {
		t.Error("an unknown method has a style")
	}
}

func TestBandsTakeTheirMethodsStyleWhateverTheirPosition(t *testing.T) {
	x, y := []float64{1, 2}, []float64{1, 2}
	for _, order := range [][]string{{"dac", "uniform"}, {"uniform", "dac"}} {
		p := NewPrint("", "x", "y")
		var bands []Band
		for _, m := range order {
			bands = append(bands, Band{Label: m, Method: m, X: x, Mean: y})
		}
		if err := AddBands(p, bands...); err != nil {
			t.Fatal(err)
		}
		rec, c := newRecorder(300, 200)
		p.Draw(c)
		dac, _ := MethodStyle("dac")
		if len(rec.fillsOf(dac.Color)) == 0 {
			t.Errorf("order %q: no glyph in DAC's colour", order)
		}
	}
	err := AddBands(NewPrint("", "x", "y"), Band{Label: "new", Method: "brand-new", X: x, Mean: y})
	if err == nil || !strings.Contains(err.Error(), "methods.go") {
		t.Errorf("AddBands with an unregistered method = %v, want an error saying where to register it", err)
	}
	for _, err := range []error{
		AddMethodLine(New("", "x", "y"), x, y, "l", "brand-new"),
		AddMethodScatter(New("", "x", "y"), x, y, "s", "brand-new"),
		AddMethodHLine(New("", "x", "y"), 1, "h", "brand-new"),
	} {
		if err == nil {
			t.Error("an unregistered method is accepted")
		}
	}
}

func TestPrintStyleIsSmallerButReadable(t *testing.T) {
	p, q := NewPrint("t", "x", "y"), New("t", "x", "y")
	if p.X.Tick.Label.Font.Size != MinPrintFont || p.Legend.TextStyle.Font.Size != MinPrintFont ||
		p.Title.TextStyle.Font.Size != 8 || p.X.Label.TextStyle.Font.Size != 8 {
		t.Errorf("print fonts: ticks %v, legend %v, title %v, label %v", p.X.Tick.Label.Font.Size,
			p.Legend.TextStyle.Font.Size, p.Title.TextStyle.Font.Size, p.X.Label.TextStyle.Font.Size)
	}
	if q.X.Tick.Label.Font.Size != tickSize || styleOf(q) != &screenStyle || styleOf(p) != &printStyle {
		t.Error("New changed its style")
	}
	if ex := (powerText{minExponent: MinPrintFont}).exponentFont(p.X.Tick.Label.Font); ex.Size < MinPrintFont {
		t.Errorf("print exponents are %v pt", ex.Size)
	}
}

func TestCoincident(t *testing.T) {
	x := []float64{1, 2, 3}
	bands := []Band{
		{X: x, Mean: []float64{1, 2, 3}},
		{X: x, Mean: []float64{1.001, 2, 2.999}}, // under band 0 within 1%
		{X: x, Mean: []float64{1, 2, 3.5}},       // departs at x = 3
		{X: []float64{3, 4}, Mean: []float64{3, 9}},
	}
	got := Coincident(bands, 0.01)
	if len(got) != 1 || got[0] != [2]int{0, 1} {
		t.Errorf("Coincident = %v, want [[0 1]]", got)
	}
	if got := Coincident(bands, 0.2); len(got) != 3 {
		t.Errorf("Coincident at 20%% = %v, want the three pairs of the first three bands", got)
	}
}
