package dataset

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tarEntry is one member of a hand-made lfw-funneled.tgz; data nil means a folder.
type tarEntry struct {
	name string
	data []byte
}

func makeTGZ(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), Typeflag: tar.TypeReg}
		if e.data == nil {
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// grayJPEG encodes a 250 x 250 image of gray level v at quality 100. Every quantiser step is 1
// and a flat block has only a DC coefficient, 8(v-128), so any decoder gives back exactly v and
// the face made from it is v everywhere (resizing and converting a constant keep it).
func grayJPEG(t *testing.T, v uint8) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 250, 250))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = v, v, v, 255
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// grayFaceSum is the float64 sum of a 62 x 47 face of gray level v as numpy computes it:
// gray = ((v/255 + v/255) + v/255) / 3 in float32.
func grayFaceSum(v uint8) float64 {
	x := float32(v) / 255
	g := float32(float32(x+x)+x) / 3
	return float64(g) * lfwFaceH * lfwFaceW
}

// recipeFixture is a small archive and three lists with hand-computed outputs.
type recipeFixture struct {
	tgz   []byte
	lists map[string]string
	level map[string]uint8 // gray level of each file, "Person/file"
}

func newRecipeFixture(t *testing.T) *recipeFixture {
	f := &recipeFixture{level: map[string]uint8{}, lists: map[string]string{
		// "Alice 1 3": same person, 1st and 3rd files; "Alice 1 Bob 2": different persons.
		"pairsDevTrain.txt": "2\nAlice\t1\t3\nAlice\t1\tBob\t2\n",
		// CRLF line ends and a trailing blank line, stripped as Python's str.strip() does.
		"pairsDevTest.txt": "1\r\nBob-X\t1\tBob\t1\r\n\r\n",
		// Image number 0 is Python's index -1: the last file of the folder.
		"pairs.txt": "1\t2\nAlice\t2\t3\nDave\t1\t0\n",
	}}
	var entries []tarEntry
	add := func(person string, files ...string) {
		entries = append(entries, tarEntry{name: "lfw_funneled/" + person + "/"})
		for _, file := range files {
			v := uint8(20 + 25*len(f.level))
			f.level[person+"/"+file] = v
			entries = append(entries, tarEntry{"lfw_funneled/" + person + "/" + file, grayJPEG(t, v)})
		}
	}
	entries = append(entries, tarEntry{name: "lfw_funneled/"}, tarEntry{"lfw_funneled/pairs_01.txt", []byte("not a person")})
	// Archive order is not the sorted order.
	add("Dave", "Dave_0002.jpg", "Dave_0001.jpg")
	add("Alice", "Alice_0003.jpg", "Alice_0001.jpg", "Alice_0002.jpg")
	add("Bob", "Bob_0002.jpg", "Bob_0001.jpg")
	add("Carol", "Carol_0001.jpg") // no list uses Carol
	// "Bob-X" sorts after "Bob" as a person name but "Bob-X/..." before "Bob/..." as a path
	// ('-' < '/'): the face ids follow the (person, file) order.
	add("Bob-X", "Bob-X_0001.jpg")
	f.tgz = makeTGZ(t, entries)
	return f
}

func (f *recipeFixture) open(name string) (io.ReadCloser, error) {
	s, ok := f.lists[name]
	if !ok {
		return nil, fmt.Errorf("no list %s", name)
	}
	return io.NopCloser(strings.NewReader(s)), nil
}

// faces in face id order, computed by hand.
var fixtureFaces = []string{"Alice/Alice_0001.jpg", "Alice/Alice_0002.jpg", "Alice/Alice_0003.jpg",
	"Bob/Bob_0001.jpg", "Bob/Bob_0002.jpg", "Bob-X/Bob-X_0001.jpg", "Dave/Dave_0001.jpg", "Dave/Dave_0002.jpg"}

func (f *recipeFixture) reference() map[string]float64 {
	s := func(ids ...int) float64 {
		sum := 0.0
		for _, id := range ids {
			sum += grayFaceSum(f.level[fixtureFaces[id]])
		}
		return sum
	}
	return map[string]float64{"train": s(0, 2, 0, 4), "test": s(5, 3), "10_folds": s(1, 2, 6, 7)}
}

type createdFiles struct {
	names []string
	data  map[string][]byte
}

func (c *createdFiles) create(name string, write func(io.Writer) error) error {
	if c.data == nil {
		c.data = map[string][]byte{}
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	c.names = append(c.names, name)
	c.data[name] = b.Bytes()
	return nil
}

func TestBuildLFWPairsSmall(t *testing.T) {
	f := newRecipeFixture(t)
	var c createdFiles
	report, err := buildLFWPairsChecked(context.Background(), bytes.NewReader(f.tgz), f.open, c.create, f.reference(), 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(report)
	want := map[string]string{
		"pairs_train.tsv":    "face_id_1\tface_id_2\ttarget\n0\t2\t1\n0\t4\t0\n",
		"pairs_test.tsv":     "face_id_1\tface_id_2\ttarget\n5\t3\t0\n",
		"pairs_10_folds.tsv": "face_id_1\tface_id_2\ttarget\n1\t2\t1\n6\t7\t1\n",
	}
	for name, w := range want {
		if got := string(c.data[name]); got != w {
			t.Errorf("%s:\n%q\nwant\n%q", name, got, w)
		}
	}
	wantNames := []string{"pairs_train.tsv", "pairs_test.tsv", "pairs_10_folds.tsv", "faces_index.tsv.gz", "faces_rgb_62x47_00.png"}
	if fmt.Sprint(c.names) != fmt.Sprint(wantNames) {
		t.Errorf("created %v, want %v", c.names, wantNames)
	}
	// The index: face id, person, image number, file, sha256 of the JPEG.
	lines := strings.Split(strings.TrimSuffix(string(c.data["faces_index.tsv.gz"]), "\n"), "\n")
	if len(lines) != 1+len(fixtureFaces) || lines[0] != "face_id\tperson\timage_number\tfile\tsource_jpeg_sha256" {
		t.Fatalf("index:\n%s", strings.Join(lines, "\n"))
	}
	for id, key := range fixtureFaces {
		person, file, _ := strings.Cut(key, "/")
		sum := sha256.Sum256(grayJPEG(t, f.level[key]))
		num := file[len(file)-5 : len(file)-4] // the files are numbered in sorted order
		w := fmt.Sprintf("%d\t%s\t%s\tlfw_funneled/%s\t%s", id, person, num, key, hex.EncodeToString(sum[:]))
		if lines[1+id] != w {
			t.Errorf("index line %d: %q, want %q", id+1, lines[1+id], w)
		}
	}
	// The strip: 47 wide, 8 faces of 62 rows, face id k flat at its file's level.
	img, err := png.Decode(bytes.NewReader(c.data["faces_rgb_62x47_00.png"]))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b != image.Rect(0, 0, lfwFaceW, len(fixtureFaces)*lfwFaceH) {
		t.Fatalf("strip bounds %v", b)
	}
	if img.ColorModel() != color.RGBAModel {
		t.Errorf("strip colour model %v, want 8-bit RGB", img.ColorModel())
	}
	for id, key := range fixtureFaces {
		v := f.level[key]
		for y := id * lfwFaceH; y < (id+1)*lfwFaceH; y++ {
			for x := 0; x < lfwFaceW; x++ {
				if got := img.At(x, y).(color.RGBA); got != (color.RGBA{v, v, v, 255}) {
					t.Fatalf("face %d pixel (%d,%d) = %v, want gray %d", id, x, y-id*lfwFaceH, got, v)
				}
			}
		}
	}
}

func TestParseLFWPairList(t *testing.T) {
	got, err := parseLFWPairList("l", []byte("3\n\nA\t 2 \t+1\nA\t1\tB_C\t10\nX\t-1\t0"))
	if err != nil {
		t.Fatal(err)
	}
	want := []lfwPairSpec{
		{sides: [2]lfwImageRef{{"A", 1}, {"A", 0}}, same: true},
		{sides: [2]lfwImageRef{{"A", 0}, {"B_C", 9}}},
		{sides: [2]lfwImageRef{{"X", -2}, {"X", -1}}, same: true},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"1\nA\t1\t2\tB\t3\n", "1\nA\tone\t2\n", "1\nA\t1\tB\tx\n", "10\t300\n", "1\n../x\t1\t2\n", "1\nA\t1\t\xff\n"} {
		if _, err := parseLFWPairList("l", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestBuildLFWPairsErrors(t *testing.T) {
	f := newRecipeFixture(t)
	run := func(name string, tgz []byte, lists map[string]string, ref map[string]float64, wantErr string) {
		t.Helper()
		g := &recipeFixture{tgz: tgz, lists: map[string]string{}, level: f.level}
		for k, v := range f.lists {
			g.lists[k] = v
		}
		for k, v := range lists {
			g.lists[k] = v
		}
		called := false
		_, err := buildLFWPairsChecked(context.Background(), bytes.NewReader(tgz), g.open,
			func(string, func(io.Writer) error) error { called = true; return nil }, ref, 1e-12)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want one containing %q", name, err, wantErr)
		}
		if called {
			t.Errorf("%s: create was called", name)
		}
	}
	ref := f.reference()
	run("missing image", f.tgz, map[string]string{"pairs.txt": "1\t1\nAlice\t1\t4\n"}, ref, "lfw_funneled/Alice/ has 3 entries, no image number 4")
	run("missing person", f.tgz, map[string]string{"pairsDevTest.txt": "1\nEve\t1\tBob\t1\n"}, ref, "no folder lfw_funneled/Eve/")
	run("truncated gzip", f.tgz[:len(f.tgz)/2], nil, ref, "unexpected EOF")
	run("not gzip", []byte("plain text, not an archive"), nil, ref, "lfw-funneled.tgz: gzip: invalid header")
	run("malformed list", f.tgz, map[string]string{"pairsDevTrain.txt": "1\nAlice\t1\t2\t3\t4\n"}, ref, "pairsDevTrain.txt line 2: 5 tab-separated fields")
	delete(f.lists, "pairs.txt")
	run("list not found", f.tgz, nil, ref, "pairs.txt: no list pairs.txt")
	f = newRecipeFixture(t)
	bad := map[string]float64{"train": ref["train"] * 1.001, "test": ref["test"], "10_folds": ref["10_folds"]}
	run("sums off", f.tgz, nil, bad, "gray sums differ from scikit-learn 1.2.1's by more than 1e-12 relative: train")

	// A used file that is not a JPEG.
	broken := makeTGZ(t, []tarEntry{
		{"lfw_funneled/Alice/Alice_0001.jpg", []byte("not a jpeg")},
		{"lfw_funneled/Alice/Alice_0002.jpg", grayJPEG(t, 9)},
		{"lfw_funneled/Alice/Alice_0003.jpg", grayJPEG(t, 9)},
		{"lfw_funneled/Bob/Bob_0001.jpg", grayJPEG(t, 9)},
		{"lfw_funneled/Bob/Bob_0002.jpg", grayJPEG(t, 9)},
		{"lfw_funneled/Bob-X/Bob-X_0001.jpg", grayJPEG(t, 9)},
		{"lfw_funneled/Dave/Dave_0001.jpg", grayJPEG(t, 9)},
		{"lfw_funneled/Dave/Dave_0002.jpg", grayJPEG(t, 9)},
	})
	run("bad jpeg", broken, nil, ref, "lfw_funneled/Alice/Alice_0001.jpg: invalid JPEG format")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := buildLFWPairsChecked(ctx, bytes.NewReader(f.tgz), f.open, (&createdFiles{}).create, ref, 1e-12); err == nil {
		t.Error("cancelled context: no error")
	}
}

// TestLFWPairTablesMirror checks that the recipe's pair tables equal the mirror's files byte
// for byte when fed the mirror's copies of the official lists. Without the funneled images,
// each person's folder listing is taken as <Person>_0001.jpg ... up to the highest number the
// lists use, which is how LFW names its files.
func TestLFWPairTablesMirror(t *testing.T) {
	root := os.Getenv("LAB_DATA_MIRROR")
	if root == "" {
		t.Skip("LAB_DATA_MIRROR not set")
	}
	dir := filepath.Join(root, "lfw_pairs")
	lists := make([][]lfwPairSpec, len(lfwPairLists))
	highest := map[string]int{}
	for i, l := range lfwPairLists {
		data, err := os.ReadFile(filepath.Join(dir, l.list))
		if err != nil {
			t.Fatal(err)
		}
		if lists[i], err = parseLFWPairList(l.list, data); err != nil {
			t.Fatal(err)
		}
		for _, p := range lists[i] {
			for _, s := range p.sides {
				highest[s.person] = max(highest[s.person], s.index+1)
			}
		}
	}
	listing := map[string][]string{}
	for person, n := range highest {
		for k := 1; k <= n; k++ {
			listing[person] = append(listing[person], fmt.Sprintf("%s_%04d.jpg", person, k))
		}
	}
	tables, err := lfwPairTables(lists, listing)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables.faces) != lfwFaces {
		t.Errorf("%d faces, want %d", len(tables.faces), lfwFaces)
	}
	for _, l := range lfwPairLists {
		want, err := os.ReadFile(filepath.Join(dir, "pairs_"+l.subset+".tsv"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tables.tsv[l.subset], want) {
			t.Errorf("pairs_%s.tsv differs from the mirror's", l.subset)
		}
	}
}
