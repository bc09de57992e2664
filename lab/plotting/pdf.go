package plotting

import (
	"image"
	"image/color"
	"reflect"
	"time"
	"unicode/utf8"
	"unsafe"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// pdfCanvas corrects the faults of gonum/plot's vgpdf (v0.15), so that the PDF looks like the PNG
// and SVG:
//   - vgpdf reads a colour's premultiplied components as straight ones, so translucent fills
//     (the uncertainty bands) come out dark grey; SetColor hands it straight components.
//   - vgpdf embeds fonts with the Windows-1252 code page but writes strings as UTF-8 bytes, so
//     "×", "ö" or "é" come out as two wrong characters, and characters outside the code page
//     ("−", "√", "λ", "σ", "′") cannot be written at all; FillString encodes text to the code
//     page and draws the other characters as filled glyph outlines from the same font.
//   - vgpdf draws images (heat maps) upside down, and its writer (go-pdf/fpdf) lists a document's
//     images in the order of a Go map; DrawImage draws them as vector cells instead.
//   - fpdf stamps the clock's date, so the same figure gave different bytes on each run;
//     newPDFCanvas gives each document a fixed date (and sorted catalogs).
type pdfCanvas struct{ *vgpdf.Canvas }

// DrawImage implements vg.Canvas: the image is drawn as vector cells (drawImageCells).
func (c pdfCanvas) DrawImage(rect vg.Rectangle, img image.Image) { drawImageCells(c, rect, img) }

// pdfDate is the creation and modification date of every PDF the package writes, so that a
// figure's bytes do not depend on when it was drawn.
var pdfDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// newPDFCanvas returns a w × h vgpdf canvas whose document has the fixed pdfDate and sorted
// resource catalogs. These are settings of the one fpdf document, not fpdf's process-wide
// defaults, so other users of fpdf in the program are left alone. vgpdf (gonum/plot v0.15) keeps
// its *fpdf.Fpdf in the unexported field doc and has no setter for them, so the document is
// reached by reflection; if a later gonum/plot renames the field, this panics, which encodePDF
// turns into an error (and TestPDFIsReproducible fails).
func newPDFCanvas(w, h vg.Length) *vgpdf.Canvas {
	c := vgpdf.New(w, h)
	field := reflect.ValueOf(c).Elem().FieldByName("doc")
	doc := reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem().Interface().(*fpdf.Fpdf)
	doc.SetCatalogSort(true)
	doc.SetCreationDate(pdfDate)
	doc.SetModificationDate(pdfDate)
	return c
}

// drawImageCells draws img into rect on c as filled rectangles: one per run of equal pixels in a
// pixel row, with consecutive identical rows merged into one band, each pixel composited over white
// (the page under it). The lab's images are heat maps, piecewise constant over their matrix cells,
// so this costs about one rectangle per cell, and the cells stay sharp at any zoom. It replaces
// vgpdf's images for two reasons: fpdf lists a document's images in the order of a Go map, sorted
// only by width, so a figure with several heat maps of one size (slides_fig2's basis images) gave
// different bytes on every run; and vgpdf draws images upside down. Each rectangle but those of the
// last column and band overlaps its right and lower neighbours by overlapCell of a pixel, which
// they cover, so that viewers' anti-aliasing shows no seams between cells.
func drawImageCells(c vg.Canvas, rect vg.Rectangle, img image.Image) {
	b := img.Bounds()
	if b.Empty() {
		return
	}
	pw := (rect.Max.X - rect.Min.X) / vg.Length(b.Dx())
	ph := (rect.Max.Y - rect.Min.Y) / vg.Length(b.Dy())
	x := func(px int) vg.Length { return rect.Min.X + pw*vg.Length(px-b.Min.X) }
	y := func(py int) vg.Length { return rect.Max.Y - ph*vg.Length(py-b.Min.Y) } // image rows run downwards
	for top := b.Min.Y; top < b.Max.Y; {
		bottom := top + 1
		for bottom < b.Max.Y && sameImageRow(img, top, bottom) {
			bottom++
		}
		for left := b.Min.X; left < b.Max.X; {
			col := overWhite(img.At(left, top))
			right := left + 1
			for right < b.Max.X && overWhite(img.At(right, top)) == col {
				right++
			}
			cell := vg.Rectangle{Min: vg.Point{X: x(left), Y: y(bottom)}, Max: vg.Point{X: x(right), Y: y(top)}}
			if right < b.Max.X {
				cell.Max.X += overlapCell * pw
			}
			if bottom < b.Max.Y {
				cell.Min.Y -= overlapCell * ph
			}
			c.SetColor(col)
			c.Fill(cell.Path())
			left = right
		}
		top = bottom
	}
}

// overlapCell is how far, in pixels, a cell of drawImageCells reaches under its neighbours.
const overlapCell = 0.25

// sameImageRow reports whether pixel rows r and s of img are identical.
func sameImageRow(img image.Image, r, s int) bool {
	b := img.Bounds()
	for x := b.Min.X; x < b.Max.X; x++ {
		if overWhite(img.At(x, r)) != overWhite(img.At(x, s)) {
			return false
		}
	}
	return true
}

// overWhite composites a colour over white: opaque, so that the PDF needs no transparency.
func overWhite(c color.Color) color.NRGBA {
	r, g, b, a := c.RGBA() // premultiplied, 16 bits
	white := 0xffff - a
	return color.NRGBA{R: uint8((r + white) >> 8), G: uint8((g + white) >> 8), B: uint8((b + white) >> 8), A: 0xff}
}

// SetColor implements vg.Canvas.
func (c pdfCanvas) SetColor(col color.Color) {
	if col == nil {
		col = color.Black
	}
	c.Canvas.SetColor(straightColor(color.NRGBAModel.Convert(col).(color.NRGBA)))
}

// straightColor is a colour whose RGBA method returns straight (not premultiplied) components,
// which is what vgpdf expects. It must only be handed to vgpdf.
type straightColor color.NRGBA

// RGBA returns the straight components scaled to 16 bits.
func (s straightColor) RGBA() (r, g, b, a uint32) {
	return uint32(s.R) * 0x101, uint32(s.G) * 0x101, uint32(s.B) * 0x101, uint32(s.A) * 0x101
}

var cp1252 = charmap.Windows1252.NewEncoder()

// FillString implements vg.Canvas: runs of characters of the code page are written as text,
// others are drawn as outlines, each run starting where the previous one ends.
func (c pdfCanvas) FillString(f font.Face, pt vg.Point, str string) {
	for str != "" {
		n := 0 // length of the run of encodable (or of non-encodable) runes at the start
		ok := encodable(str)
		for n < len(str) {
			_, size := utf8.DecodeRuneInString(str[n:])
			if encodable(str[n:]) != ok {
				break
			}
			n += size
		}
		run := str[:n]
		if ok {
			enc, err := cp1252.String(run)
			if err != nil { // cannot happen: every rune was checked
				enc = run
			}
			c.Canvas.FillString(f, pt, enc)
		} else {
			c.fillOutlines(f, pt, run)
		}
		pt.X += f.Width(run)
		str = str[n:]
	}
}

// encodable reports whether the first rune of s is in Windows-1252.
func encodable(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	if r < utf8.RuneSelf {
		return true
	}
	_, err := cp1252.String(s[:size])
	return err == nil
}

// fillOutlines draws the glyphs of s as filled paths, with the baseline of the text at pt.
func (c pdfCanvas) fillOutlines(f font.Face, pt vg.Point, s string) {
	var buf sfnt.Buffer
	ppem := fixed.Int26_6(f.Font.Size.Points() * 64)
	at := func(p fixed.Point26_6, x vg.Length) vg.Point {
		return vg.Point{X: x + vg.Length(p.X)/64, Y: pt.Y - vg.Length(p.Y)/64}
	}
	x := pt.X
	for _, r := range s {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		segs, err := f.Face.LoadGlyph(&buf, idx, ppem, nil)
		if err == nil && len(segs) > 0 {
			var path vg.Path
			for _, s := range segs {
				switch s.Op {
				case sfnt.SegmentOpMoveTo:
					if len(path) > 0 {
						path.Close()
					}
					path.Move(at(s.Args[0], x))
				case sfnt.SegmentOpLineTo:
					path.Line(at(s.Args[0], x))
				case sfnt.SegmentOpQuadTo:
					path.QuadTo(at(s.Args[0], x), at(s.Args[1], x))
				case sfnt.SegmentOpCubeTo:
					path.CubeTo(at(s.Args[0], x), at(s.Args[1], x), at(s.Args[2], x))
				}
			}
			path.Close()
			c.Fill(path)
		}
		x += f.Width(string(r))
	}
}
