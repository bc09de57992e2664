package format

import (
	"errors"
	"image"
	"image/color"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The expected float32 bit patterns were computed independently, rounding every step of
// ((R/255 + G/255) + B/255) / 3 to float32 (Python struct round trips). The first two differ
// from both (R+G+B)/765 and a different summation order, so they check the exact order.
var grayMeanCases = []struct {
	r, g, b uint8
	bits    uint32
}{
	{7, 154, 234, 0x3f042ed9},
	{7, 176, 208, 0x3f02d82d},
	{255, 0, 0, 0x3eaaaaab},
	{255, 255, 255, 0x3f800000},
	{0, 0, 0, 0},
}

func TestGrayFloat32Mean(t *testing.T) {
	n := len(grayMeanCases)
	nrgba := image.NewNRGBA(image.Rect(0, 0, n, 1))
	rgba := image.NewRGBA(image.Rect(0, 0, n, 1))
	paletted := image.NewPaletted(image.Rect(0, 0, n, 1), nil)
	for x, c := range grayMeanCases {
		nrgba.SetNRGBA(x, 0, color.NRGBA{c.r, c.g, c.b, 255})
		rgba.SetRGBA(x, 0, color.RGBA{c.r, c.g, c.b, 255})
		paletted.Palette = append(paletted.Palette, color.RGBA{c.r, c.g, c.b, 255})
		paletted.SetColorIndex(x, 0, uint8(x))
	}
	for _, img := range []image.Image{nrgba, rgba, paletted} {
		got := mustGrayMean(t, img)
		if len(got) != n {
			t.Fatalf("%T: %d values, want %d", img, len(got), n)
		}
		for x, c := range grayMeanCases {
			if math.Float32bits(got[x]) != c.bits {
				t.Errorf("%T (%d,%d,%d): got %08x (%v), want %08x", img, c.r, c.g, c.b, math.Float32bits(got[x]), got[x], c.bits)
			}
		}
	}
}

// Alpha is ignored: a translucent pixel gives the gray of its straight (non-premultiplied)
// colour, whatever the image type stores.
func TestGrayFloat32MeanIgnoresAlpha(t *testing.T) {
	nrgba := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	nrgba.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 128})
	rgba := image.NewRGBA(image.Rect(0, 0, 1, 1))
	rgba.SetRGBA(0, 0, color.RGBA{128, 0, 0, 128}) // premultiplied form of the same colour
	for _, img := range []image.Image{nrgba, rgba} {
		if got := mustGrayMean(t, img); math.Float32bits(got[0]) != 0x3eaaaaab {
			t.Errorf("%T: got %v, want 1/3", img, got)
		}
	}
}

func TestGrayScaled(t *testing.T) {
	gray := &image.Gray{Pix: []byte{0, 51, 255, 9, 9, 9}, Stride: 3, Rect: image.Rect(0, 0, 3, 2)}
	if got, want := mustGrayScaled(t, gray.SubImage(image.Rect(0, 0, 3, 1))), []float64{0, 0.2, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("gray: got %v, want %v", got, want)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, 1, 1))
	rgba.SetRGBA(0, 0, color.RGBA{51, 51, 51, 255})
	if got := mustGrayScaled(t, rgba); !reflect.DeepEqual(got, []float64{0.2}) {
		t.Errorf("rgba: got %v, want [0.2]", got)
	}
}

func TestStripTile(t *testing.T) {
	strip := image.NewGray(image.Rect(0, 0, 2, 6)) // three tiles of 2 rows
	for i := range strip.Pix {
		strip.Pix[i] = uint8(i)
	}
	tile, err := StripTile(strip, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tile.Bounds() != image.Rect(0, 2, 2, 4) {
		t.Errorf("bounds %v", tile.Bounds())
	}
	if got, want := mustGrayScaled(t, tile), []float64{4.0 / 255, 5.0 / 255, 6.0 / 255, 7.0 / 255}; !reflect.DeepEqual(got, want) {
		t.Errorf("tile pixels %v, want %v", got, want)
	}
	for _, c := range []struct {
		tileH, i int
		want     string
	}{
		{0, 0, "tile height 0 is not positive"},
		{4, 0, "strip height 6 is not a multiple of the tile height 4"},
		{2, 3, "tile 3 is outside 0..2"},
		{2, -1, "tile -1 is outside 0..2"},
	} {
		if _, err := StripTile(strip, c.tileH, c.i); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("StripTile(%d, %d): got %v, want %q", c.tileH, c.i, err, c.want)
		}
	}
}

func mustGrayMean(t testing.TB, img image.Image) []float32 {
	t.Helper()
	v, err := GrayFloat32Mean(img)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustGrayScaled(t testing.TB, img image.Image) []float64 {
	t.Helper()
	v, err := GrayScaled(img)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Issue 34's sweep: a nil image panicked, and image.Uniform's ±10⁹ bounds asked for 4·10¹⁸ pixels.
func TestGrayRefusesNilAndHugeImages(t *testing.T) {
	for name, img := range map[string]image.Image{
		"nil": nil, "nil *Gray": (*image.Gray)(nil), "uniform": image.NewUniform(color.Gray{Y: 1}),
	} {
		if _, err := GrayFloat32Mean(img); err == nil {
			t.Errorf("GrayFloat32Mean(%s): nil error", name)
		}
		if _, err := GrayScaled(img); err == nil {
			t.Errorf("GrayScaled(%s): nil error", name)
		}
		if _, err := StripTile(img, 1, 0); err == nil && name != "uniform" {
			t.Errorf("StripTile(%s): nil error", name)
		}
	}
	for name, read := range map[string]func() error{
		"ReadARFF":      func() error { _, err := ReadARFF(nil, "f"); return err },
		"ReadDelimited": func() error { _, err := ReadDelimited(nil, "f", DelimitedOptions{}); return err },
		"ReadIDX":       func() error { _, err := ReadIDX(nil, "f"); return err },
		"ReadLIBSVM":    func() error { _, _, err := ReadLIBSVM(nil, "f", 1); return err },
		"ReadPGM":       func() error { _, err := ReadPGM(nil, "f"); return err },
		"WalkTar":       func() error { return WalkTar(nil, "f", func(string, int64, io.Reader) error { return nil }) },
		"zero TarWriter": func() error {
			var w TarWriter
			return errors.Join(w.Add("a", nil), w.Close())
		},
	} {
		if err := read(); err == nil {
			t.Errorf("%s of a nil reader or writer: nil error", name)
		}
	}
}
