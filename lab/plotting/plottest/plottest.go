// Package plottest checks the figures package plotting writes, for tests (as net/http/httptest
// serves net/http's): [ParseSVG] reads an SVG's width and text elements, [SVGFontSizes] and
// [CheckPrintFonts] check that no text is below [plotting.MinPrintFont] points at a given print width,
// and [CheckLegendColors] that each legend entry is drawn in its series' colour, so
// experiments can test their figures.
package plottest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/plotting"
)

// SVGText is a text element of an SVG written by package plotting (through gonum/plot's vgsvg).
type SVGText struct {
	Text string
	// Size is the font size in points when the SVG is shown at its own width.
	Size float64
	// Swatch lists the opaque colours of the shapes drawn between the previous text element (or
	// the last white shape: a background or a legend box) and this one, in order. A legend draws
	// each entry's thumbnail (band swatch, line, marker) just before its text, on a white box, so
	// for a legend entry these are the colours of its thumbnail.
	Swatch []color.NRGBA
}

// ParseSVG reads an SVG written by package plotting: its width in points and its text elements in
// drawing order. It understands what vgsvg writes (a width in pt, a viewBox, font sizes in user
// units, transforms that only mirror, translate or rotate) and returns an error for an SVG it does
// not understand rather than a wrong answer.
func ParseSVG(svg []byte) (width float64, texts []SVGText, err error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	unit := 0.0 // points per user unit
	var swatch []color.NRGBA
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, nil, fmt.Errorf("plottest: parsing SVG: %w", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := func(name string) string {
			for _, a := range el.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		if tr := attr("transform"); tr != "" {
			if err := checkTransform(tr); err != nil {
				return 0, nil, err
			}
		}
		switch el.Name.Local {
		case "svg":
			w, ok := strings.CutSuffix(attr("width"), "pt")
			box := strings.Fields(attr("viewBox"))
			if !ok || len(box) != 4 {
				return 0, nil, fmt.Errorf("plottest: SVG width %q and viewBox %q: want a width in pt and a viewBox", attr("width"), attr("viewBox"))
			}
			wPt, err1 := strconv.ParseFloat(w, 64)
			wUser, err2 := strconv.ParseFloat(box[2], 64)
			if err1 != nil || err2 != nil || !(wPt > 0) || !(wUser > 0) {
				return 0, nil, fmt.Errorf("plottest: SVG width %q, viewBox %q", attr("width"), attr("viewBox"))
			}
			width, unit = wPt, wPt/wUser
		case "path":
			sty := parseStyle(attr("style"))
			if sty["fill"] == "#FFFFFF" { // a background or a legend box: no thumbnail is white
				swatch = nil
				continue
			}
			for _, key := range [...]string{"fill", "stroke"} {
				c, ok := parseColor(sty[key])
				if ok && opacity(sty[key+"-opacity"]) >= 0.99 {
					swatch = append(swatch, c)
				}
			}
		case "text":
			if unit == 0 {
				return 0, nil, errors.New("plottest: SVG text before the svg element")
			}
			px, ok := strings.CutSuffix(parseStyle(attr("style"))["font-size"], "px")
			size, err := strconv.ParseFloat(px, 64)
			if !ok || err != nil {
				return 0, nil, fmt.Errorf("plottest: SVG text with style %q: want a font-size in px", attr("style"))
			}
			var s string
			if err := dec.DecodeElement(&s, &el); err != nil {
				return 0, nil, fmt.Errorf("plottest: parsing SVG text: %w", err)
			}
			texts = append(texts, SVGText{Text: s, Size: size * unit, Swatch: swatch})
			swatch = nil
		}
	}
	if unit == 0 {
		return 0, nil, errors.New("plottest: no svg element")
	}
	return width, texts, nil
}

// transformPart matches one function of an SVG transform list.
var transformPart = regexp.MustCompile(`\s*([a-zA-Z]+)\(([^)]*)\)\s*,?`)

// checkTransform accepts the transforms vgsvg writes that leave text sizes alone: translate,
// rotate, and scale by ±1.
func checkTransform(tr string) error {
	rest := transformPart.ReplaceAllStringFunc(tr, func(part string) string {
		m := transformPart.FindStringSubmatch(part)
		if m[1] != "scale" {
			if m[1] == "translate" || m[1] == "rotate" {
				return ""
			}
			return part
		}
		for _, f := range strings.FieldsFunc(m[2], func(r rune) bool { return r == ',' || r == ' ' }) {
			if v, err := strconv.ParseFloat(f, 64); err != nil || (v != 1 && v != -1) {
				return part
			}
		}
		return ""
	})
	if strings.TrimSpace(rest) != "" {
		return fmt.Errorf("plottest: SVG transform %q changes sizes; font sizes cannot be read", tr)
	}
	return nil
}

func parseStyle(s string) map[string]string {
	out := map[string]string{}
	for _, decl := range strings.Split(s, ";") {
		if k, v, ok := strings.Cut(decl, ":"); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

func parseColor(s string) (color.NRGBA, bool) {
	if len(s) != 7 || s[0] != '#' {
		return color.NRGBA{}, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.NRGBA{}, false
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}, true
}

func opacity(s string) float64 {
	if s == "" {
		return 1
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return v
}

// SVGFontSizes returns the size in points of every text element of an SVG written by package
// plotting when the figure is printed printWidth wide (0: at its own width), in drawing order. A
// figure made with [plotting.NewPrintFigure] and printed at the width it was laid out at has no
// size below [plotting.MinPrintFont]; a figure laid out wider and scaled down to the page has.
func SVGFontSizes(svg []byte, printWidth vg.Length) ([]float64, error) {
	width, texts, err := ParseSVG(svg)
	if err != nil {
		return nil, err
	}
	scale := 1.0
	if printWidth > 0 {
		scale = printWidth.Points() / width
	}
	sizes := make([]float64, len(texts))
	for i, t := range texts {
		sizes[i] = t.Size * scale
	}
	return sizes, nil
}

// CheckPrintFonts returns an error naming the texts of the SVG smaller than [plotting.MinPrintFont]
// points when the figure is printed printWidth wide (0: at its own width).
func CheckPrintFonts(svg []byte, printWidth vg.Length) error {
	width, texts, err := ParseSVG(svg)
	if err != nil {
		return err
	}
	scale := 1.0
	if printWidth > 0 {
		scale = printWidth.Points() / width
	}
	var small []string
	for _, t := range texts {
		if size := t.Size * scale; size < plotting.MinPrintFont*(1-1e-4) { // the SVG rounds sizes to 5 digits
			small = append(small, fmt.Sprintf("%q at %.2f pt", t.Text, size))
		}
	}
	if len(small) > 0 {
		return fmt.Errorf("plottest: %d texts below %d pt: %s", len(small), plotting.MinPrintFont, strings.Join(small, ", "))
	}
	return nil
}

// CheckLegendColors checks, on an SVG written by package plotting, that every legend entry with
// a label of colors (label → the colour its series is drawn in, e.g. a method's registered style)
// is drawn in that colour: the entry's swatch holds it and no other chromatic (non-grey) colour.
// Each panel's own legend ([plotting.LegendInside]) is checked, as is a shared legend. It returns
// an error naming every label that has no legend entry or is drawn in another colour.
func CheckLegendColors(svg []byte, colors map[string]color.Color) error {
	_, texts, err := ParseSVG(svg)
	if err != nil {
		return err
	}
	var problems []string
	for _, label := range slices.Sorted(maps.Keys(colors)) {
		want := color.NRGBAModel.Convert(colors[label]).(color.NRGBA)
		checked := 0
		for _, tx := range texts {
			if tx.Text != label || len(tx.Swatch) == 0 {
				continue
			}
			checked++
			if p := swatchProblem(tx.Swatch, want); p != "" {
				problems = append(problems, fmt.Sprintf("%q: %s", label, p))
				break
			}
		}
		if checked == 0 {
			problems = append(problems, fmt.Sprintf("%q: no legend entry", label))
		}
	}
	if len(problems) > 0 {
		return errors.New("plottest: legend colours: " + strings.Join(problems, "; "))
	}
	return nil
}

// swatchProblem says what is wrong with a legend thumbnail's colours sw for a method drawn in
// want, or "".
func swatchProblem(sw []color.NRGBA, want color.NRGBA) string {
	if !slices.Contains(sw, want) {
		return fmt.Sprintf("thumbnail colours %s lack %s", hexes(sw), hex(want))
	}
	for _, c := range sw {
		if c != want && (c.R != c.G || c.G != c.B) {
			return fmt.Sprintf("thumbnail also has %s besides %s", hex(c), hex(want))
		}
	}
	return ""
}

func hex(c color.NRGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

func hexes(cs []color.NRGBA) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = hex(c)
	}
	return "[" + strings.Join(out, " ") + "]"
}
