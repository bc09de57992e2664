package format

import (
	"bytes"
	"encoding/hex"
	"image"
	"image/jpeg"
	"testing"
)

// pillowTestImage is the input of the Pillow reference cases: sample (x, y, channel c) of a
// w x h image is (37x + 91y + 53c + 7xy) mod 256, channels interleaved.
func pillowTestImage(w, h, channels int) []byte {
	b := make([]byte, 0, w*h*channels)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := 0; c < channels; c++ {
				b = append(b, byte((x*37+y*91+c*53+x*y*7)%256))
			}
		}
	}
	return b
}

// The expected values were computed once with Pillow 9.4.0 (Debian bookworm python3-pil
// 9.4.0-1.1+deb12u1, the version that made the lfw_pairs mirror) on the same inputs:
// Image.frombytes(mode, (w, h), pillowTestImage(w, h, channels)).resize((outW, outH),
// Image.BICUBIC); Pillow 9.4's resize without a filter gave the same bytes.
func TestResizeBicubic8MatchesPillow(t *testing.T) {
	cases := []struct {
		w, h, channels, outW, outH int
		want                       []byte
		wantSum                    int
	}{
		{11, 7, 1, 4, 3, []byte{104, 123, 120, 113, 127, 145, 137, 130, 110, 130, 141, 128}, 0},
		{5, 4, 3, 13, 9, []byte{
			0, 40, 93, 0, 46, 99, 5, 58, 110, 22, 75, 127, 37, 89, 147, 50, 102, 172, 64, 117, 194, 77, 139,
			210, 90, 164, 222, 109, 185, 236, 137, 201, 253, 158, 212, 255, 166, 218, 255, 9, 58, 114, 11,
			64, 120, 23, 78, 134, 41, 96, 151, 57, 113, 159, 72, 129, 159, 88, 141, 162, 104, 143, 174, 118,
			143, 190, 128, 151, 206, 130, 168, 223, 131, 182, 235, 133, 188, 238, 47, 96, 169, 51, 105, 176,
			63, 125, 197, 82, 151, 216, 103, 175, 191, 126, 200, 128, 148, 201, 81, 174, 155, 83, 192, 91,
			109, 175, 66, 129, 115, 85, 147, 62, 107, 160, 50, 113, 165, 92, 146, 190, 98, 151, 197, 113,
			162, 224, 133, 178, 244, 149, 200, 202, 163, 231, 103, 177, 230, 28, 205, 155, 27, 228, 56, 58,
			198, 14, 81, 102, 34, 102, 21, 62, 116, 0, 69, 122, 148, 215, 110, 155, 201, 117, 178, 162, 140,
			199, 117, 161, 185, 113, 146, 137, 142, 98, 104, 157, 66, 118, 123, 79, 147, 74, 112, 142, 63,
			138, 98, 91, 160, 59, 120, 175, 51, 130, 181, 178, 255, 30, 186, 227, 37, 216, 147, 55, 239, 54,
			77, 199, 27, 96, 102, 53, 111, 30, 83, 128, 32, 100, 149, 65, 115, 172, 89, 135, 194, 108, 160,
			217, 121, 180, 233, 127, 188, 240, 118, 188, 51, 127, 171, 58, 153, 123, 75, 178, 68, 100, 159,
			57, 128, 100, 82, 162, 59, 112, 182, 66, 144, 169, 96, 174, 142, 124, 182, 141, 157, 161, 165,
			182, 140, 188, 191, 133, 196, 31, 87, 105, 39, 90, 113, 59, 97, 131, 86, 109, 158, 101, 126,
			187, 109, 149, 221, 119, 172, 228, 139, 206, 170, 163, 234, 87, 187, 216, 56, 215, 138, 83, 235,
			71, 113, 243, 46, 122, 0, 46, 126, 3, 57, 134, 21, 86, 153, 49, 124, 180, 78, 152, 210, 112,
			175, 246, 143, 196, 249, 167, 231, 172, 189, 255, 65, 212, 232, 22, 239, 130, 50, 255, 43, 83,
			255, 11, 92}, 0},
		// The lfw_pairs geometry (crop 94 x 125 to 47 x 62); only the byte sum was written down.
		{94, 125, 3, 47, 62, nil, 1117451},
	}
	for _, c := range cases {
		got, err := ResizeBicubic8(pillowTestImage(c.w, c.h, c.channels), c.w, c.h, c.channels, c.outW, c.outH)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.outW*c.outH*c.channels {
			t.Fatalf("%dx%d -> %dx%d: %d bytes", c.w, c.h, c.outW, c.outH, len(got))
		}
		if c.want != nil && !bytes.Equal(got, c.want) {
			t.Errorf("%dx%d -> %dx%d: got %v, Pillow %v", c.w, c.h, c.outW, c.outH, got, c.want)
		}
		if c.want == nil {
			sum := 0
			for _, v := range got {
				sum += int(v)
			}
			if sum != c.wantSum {
				t.Errorf("%dx%d -> %dx%d: byte sum %d, Pillow %d", c.w, c.h, c.outW, c.outH, sum, c.wantSum)
			}
		}
	}
}

func TestResizeBicubic8Constant(t *testing.T) {
	for _, c := range []struct{ w, h, outW, outH int }{{94, 125, 47, 62}, {3, 3, 10, 7}, {9, 1, 2, 1}, {1, 1, 5, 5}, {6, 6, 6, 6}} {
		for _, v := range []byte{0, 77, 255} {
			src := bytes.Repeat([]byte{v}, c.w*c.h*2)
			got, err := ResizeBicubic8(src, c.w, c.h, 2, c.outW, c.outH)
			if err != nil {
				t.Fatal(err)
			}
			if want := bytes.Repeat([]byte{v}, c.outW*c.outH*2); !bytes.Equal(got, want) {
				t.Errorf("constant %d, %dx%d -> %dx%d: got %v", v, c.w, c.h, c.outW, c.outH, got)
			}
		}
	}
}

func TestResizeBicubic8Errors(t *testing.T) {
	if _, err := ResizeBicubic8(make([]byte, 5), 2, 2, 1, 1, 1); err == nil {
		t.Error("wrong buffer length: no error")
	}
	if _, err := ResizeBicubic8(nil, 0, 2, 1, 1, 1); err == nil {
		t.Error("zero width: no error")
	}
}

// flatJPEG is a 32 x 32 4:2:0 baseline JPEG written by Pillow 9.4.0 (quality=100,
// subsampling=2) from four 16 x 16 squares of colours (200,30,40), (20,180,60), (40,60,220),
// (240,240,20) (left to right, top to bottom); flatJPEGRGB is what Pillow 9.4.0 (libjpeg-turbo
// 2.1.5, Debian libjpeg62-turbo) decodes it to with Image.open(...).convert("RGB"). Every
// 8 x 8 block is flat, so the IDCT is exact in any decoder and the bytes test the chroma
// upsampling and colour conversion alone (Go's own conversion differs at the squares' edges).
const flatJPEG = "ffd8ffe000104a46494600010100000100010000ffdb0043000101010101010101010101010101010101010101010101" +
	"0101010101010101010101010101010101010101010101010101010101010101010101010101010101ffdb0043010101" +
	"010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101" +
	"0101010101010101010101010101ffc00011080020002003012200021101031101ffc4001f0000010501010101010100" +
	"000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d010203000411051221" +
	"31410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a" +
	"434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a9293949596979899" +
	"9aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1" +
	"f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405060708090a0bffc400b51100" +
	"020102040403040705040400010277000102031104052131061241510761711322328108144291a1b1c109233352f015" +
	"6272d10a162434e125f11718191a262728292a35363738393a434445464748494a535455565758595a63646566676869" +
	"6a737475767778797a82838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4" +
	"c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00fc" +
	"8fa28a2bf8fcff00aa03f4828a28afcdcffccbcfc8fa28a2bfee80ff005e0ff478a28a2bff001f73fd483fffd9"

const flatJPEGRGB = "c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27c81e27913b24" +
	"4b973f14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c14b33c" +
	"a22857a22857a22857a22857a22857a22857a22857a22857a22857a22857a22857a22857a22857a22857a228577d403f" +
	"57933333aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a33aa1a" +
	"4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4e32ab4b406a" +
	"d4eb77d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936d1f936" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014" +
	"283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb283cdb364586" +
	"e2e769f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014f0f014"

func TestLibjpegRGBMatchesLibjpeg(t *testing.T) {
	data, _ := hex.DecodeString(flatJPEG)
	want, _ := hex.DecodeString(flatJPEGRGB)
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, err := LibjpegRGB(img, img.Bounds())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("RGB differs from libjpeg's")
	}
	// A region gives the same bytes as the whole image cut afterwards.
	r := image.Rect(5, 9, 27, 30)
	part, err := LibjpegRGB(img, r)
	if err != nil {
		t.Fatal(err)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := want[(y*32+r.Min.X)*3 : (y*32+r.Max.X)*3]
		if !bytes.Equal(part[(y-r.Min.Y)*r.Dx()*3:(y-r.Min.Y+1)*r.Dx()*3], row) {
			t.Fatalf("region row %d differs", y)
		}
	}
	if _, err := LibjpegRGB(img, image.Rect(0, 0, 33, 3)); err == nil {
		t.Error("region outside the image: no error")
	}
}
