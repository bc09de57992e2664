package dataset

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// mirrorLists opens the official lists stored in the mirror folder dir.
func mirrorLists(dir string) func(string) (io.ReadCloser, error) {
	return func(name string) (io.ReadCloser, error) { return os.Open(filepath.Join(dir, name)) }
}

// TestLFWPairsRecipeMeasure runs the whole recipe on a real lfw-funneled.tgz
// (LAB_LFW_FUNNELED_TGZ) and compares every output with the mirror (LAB_DATA_MIRROR): the TSVs
// byte for byte, the index's content, and the strips' pixels (distribution of per-channel
// absolute differences). It is the measurement behind lfwPairsSumTolerance. With
// LAB_LFW_GO_IDCT set, every JPEG goes through the fallback path (Go's image/jpeg).
func TestLFWPairsRecipeMeasure(t *testing.T) {
	tgz, root := os.Getenv("LAB_LFW_FUNNELED_TGZ"), os.Getenv("LAB_DATA_MIRROR")
	if tgz == "" || root == "" {
		t.Skip("set LAB_LFW_FUNNELED_TGZ (lfw-funneled.tgz) and LAB_DATA_MIRROR to measure the recipe")
	}
	if os.Getenv("LAB_LFW_GO_IDCT") != "" {
		lfwGoIDCT = true // measure the fallback path: Go's image/jpeg for every face
		defer func() { lfwGoIDCT = false }()
	}
	dir := filepath.Join(root, "lfw_pairs")
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	report, err := buildLFWPairs(context.Background(), f, mirrorLists(dir), func(name string, write func(io.Writer) error) error {
		var b bytes.Buffer
		err := write(&b)
		out[name] = b.Bytes()
		return err
	})
	t.Logf("report: %s", report)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pairs_train.tsv", "pairs_test.tsv", "pairs_10_folds.tsv"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out[name], want) {
			t.Errorf("%s differs from the mirror's", name)
		}
	}
	ix := sha256.Sum256(out["faces_index.tsv.gz"])
	if got := hex.EncodeToString(ix[:]); got != "7f906fb8bf14ccd0f41458cbc7ed33fdcdce18025471bacb4df6f940bba36041" {
		t.Errorf("faces_index.tsv content sha256 %s, want the manifest's 7f906fb8...", got)
	}
	var hist [256]int
	total, exact, maxd := 0, 0, 0
	facesExact, faces := 0, 0
	for s := 0; s < lfwStrips; s++ {
		name := fmt.Sprintf("faces_rgb_62x47_%02d.png", s)
		got, err := png.Decode(bytes.NewReader(out[name]))
		if err != nil {
			t.Fatal(name, err)
		}
		wf, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := png.Decode(wf)
		wf.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%s: bounds %v, want %v", name, got.Bounds(), want.Bounds())
		}
		g, w := got.(*image.RGBA), want.(*image.RGBA)
		b := got.Bounds()
		for f0 := 0; f0 < b.Dy()/lfwFaceH; f0++ {
			same := true
			for y := f0 * lfwFaceH; y < (f0+1)*lfwFaceH; y++ {
				for x := 0; x < b.Dx(); x++ {
					for c := 0; c < 3; c++ {
						d := int(g.Pix[g.PixOffset(x, y)+c]) - int(w.Pix[w.PixOffset(x, y)+c])
						if d < 0 {
							d = -d
						}
						hist[d]++
						total++
						if d == 0 {
							exact++
						} else {
							same = false
						}
						maxd = max(maxd, d)
					}
				}
			}
			faces++
			if same {
				facesExact++
			}
		}
	}
	t.Logf("channel samples %d: exact %d (%.4f%%), max |diff| %d; faces bit-identical %d of %d", total, exact, 100*float64(exact)/float64(total), maxd, facesExact, faces)
	if !lfwGoIDCT && exact != total {
		t.Errorf("with libjpeg's IDCT every sample should equal the mirror's; %d differ", total-exact)
	}
	for d := 0; d <= maxd; d++ {
		if hist[d] > 0 {
			t.Logf("|diff| = %d: %d (%.5f%%)", d, hist[d], 100*float64(hist[d])/float64(total))
		}
	}
}
