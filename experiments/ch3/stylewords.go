package ch3

import (
	"fmt"
	"image/color"
	"reflect"
	"slices"

	"github.com/fastkernels/kernellab/experiments/styles"

	"github.com/fastkernels/kernellab/lab/plotting"
)

// Words for the palette's colours, markers and dashes, in the order of lab/plotting's Hue, Glyph
// and Dash constants, so that a caption names a series by the style it is drawn in (styleWords)
// instead of a typed-in description that can drift from the registry.
var (
	hueWords   = []string{"blue", "vermillion", "green", "purple", "orange", "sky-blue", "black", "dark grey"}
	glyphWords = []string{"no", "filled circle", "filled square", "filled triangle", "filled diamond", "filled down-triangle",
		"cross (×)", "plus (+)", "open square", "open circle", "open triangle", "open diamond", "star"}
	dashWords = []string{"solid", "dashed", "dotted", "dash-dotted", "long-dashed"}
)

// styleWords describes the registered style (styles.Of) of a method or reference line in words,
// e.g. "blue dashed line with star markers", by matching it against every colour, marker and dash
// of the palette; a style the palette does not hold is an error.
func styleWords(name string) (string, error) {
	s, err := styles.Of(name)
	if err != nil {
		return "", err
	}
	hue, glyph, dash := -1, -1, -1
	for h := range hueWords {
		if ref, err := plotting.Style(plotting.Hue(h), plotting.NoGlyph, plotting.Solid); err == nil && sameColor(ref.Color, s.Color) {
			hue = h
		}
	}
	for g := range glyphWords {
		if ref, err := plotting.Style(plotting.Black, plotting.Glyph(g), plotting.Solid); err == nil && reflect.DeepEqual(ref.Marker, s.Marker) {
			glyph = g
		}
	}
	for d := range dashWords {
		if ref, err := plotting.Style(plotting.Black, plotting.NoGlyph, plotting.Dash(d)); err == nil && slices.Equal(ref.Dashes, s.Dashes) {
			dash = d
		}
	}
	if hue < 0 || glyph < 0 || dash < 0 {
		return "", fmt.Errorf("style of %q is not in the palette's words", name)
	}
	words := hueWords[hue] + " " + dashWords[dash] + " line"
	if plotting.Glyph(glyph) != plotting.NoGlyph {
		words += " with " + glyphWords[glyph] + " markers"
	}
	return words, nil
}

// sameColor reports whether two colours are the same once non-premultiplied.
func sameColor(a, b color.Color) bool {
	return color.NRGBAModel.Convert(a) == color.NRGBAModel.Convert(b)
}
