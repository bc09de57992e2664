package format

import (
	"bytes"
	"image"
	"reflect"
	"strings"
	"testing"
)

func TestReadPGM(t *testing.T) {
	cases := []struct {
		name  string
		input string
		want  *image.Gray
	}{
		{"P5", "P5\n# a comment\n3 2\n255\n" + string([]byte{0, 1, 2, 3, 4, 255}),
			&image.Gray{Pix: []byte{0, 1, 2, 3, 4, 255}, Stride: 3, Rect: image.Rect(0, 0, 3, 2)}},
		{"P5 whitespace byte is a newline", "P5 1 1 255\n\n", // the raster byte is '\n' = 10
			&image.Gray{Pix: []byte{10}, Stride: 1, Rect: image.Rect(0, 0, 1, 1)}},
		{"P2 rescaled from maxval 15", "P2\n2 2\n15\n0 15\n# c\n5\t10\n",
			// 5/15·255 = 85 and 10/15·255 = 170
			&image.Gray{Pix: []byte{0, 255, 85, 170}, Stride: 2, Rect: image.Rect(0, 0, 2, 2)}},
		{"P5 rescaled from maxval 1", "P5 2 1 1\n" + string([]byte{1, 0}),
			&image.Gray{Pix: []byte{255, 0}, Stride: 2, Rect: image.Rect(0, 0, 2, 1)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadPGM(strings.NewReader(c.input), "t.pgm")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestReadPGMErrors(t *testing.T) {
	cases := []struct {
		name, input, want string
	}{
		{"empty", "", "t.pgm: offset 0: file ends inside the magic number"},
		{"color", "P6 1 1 255\n...", "t.pgm: offset 0: magic \"P6\" is not P5 or P2"},
		{"truncated pixels", "P5 2 2 255\n\x01\x02", "t.pgm: offset 13: pixels truncated: 2×2 needs 4 bytes, found 2"},
		{"16-bit", "P5 1 1 65535\n\x00\x00", "t.pgm: offset 12: maxval 65535 is not in 1..255"},
		{"maxval zero", "P5 1 1 0\n\x00", "t.pgm: offset 8: maxval 0 is not in 1..255"},
		{"pixel above maxval", "P5 2 1 100\n\x05\xc8", "t.pgm: offset 12: pixel 200 is above maxval 100"},
		{"zero width", "P5 0 1 255\n", "t.pgm: offset 10: empty image 0×1"},
		{"huge", "P5 1000000 1000000 255\n", "t.pgm: offset 22: image 1000000×1000000 exceeds the cap"},
		{"number too large", "P5 99999999 1 255\n", "t.pgm: offset 10: width is larger than 1048576"},
		{"missing height", "P5 3", "t.pgm: offset 4: file ends after the width"},
		{"letter in header", "P5 3x 2 255\n", "t.pgm: offset 4: unexpected 'x' after the width"},
		{"no space after maxval", "P5 1 1 255#\n\x00", "t.pgm: offset 11: expected one whitespace byte after maxval"},
		{"trailing data", "P5 1 1 255\n\x00xyz", "t.pgm: offset 12: data after the image"},
		{"P2 bad pixel", "P2\n2 1\n255\n1 x\n", "t.pgm:4: pixel 2 of 2: expected the pixel, found \"x\""},
		{"P2 pixel above maxval", "P2\n2 1\n15\n1\n16\n", "t.pgm:5: pixel 2 of 2: pixel is larger than 15"},
		{"P2 too few pixels", "P2\n2 1\n255\n1\n", "t.pgm:5: pixel 2 of 2: file ends before the pixel"},
		{"P2 glued pixel", "P2\n2 1\n255\n1 2x\n", "t.pgm:4: unexpected 'x' after pixel 2"},
		{"P2 trailing data", "P2\n1 1\n255\n1\n2\n", "t.pgm:5: data after the image"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadPGM(strings.NewReader(c.input), "t.pgm")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got error %v, want prefix %q", err, c.want)
			}
		})
	}
}

func FuzzReadPGM(f *testing.F) {
	f.Add([]byte("P5\n# c\n3 2\n255\n\x00\x01\x02\x03\x04\xff"))
	f.Add([]byte("P2\n2 2\n15\n0 15\n# c\n5 10\n"))
	f.Add([]byte("P5 1000000 1000000 255\n"))
	f.Add([]byte("P2 2 1 255 1 x"))
	f.Add([]byte("P5 1 1 255\n\x00xyz"))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := ReadPGM(bytes.NewReader(data), "fuzz.pgm")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.pgm") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		b := img.Bounds()
		if b.Dx() <= 0 || b.Dy() <= 0 || len(img.Pix) != b.Dx()*b.Dy() || img.Stride != b.Dx() {
			t.Fatalf("inconsistent image: bounds %v, %d pixels, stride %d", b, len(img.Pix), img.Stride)
		}
		if len(img.Pix) > len(data) {
			t.Fatalf("%d pixels from %d bytes", len(img.Pix), len(data))
		}
	})
}
