package format

import (
	"fmt"
	"image"
	"image/color"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
)

// GrayFloat32Mean converts an image to gray exactly as numpy's
// (rgb.astype(float32)/255).mean(axis=2) does, bit for bit, so that LFW pair arrays match
// scikit-learn's fetch_lfw_pairs: gray = ((float32(R)/255 + float32(G)/255) + float32(B)/255) / 3
// with every operation in float32, R, G, B being the 8-bit non-premultiplied channels (alpha
// is ignored, as PIL's convert("RGB") does). It returns h*w values, row-major. For YCbCr
// images (JPEG) the RGB values are Go's conversion, which can differ from PIL's by one level.
// Errors: a nil image, and one whose pixels do not fit memlimit (image.Uniform's ±10⁹ bounds).
func GrayFloat32Mean(img image.Image) ([]float32, error) {
	b, err := pixels("GrayFloat32Mean", img, 4)
	if err != nil {
		return nil, err
	}
	out := make([]float32, 0, b.Dx()*b.Dy())
	// The explicit conversions round every step to float32, as the Go spec guarantees.
	mean := func(r, g, bl uint8) float32 {
		s := float32(float32(r)/255) + float32(float32(g)/255)
		s = float32(s + float32(float32(bl)/255))
		return float32(s / 3)
	}
	switch m := img.(type) {
	case *image.NRGBA:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := m.Pix[m.PixOffset(b.Min.X, y):]
			for x := 0; x < b.Dx(); x++ {
				out = append(out, mean(row[4*x], row[4*x+1], row[4*x+2]))
			}
		}
	case *image.RGBA:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := m.Pix[m.PixOffset(b.Min.X, y):]
			for x := 0; x < b.Dx(); x++ {
				p := row[4*x : 4*x+4]
				if p[3] == 0xff { // opaque: premultiplied equals straight colour
					out = append(out, mean(p[0], p[1], p[2]))
				} else {
					c := color.NRGBAModel.Convert(m.RGBAAt(b.Min.X+x, y)).(color.NRGBA)
					out = append(out, mean(c.R, c.G, c.B))
				}
			}
		}
	default:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				out = append(out, mean(c.R, c.G, c.B))
			}
		}
	}
	return out, nil
}

// GrayScaled returns an 8-bit gray image's pixels divided by 255 as float64, row-major, the
// scaling used for MNIST and the face sets. Other images are first converted with
// color.GrayModel (ITU-R 601 luma). Errors: those of [GrayFloat32Mean].
func GrayScaled(img image.Image) ([]float64, error) {
	b, err := pixels("GrayScaled", img, 8)
	if err != nil {
		return nil, err
	}
	out := make([]float64, 0, b.Dx()*b.Dy())
	if g, ok := img.(*image.Gray); ok {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for _, v := range g.Pix[g.PixOffset(b.Min.X, y):][:b.Dx()] {
				out = append(out, float64(v)/255)
			}
		}
		return out, nil
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out = append(out, float64(color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y)/255)
		}
	}
	return out, nil
}

// pixels returns the bounds of img once it is known to be an image whose pixels, elemBytes each,
// fit memlimit.
func pixels(op string, img image.Image, elemBytes int) (image.Rectangle, error) {
	if err := missing(op, "the image", img); err != nil {
		return image.Rectangle{}, err
	}
	b := img.Bounds()
	if err := memlimit.Check("format: "+op, fmt.Sprintf("the pixels of a %d×%d image", b.Dx(), b.Dy()), elemBytes, b.Dx(), b.Dy()); err != nil {
		return image.Rectangle{}, err
	}
	return b, nil
}

// StripTile cuts tile i (0-based) out of a vertical strip of equal tiles tileH rows high, such
// as the LFW pair PNGs (62-row faces stacked). The tile shares the strip's pixels and keeps its
// coordinates: its Bounds().Min is (strip.Min.X, strip.Min.Y+i*tileH), not (0, 0). The strip's
// height must be a multiple of tileH.
func StripTile(img image.Image, tileH, i int) (image.Image, error) {
	if err := missing("StripTile", "the image", img); err != nil {
		return nil, err
	}
	b := img.Bounds()
	if tileH <= 0 {
		return nil, fmt.Errorf("format: StripTile: tile height %d is not positive", tileH)
	}
	if b.Dy()%tileH != 0 {
		return nil, fmt.Errorf("format: StripTile: strip height %d is not a multiple of the tile height %d", b.Dy(), tileH)
	}
	if n := b.Dy() / tileH; i < 0 || i >= n {
		return nil, fmt.Errorf("format: StripTile: tile %d is outside 0..%d", i, n-1)
	}
	sub, ok := img.(interface {
		SubImage(r image.Rectangle) image.Image
	})
	if !ok {
		return nil, fmt.Errorf("format: StripTile: image type %T cannot be cut", img)
	}
	top := b.Min.Y + i*tileH
	return sub.SubImage(image.Rect(b.Min.X, top, b.Max.X, top+tileH)), nil
}
