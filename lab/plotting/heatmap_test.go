package plotting

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
)

// hugeMatrix claims to be enormous without storing anything.
type hugeMatrix struct{ mat.Matrix }

func (hugeMatrix) Dims() (int, int) { return 100000, 100000 }

func TestHeatMapErrors(t *testing.T) {
	m := mat.NewDense(3, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9})
	bad := mat.NewDense(2, 2, []float64{1, math.NaN(), 3, 4})
	logPlot := New("", "", "")
	if err := LogX(logPlot); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"NaN entry", HeatMap(New("", "", ""), bad, HeatMapOptions{}), "(0, 1)"},
		{"block outside", HeatMap(New("", "", ""), m, HeatMapOptions{Outline: []Rect{{1, 1, 3, 1}}}), "block 0"},
		{"negative block", HeatMap(New("", "", ""), m, HeatMapOptions{Outline: []Rect{{0, 0, 1, 1}, {-1, 0, 1, 1}}}), "block 1"},
		{"empty block", HeatMap(New("", "", ""), m, HeatMapOptions{Outline: []Rect{{0, 0, 0, 1}}}), "block 0"},
		{"grey without blocks", HeatMap(New("", "", ""), m, HeatMapOptions{GreyOutside: true}), "GreyOutside"},
		{"log axis", HeatMap(logPlot, m, HeatMapOptions{}), "log axis"},
		{"entries beyond the limit", HeatMap(New("", "", ""), m, HeatMapOptions{Limit: 5}), "beyond the limit"},
		{"negative limit", HeatMap(New("", "", ""), m, HeatMapOptions{Limit: -1}), "Limit"},
		{"too large", HeatMap(New("", "", ""), hugeMatrix{}, HeatMapOptions{}), "100000 × 100000"},
		{"nil matrix", HeatMap(New("", "", ""), nil, HeatMapOptions{}), "needs"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}
}

func TestMatrixGridPutsRowZeroOnTop(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{0, 1, 2, 3, 4, 5})
	g := matrixGrid{m: m, rows: 2, cols: 3, k: 2}
	if c, r := g.Dims(); c != 6 || r != 4 {
		t.Fatalf("Dims = %d, %d, want 6, 4", c, r)
	}
	for _, tc := range []struct {
		c, r int
		want float64
	}{{0, 3, 0}, {1, 2, 0}, {5, 3, 2}, {0, 0, 3}, {5, 0, 5}, {3, 1, 4}} {
		if got := g.Z(tc.c, tc.r); got != tc.want {
			t.Errorf("Z(%d, %d) = %g, want %g", tc.c, tc.r, got, tc.want)
		}
	}
	if g.X(0) != -0.25 || g.X(5) != 2.25 || g.Y(3) != 1.25 {
		t.Errorf("X(0), X(5), Y(3) = %g, %g, %g, want -0.25, 2.25, 1.25", g.X(0), g.X(5), g.Y(3))
	}
}

// drawnImages draws p and returns the raster images it drew.
func drawnImages(t *testing.T, r *recorder) []image.Image {
	t.Helper()
	if len(r.images) == 0 {
		t.Fatal("no image drawn")
	}
	return r.images
}

func colorAt(t *testing.T, cmap palette.ColorMap, v float64) color.Color {
	t.Helper()
	cmap.SetMin(0)
	cmap.SetMax(1)
	c, err := cmap.At(v)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHeatMapColours(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{0, 1, 2, 3, 4, 5})
	p := New("", "column", "row")
	if err := HeatMap(p, m, HeatMapOptions{}); err != nil {
		t.Fatal(err)
	}
	rec, c := newRecorder(4*vg.Inch, 3*vg.Inch)
	p.Draw(c)
	img := drawnImages(t, rec)[0]
	b := img.Bounds()
	kindlmann := moreland.Kindlmann()
	for _, tc := range []struct {
		x, y int
		v    float64 // value in [0, 1] of the colour scale
	}{
		{0, 0, 0},                    // entry (0, 0) at the top left: the lowest colour
		{b.Dx() - 1, b.Dy() - 1, 1},  // entry (1, 2) at the bottom right: the highest colour
		{b.Dx() / 2, 0, 51.0 / 255},  // entry (0, 1) = 1: palette index round(255/5)
		{0, b.Dy() - 1, 153.0 / 255}, // entry (1, 0) = 3: palette index round(3·255/5)
	} {
		want := colorAt(t, kindlmann, tc.v)
		if got := img.At(b.Min.X+tc.x, b.Min.Y+tc.y); !sameColor(got, want) {
			t.Errorf("pixel (%d, %d) = %v, want %v", tc.x, tc.y, got, want)
		}
	}
	for _, label := range []string{"3", "4", "5"} { // only the colour bar reaches 5
		if !slices.Contains(rec.texts, label) {
			t.Errorf("colour bar label %q not drawn", label)
		}
	}
}

func TestHeatMapDivergingAndGreyedOutside(t *testing.T) {
	m := mat.NewDense(2, 2, []float64{-2, 1, 0, 2})
	p := New("", "", "")
	if err := HeatMap(p, m, HeatMapOptions{Outline: []Rect{{0, 0, 1, 1}}, GreyOutside: true}); err != nil {
		t.Fatal(err)
	}
	rec, c := newRecorder(3*vg.Inch, 3*vg.Inch)
	p.Draw(c)
	images := drawnImages(t, rec)
	if len(images) != 1 {
		t.Fatalf("%d images, want one (the blocks in colour, the rest in grey)", len(images))
	}
	img := images[0]
	b := img.Bounds()
	topLeft, bottomRight := b.Min, image.Point{X: b.Max.X - 1, Y: b.Max.Y - 1}
	if want := colorAt(t, moreland.SmoothBlueRed(), 0); !sameColor(img.At(topLeft.X, topLeft.Y), want) {
		t.Errorf("entry (0, 0) = -2 drawn as %v, want the blue end %v", img.At(topLeft.X, topLeft.Y), want)
	}
	r, g, bl, a := img.At(bottomRight.X, bottomRight.Y).RGBA()
	if a == 0 || r != g || g != bl {
		t.Errorf("entry outside the block drawn as (%d, %d, %d, %d), want an opaque grey", r, g, bl, a)
	}
}

func TestLightness(t *testing.T) {
	for _, tc := range []struct {
		c    color.Color
		want float64
	}{
		{color.Black, 0}, {color.White, 1},
		{color.RGBA{R: 119, G: 119, B: 119, A: 255}, 0.5}, // sRGB grey 119 has L* ≈ 50
	} {
		if got := lightness(tc.c); math.Abs(got-tc.want) > 0.005 {
			t.Errorf("lightness(%v) = %g, want %g", tc.c, got, tc.want)
		}
	}
}

func TestGreyedKeepsLightnessOrder(t *testing.T) {
	colors, err := paletteOf(moreland.Kindlmann())
	if err != nil {
		t.Fatal(err)
	}
	prev := -1
	for i, c := range greyed(colors) {
		y := int(c.(color.Gray).Y)
		if y < prev {
			t.Fatalf("grey %d = %d is darker than grey %d = %d", i, y, i-1, prev)
		}
		prev = y
	}
}

func TestConstantHeatMapDraws(t *testing.T) {
	p := New("", "", "")
	if err := HeatMap(p, mat.NewDense(1, 1, []float64{3}), HeatMapOptions{Outline: []Rect{{0, 0, 1, 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := PlotPNG(p, 2*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
}
