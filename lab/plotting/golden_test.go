package plotting

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"
)

// screenFigure uses every drawing function of the screen style (New, NewFigure, log axes, bands
// by position, AddLine, AddScatter, AddHLine, HeatMap with blocks and diverging values).
func screenFigure() *Figure {
	curves := New("Approximation error", "landmarks m", "relative error")
	landmarks := []float64{10, 20, 50, 100, 200, 500}
	var bands []Band
	for k, name := range []string{"uniform", "leverage scores", "third"} {
		b := Band{Label: name, X: landmarks, Dashed: k == 1}
		for _, m := range landmarks {
			e := math.Pow(m, -0.5-0.3*float64(k))
			b.Mean, b.Lo, b.Hi = append(b.Mean, e), append(b.Lo, 0.8*e), append(b.Hi, 1.25*e)
		}
		bands = append(bands, b)
	}
	LogX(curves)
	LogY(curves)
	AddBands(curves, bands...)
	AddHLine(curves, 1e-3, "tolerance", 6)
	AddLine(curves, []float64{10, 500}, []float64{0.3, 0.01}, "slope", 4, true)
	n := 12
	gram := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			d := float64(i - j)
			gram.Set(i, j, math.Exp(-d*d/8)-0.1)
		}
	}
	blocks := New("Gram matrix", "column", "row")
	HeatMap(blocks, gram, HeatMapOptions{Outline: []Rect{{0, 0, 6, 6}, {6, 6, 6, 6}}, GreyOutside: true})
	g2 := New("Gram", "column", "row")
	HeatMap(g2, mat.NewDense(2, 2, []float64{1, 2, 3, 4}), HeatMapOptions{})
	lin := New("linear", "x", "y")
	AddScatter(lin, []float64{1, 2, 3}, []float64{3, 1, 2}, "pts", 2)
	AddBands(lin, Band{Label: "b", X: []float64{0, 1, 2, 3}, Mean: []float64{1, 2, 2, 3}})
	fig := NewFigure(2, 2, 3.5*vg.Inch, 2.8*vg.Inch)
	fig.Set(0, 0, curves)
	fig.Set(0, 1, blocks)
	fig.Set(1, 0, g2)
	fig.Set(1, 1, lin)
	return fig
}

// TestScreenStyleIsUnchanged guards the promise of the print-style round: the figures of the
// existing renderers (New, NewFigure, index-styled series, HeatMap) stay byte-for-byte what they
// were before the print style was added (the hashes match the files written before that change:
// PNG file sha256 93ca5bbd…, the same pixels); update them only for a change of New's look that
// is meant.
func TestScreenStyleIsUnchanged(t *testing.T) {
	fig := screenFigure()
	encoded, err := fig.PNG()
	if err != nil {
		t.Fatal(err)
	}
	// The pixels, not the file: another Go release may compress the same image differently.
	img, err := png.Decode(bytes.NewReader(encoded))
	if err != nil {
		t.Fatal(err)
	}
	pixels := image.NewNRGBA(img.Bounds())
	draw.Draw(pixels, pixels.Rect, img, img.Bounds().Min, draw.Src)
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"PNG pixels", pixels.Pix, "253259594645869623c59677da391acc42dfab667b5543364ddcb6c57b47e38d"},
		{"SVG", svg, "272fec6778faeb42a4e1aa942aa2abf6feaf904b96cae1c68b6f0305faf1f7cc"}, // one image for a greyed heat map, same pixels
	} {
		if got := fmt.Sprintf("%x", sha256.Sum256(tc.data)); got != tc.want {
			t.Errorf("the screen figure's %s changed: sha256 %s, was %s", tc.name, got, tc.want)
		}
	}
}
