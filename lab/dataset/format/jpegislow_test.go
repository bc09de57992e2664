package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"testing"
)

// The testdata/pillow_37x29_*.jpg files were written once with Pillow 9.4.0 (Debian
// python3-pil 9.4.0-1.1+deb12u1, libjpeg-turbo 2.1.5) from a 37 x 29 pattern (pixel (x, y) =
// ((3x^2+17y+xy) mod 256, (29x+5y^2) mod 256, (11x+13y+30((xy) mod 7)) mod 256), gray: the
// first value) with quality=75 and subsampling 2 (4:2:0), 1 (4:2:2), 0 (4:4:4), gray, and
// 4:2:0 progressive. The sha256 values are of what that Pillow decodes them to:
// Image.open(f).convert("RGB").tobytes(). The sizes are not multiples of the MCU, so partial
// blocks and edge replication in the upsampling are exercised; the content is not flat, so
// the IDCT's rounding is (Go's image/jpeg gives other bytes for the colour ones).
var pillowJPEGs = []struct {
	file, rgbSHA256 string
}{
	{"pillow_37x29_420.jpg", "5e520547917db1513c47f3a4611f059a0e63203cca19ad3c11ed6efdbd6a0d43"},
	{"pillow_37x29_422.jpg", "0377a40a69adfa504432223cc73b840632f632d26c810d41f20f5844e2efbf41"},
	{"pillow_37x29_444.jpg", "04b73bf53462ea54c888c71f3f65b7eea8060b4d9e90f3a3595f1eabd59a9455"},
	{"pillow_37x29_gray.jpg", "ba0a352bc8ffd2f7d1ba548c05afe6c6b9f340d9cb7e1e50aedb25916a13ce01"},
}

func rgbSHA(t *testing.T, data []byte, useGo bool) string {
	t.Helper()
	decode := DecodeJPEGLibjpeg
	if useGo {
		decode = func(b []byte) (img image.Image, err error) { return jpeg.Decode(bytes.NewReader(b)) }
	}
	img, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	rgb, err := LibjpegRGB(img, img.Bounds())
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(rgb)
	return hex.EncodeToString(sum[:])
}

func TestDecodeJPEGLibjpegMatchesPillow(t *testing.T) {
	for _, c := range pillowJPEGs {
		data, err := os.ReadFile("testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := rgbSHA(t, data, false); got != c.rgbSHA256 {
			t.Errorf("%s: RGB sha256 %s, Pillow's %s", c.file, got, c.rgbSHA256)
		}
		if c.file != "pillow_37x29_gray.jpg" && rgbSHA(t, data, true) == c.rgbSHA256 {
			t.Errorf("%s: Go's image/jpeg also gives Pillow's bytes: the case does not test the IDCT", c.file)
		}
	}
	data, _ := hex.DecodeString(flatJPEG)
	if got, want := rgbSHA(t, data, false), sha256.Sum256(mustHex(flatJPEGRGB)); got != hex.EncodeToString(want[:]) {
		t.Errorf("flat JPEG differs from Pillow's")
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func TestDecodeJPEGLibjpegErrors(t *testing.T) {
	prog, err := os.ReadFile("testdata/pillow_37x29_prog.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeJPEGLibjpeg(prog); !errors.Is(err, ErrJPEGUnsupported) {
		t.Errorf("progressive: error %v, want ErrJPEGUnsupported", err)
	}
	good, _ := os.ReadFile("testdata/pillow_37x29_420.jpg")
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not jpeg":  []byte("GIF89a......"),
		"truncated": good[:len(good)/3],
		"no scan":   good[:200],
	} {
		if _, err := DecodeJPEGLibjpeg(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestDecodeJPEGLibjpegCorrupt flips bytes of a valid JPEG: the decoder may fail or give some
// image, but must not panic.
func TestDecodeJPEGLibjpegCorrupt(t *testing.T) {
	good, err := os.ReadFile("testdata/pillow_37x29_420.jpg")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		b := append([]byte(nil), good...)
		for k := 0; k < 1+r.IntN(4); k++ {
			b[r.IntN(len(b))] = byte(r.IntN(256))
		}
		if r.IntN(4) == 0 {
			b = b[:r.IntN(len(b))]
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("case %d: panic %v", i, p)
				}
			}()
			if img, err := DecodeJPEGLibjpeg(b); err == nil {
				if _, err := LibjpegRGB(img, img.Bounds()); err != nil {
					t.Fatalf("case %d: %v", i, err)
				}
			}
		}()
	}
}

// FuzzDecodeJPEGLibjpeg: any input gives an image or an error, never a panic or a hang; an image
// it gives converts to RGB. Seeds: the Pillow-written test files (baseline and progressive).
func FuzzDecodeJPEGLibjpeg(f *testing.F) {
	for _, name := range []string{"420", "422", "444", "gray", "prog"} {
		b, err := os.ReadFile("testdata/pillow_37x29_" + name + ".jpg")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if img, err := DecodeJPEGLibjpeg(b); err == nil {
			if _, err := LibjpegRGB(img, img.Bounds()); err != nil {
				t.Fatalf("decoded image does not convert: %v", err)
			}
		}
	})
}
