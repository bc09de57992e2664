package plotting

import (
	"image"
	"image/color"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// recorder is a vg.Canvas that records what is drawn on it instead of rendering: the strings,
// the filled shapes with their colours, and the images. Transforms are ignored, which is exact
// for everything but rotated text.
type recorder struct {
	w, h    vg.Length
	color   color.Color
	texts   []string
	placed  []placedText // the same strings, with where they start and how wide they are
	fills   []recordedFill
	strokes []recordedFill
	images  []image.Image
	rects   []vg.Rectangle // where each image was drawn
}

// placedText is a string drawn from the baseline point at, width wide.
type placedText struct {
	s     string
	at    vg.Point
	width vg.Length
}

// recordedFill is a filled or stroked path: its colour and bounding box.
type recordedFill struct {
	color color.Color
	box   vg.Rectangle
}

func newRecorder(w, h vg.Length) (*recorder, draw.Canvas) {
	r := &recorder{w: w, h: h, color: color.Black}
	return r, draw.New(r)
}

func (r *recorder) Size() (vg.Length, vg.Length)       { return r.w, r.h }
func (r *recorder) SetLineWidth(vg.Length)             {}
func (r *recorder) SetLineDash([]vg.Length, vg.Length) {}
func (r *recorder) SetColor(c color.Color)             { r.color = c }
func (r *recorder) Rotate(float64)                     {}
func (r *recorder) Translate(vg.Point)                 {}
func (r *recorder) Scale(float64, float64)             {}
func (r *recorder) Push()                              {}
func (r *recorder) Pop()                               {}
func (r *recorder) FillString(f font.Face, at vg.Point, s string) {
	r.texts = append(r.texts, s)
	r.placed = append(r.placed, placedText{s: s, at: at, width: f.Width(s)})
}
func (r *recorder) DrawImage(at vg.Rectangle, img image.Image) {
	r.images, r.rects = append(r.images, img), append(r.rects, at)
}

func (r *recorder) Fill(p vg.Path) {
	r.fills = append(r.fills, recordedFill{color: r.color, box: pathBox(p)})
}
func (r *recorder) Stroke(p vg.Path) {
	r.strokes = append(r.strokes, recordedFill{color: r.color, box: pathBox(p)})
}

// pathBox is the bounding box of the points of a path made of lines.
func pathBox(p vg.Path) vg.Rectangle {
	box := vg.Rectangle{Min: p[0].Pos, Max: p[0].Pos}
	for _, c := range p {
		if c.Type == vg.CloseComp {
			continue
		}
		box.Min.X, box.Min.Y = min(box.Min.X, c.Pos.X), min(box.Min.Y, c.Pos.Y)
		box.Max.X, box.Max.Y = max(box.Max.X, c.Pos.X), max(box.Max.Y, c.Pos.Y)
	}
	return box
}

// fillsOf returns the boxes filled in colour c.
func (r *recorder) fillsOf(c color.Color) []vg.Rectangle {
	var boxes []vg.Rectangle
	for _, f := range r.fills {
		if sameColor(f.color, c) {
			boxes = append(boxes, f.box)
		}
	}
	return boxes
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
