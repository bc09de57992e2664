package styles

import (
	"image/color"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/plotting"
)

// groups are the sets of methods (and reference lines) that appear together in a figure: any two
// of one group must be told apart in colour, and in grey-scale print.
var groups = map[string][]string{
	"chapter 3 samplers":   {"uniform", "uniform-rls", "recursive", "recursive-accelerated", "recursive-own", "dac", "exact", "bound", "slope"},
	"chapter 3 learning":   {"uniform", "uniform-rls", "recursive", "dac", "exact", "majority-class", "mean-target"},
	"chapter 4 MMD":        {"linear", "block", "rff", "nystrom", "exact", "chance"},
	"course low rank":      {"nystrom", "meka", "meka-all-rows", "meka-eta0", "bka", "best-rank-k", "rff"},
	"course Nyström notes": {"nystrom", "best-rank-k", "nystrom-train", "nystrom-heldout", "best-rank-k-heldout", "slope"},
	"course PCA":           {"pca", "kernel-pca", "identity"},
	"chapter 5 solvers":    {"mp", "omp", "fw", "bound", "slope"},
	"chapter 6 pruning": {"omp", "omp-unweighted", "nn-omp", "nn-omp-unweighted", "random", "caruana",
		"zhang-predictions", "zhang-similarity", "kmeans", "full-forest", "majority-class", "nn-omp-stop"},
	"chapter 6 negative weights": {"omp", "slope"},
	"student slides":             {"classic-svd", "randomized-svd", "sparse-pca", "bayesian-pca", "raw-pixels", "guarantor"},
}

func sameColor(a, b color.Color) bool {
	return color.NRGBAModel.Convert(a) == color.NRGBAModel.Convert(b)
}

func mustOf(t *testing.T, name string) plotting.SeriesStyle {
	t.Helper()
	s, err := Of(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGroupsAreDistinguishable(t *testing.T) {
	for group, names := range groups {
		for i, a := range names {
			sa := mustOf(t, a)
			for _, b := range names[i+1:] {
				sb := mustOf(t, b)
				sameColour := sameColor(sa.Color, sb.Color)
				sameMarker := reflect.DeepEqual(sa.Marker, sb.Marker)
				sameDash := slices.Equal(sa.Dashes, sb.Dashes)
				// In grey-scale print the marker or the dash must differ; in colour, a shared colour
				// (a method and its variant) needs both a different marker and a different dash.
				if sameMarker && sameDash {
					t.Errorf("%s: %q and %q share marker and dash", group, a, b)
				}
				if sameColour && (sameMarker || sameDash) {
					t.Errorf("%s: %q and %q share their colour and differ in only one of marker and dash", group, a, b)
				}
			}
		}
	}
}

func TestStylesAreUnique(t *testing.T) {
	names := Names()
	if len(names) < 30 || !slices.IsSorted(names) {
		t.Fatalf("Names() = %q", names)
	}
	for i, a := range names {
		for _, b := range names[i+1:] {
			if registry[a] == registry[b] {
				t.Errorf("%q and %q have the same style", a, b)
			}
		}
	}
}

func TestReferenceLinesAreNeutral(t *testing.T) {
	for _, name := range Names() {
		if e := registry[name]; e.glyph == plotting.NoGlyph && e.hue != plotting.Black && e.hue != plotting.DarkGrey {
			t.Errorf("reference %q has a colour; reference lines are black or grey", name)
		}
	}
}

func TestAliasesAndCopies(t *testing.T) {
	for alias, name := range aliases {
		if a, b := mustOf(t, alias), mustOf(t, name); !sameColor(a.Color, b.Color) || !reflect.DeepEqual(a.Marker, b.Marker) {
			t.Errorf("alias %q does not give the style of %q", alias, name)
		}
	}
	s := mustOf(t, "exact")
	s.Dashes[0] = 100
	if again := mustOf(t, "exact"); again.Dashes[0] == 100 {
		t.Error("Of returns a shared dash slice, which callers can change")
	}
	if _, err := Of("no-such-method"); err == nil || !strings.Contains(err.Error(), "experiments/styles") {
		t.Errorf("Of of an unknown method = %v, want an error saying where to register it", err)
	}
	if _, err := Band("x", "no-such-method"); err == nil {
		t.Error("Band of an unknown method has a style")
	}
}

func TestDrawingByNameRefusesAnUnknownName(t *testing.T) {
	x, y := []float64{1, 2}, []float64{1, 2}
	for _, err := range []error{
		AddLine(plotting.New("", "x", "y"), x, y, "l", "brand-new"),
		AddScatter(plotting.New("", "x", "y"), x, y, "s", "brand-new"),
		AddHLine(plotting.New("", "x", "y"), 1, "h", "brand-new"),
	} {
		if err == nil {
			t.Error("an unregistered method is accepted")
		}
	}
	if err := AddLine(plotting.New("", "x", "y"), x, y, "dac", "dac"); err != nil {
		t.Error(err)
	}
}
