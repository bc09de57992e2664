package dataset

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"maps"
	"math"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// The lfw_pairs recipe rebuilds the mirror's files (see SOURCE.md of lfw_pairs) from
// scikit-learn's upstream: lfw-funneled.tgz and LFW's three official pair lists.

// recipeLFWPairs builds lfw_pairs' face strips and pair tables from lfw-funneled.tgz and the
// three official pair lists (files of the data set, downloaded and checked by their sha256):
// see buildLFWPairs. The strips are PNGs that Go's encoder compresses otherwise than Pillow's,
// so they are checked by their pixels (lfwStripSHA256) and the subsets' gray sums inside the
// build, not by the PNG files' sha256; the pair tables and the face index are byte-identical.
var recipeLFWPairs = recipe{
	sources: []string{"lfw-funneled.tgz"},
	outputs: lfwPairsOutputs(),
	loose:   lfwStripNames(),
	build: func(ctx context.Context, b *build) (string, error) {
		src, err := b.source("lfw-funneled.tgz")
		if err != nil {
			return "", err
		}
		defer src.Close()
		openList := func(name string) (io.ReadCloser, error) { return b.file(ctx, name) }
		return buildLFWPairs(ctx, bufio.NewReaderSize(src, 1<<16), openList, b.create)
	},
}

// lfwStripNames is the set of the 19 face strips' file names.
func lfwStripNames() map[string]bool {
	names := map[string]bool{}
	for i := range lfwStrips {
		names[lfwStripName(i)] = true
	}
	return names
}

// lfwPairsOutputs lists what buildLFWPairs writes: the strips, the pair tables, the face index.
func lfwPairsOutputs() []string {
	out := slices.Sorted(maps.Keys(lfwStripNames()))
	for _, l := range lfwPairLists {
		out = append(out, "pairs_"+l.subset+".tsv")
	}
	return append(out, "faces_index.tsv.gz")
}

// lfwPairLists names, per output subset, the official list it is made from, in output order.
var lfwPairLists = []struct{ subset, list string }{
	{"train", "pairsDevTrain.txt"},
	{"test", "pairsDevTest.txt"},
	{"10_folds", "pairs.txt"},
}

// Geometry of scikit-learn 1.2.1's fetch_lfw_pairs defaults: slice_ = (slice(70, 195),
// slice(78, 172)) gives Pillow's crop((78, 70, 172, 195)), and resize = 0.5 gives
// (int(0.5*94), int(0.5*125)) = 47 x 62.
var lfwCrop = image.Rect(78, 70, 172, 195)

// lfwImageRef is one side of a pair as a list names it: the person and the index into the
// person's folder listing (Python semantics: negative counts from the end).
type lfwImageRef struct {
	person string
	index  int
}

// lfwPairSpec is one parsed pair line.
type lfwPairSpec struct {
	sides [2]lfwImageRef
	same  bool
}

// parseLFWPairList parses an official LFW pair list as scikit-learn 1.2.1's _fetch_lfw_pairs
// does: the content is split into lines at '\n', each line decoded as UTF-8, stripped of
// surrounding white space and split at every tab; lines of at most two fields (the count
// header, blank lines) are skipped; three fields "name i j" are a same-person pair, four
// "name1 i name2 j" a different-person pair, anything longer is an error. The numbers are
// 1-based and scikit-learn subtracts 1 and indexes the sorted folder listing with the result,
// so 0 means the last file (Python's negative indexing); this is kept. Numbers may carry
// surrounding spaces and a sign, as Python's int() allows (not its '_' digit separators).
func parseLFWPairList(name string, data []byte) ([]lfwPairSpec, error) {
	var pairs []lfwPairSpec
	lines := bytes.Split(data, []byte{'\n'})
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // no line after a final newline
	}
	for ln, raw := range lines {
		if !utf8.Valid(raw) {
			return nil, fmt.Errorf("%s line %d: not UTF-8", name, ln+1)
		}
		fields := strings.Split(strings.TrimSpace(string(raw)), "\t")
		if len(fields) <= 2 {
			continue
		}
		num := func(s string) (int, error) {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return 0, fmt.Errorf("%s line %d: image number %q is not an integer", name, ln+1, s)
			}
			return v - 1, nil
		}
		var p lfwPairSpec
		switch len(fields) {
		case 3:
			i, err := num(fields[1])
			if err != nil {
				return nil, err
			}
			j, err := num(fields[2])
			if err != nil {
				return nil, err
			}
			p = lfwPairSpec{sides: [2]lfwImageRef{{fields[0], i}, {fields[0], j}}, same: true}
		case 4:
			i, err := num(fields[1])
			if err != nil {
				return nil, err
			}
			j, err := num(fields[3])
			if err != nil {
				return nil, err
			}
			p = lfwPairSpec{sides: [2]lfwImageRef{{fields[0], i}, {fields[2], j}}}
		default:
			return nil, fmt.Errorf("%s line %d: %d tab-separated fields, want 3 (same person) or 4 (different persons)", name, ln+1, len(fields))
		}
		for _, s := range p.sides {
			if s.person == "" || s.person == "." || s.person == ".." || strings.Contains(s.person, "/") {
				return nil, fmt.Errorf("%s line %d: person %q is not a folder name", name, ln+1, s.person)
			}
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("%s: no pairs", name)
	}
	return pairs, nil
}

// lfwFace is the image key: person folder and file name inside it.
type lfwFace struct{ person, file string }

// lfwDecoded is a cropped and resized face (62*47*3 bytes, RGB) and its source's sha256, or
// the error decoding it.
type lfwDecoded struct {
	rgb     []byte
	sha256  string
	libjpeg bool // decoded with libjpeg's IDCT (see lfwFaceFromJPEG)
	err     error
}

// lfwGoIDCT makes lfwFaceFromJPEG decode every JPEG with Go's image/jpeg (its fallback path);
// TestLFWPairsRecipeMeasure sets it to measure that path.
var lfwGoIDCT = false

// lfwFaceFromJPEG makes one face as scikit-learn 1.2.1 does with Pillow 9.4: decode, convert to
// RGB (libjpeg's fancy upsampling and colour tables on Go's decoded planes), crop, bicubic
// resize to 47 x 62.
//
// The JPEG is decoded with format.DecodeJPEGLibjpeg, libjpeg's own IDCT, which with
// LibjpegRGB and ResizeBicubic8 gives Pillow's bytes exactly (libjpeg=true); JPEG variants it
// does not handle, or that it rejects, go through Go's image/jpeg, whose IDCT rounds
// differently (a level or two off here and there).
func lfwFaceFromJPEG(data []byte) (face []byte, libjpeg bool, err error) {
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, false, err
	}
	if cfg.Width > 4096 || cfg.Height > 4096 {
		return nil, false, fmt.Errorf("image is %d x %d, LFW's are 250 x 250", cfg.Width, cfg.Height)
	}
	var img image.Image
	if !lfwGoIDCT {
		img, err = format.DecodeJPEGLibjpeg(data)
	}
	libjpeg = err == nil && !lfwGoIDCT
	if !libjpeg {
		if img, err = jpeg.Decode(bytes.NewReader(data)); err != nil {
			return nil, false, err
		}
	}
	b := img.Bounds()
	if b.Min != (image.Point{}) || !lfwCrop.In(b) {
		return nil, false, fmt.Errorf("image is %v, want one at the origin covering the crop %v", b, lfwCrop)
	}
	rgb, err := format.LibjpegRGB(img, lfwCrop)
	if err != nil {
		return nil, false, err
	}
	face, err = format.ResizeBicubic8(rgb, lfwCrop.Dx(), lfwCrop.Dy(), 3, lfwFaceW, lfwFaceH)
	return face, libjpeg, err
}

// lfwPairsReference is what the mirror's files give (SOURCE.md of lfw_pairs: float64 sums of
// scikit-learn 1.2.1's float32 gray arrays fetch_lfw_pairs(subset=S), which the mirror's files
// rebuild bit for bit), rounded to 6 decimals there.
var lfwPairsReference = map[string]float64{
	"train":    6215056.449782,
	"test":     2835447.667072,
	"10_folds": 16917256.139574,
}

// lfwPairsSumTolerance is the relative tolerance of each subset's gray sum against
// lfwPairsReference. Measured on the real lfw-funneled.tgz (TestLFWPairsRecipeMeasure, see the
// commit that set it): with libjpeg's IDCT every sample equals the mirror's and the sums agree
// to 6.4e-14 (the 6 decimals of the reference); with Go's image/jpeg IDCT for every face (the
// fallback path) 95.35% of the samples are exact, the rest 1 to 3 levels off, and the sums are
// low by 2.8e-7 (train), 3.2e-7 (test), 6.0e-7 (10_folds). 2e-6 passes the all-fallback case
// with a margin of 3.3 over its worst subset, and still fails when a single face of train is
// one level off everywhere (2914/255 gray units, 1.8e-6 of train's sum) or wrong altogether
// (about 1400 units, 2e-4).
const lfwPairsSumTolerance = 2e-6

// lfwStripSHA256 is, per strip faces_rgb_62x47_NN.png of the mirror, the sha256 of its decoded
// pixels as raw RGB bytes (row-major, 3 bytes per pixel, no padding), computed from the
// mirror's PNGs with Pillow 9.4.0 (Image.open(png).tobytes(); mode RGB, 47 x 31000, the last
// 47 x 3472). Strips with these bytes make scikit-learn 1.2.1's arrays bit for bit.
var lfwStripSHA256 = []string{
	"f70567b08345237cad4bc9645272f9e038e4d14b1965ccc76a2b7e7ae4f9a7d3",
	"3c65ec464b0e868b1df03f3697bc5596a4d395e4c5309c5bb1f47a07f8200679",
	"39ff2c5a1dc0e08305844115b5b5c92cca3ac79f00040071690ad6225ded0539",
	"9237cb39995232c22bbf348d1484bac994430b8a125e381d3b37a1a4a8815946",
	"8bdb4227cf813e27f5c069cfb566996fcadeecceb3017b6ec88697c90dca60e1",
	"1da69aac151a485bf455476cc08d264f8f447c5c9646129c77b9f47e64bb5e16",
	"ab1279e1579277314060f5a33e291acfec06005f0e8bbeefcbc93ffcb42f465b",
	"43d64c7035310903285c4c4c4d1e228562a1ad15240654929119cacf06627ffa",
	"ba663dcf1524ec750c3b7224f5514c51efc51e2987a59f47378ff535b1e36fce",
	"ff23dba51485722439e73eb27a1560b6b6e1f68e7bd5fe390407a6f83f3f649f",
	"254e6c5768ab91b7879dfde25d29fb324661a44b5ea4db0d06954bfe01dba981",
	"233bea488753a509ca86f84589da63dc6c6f9060664e109cdec98b11086abaa8",
	"17a40a9d979deb4f8fd2db059a6c9433a859a83bc8aa5b7bb373f3b4d6d6de05",
	"a6ca7ed55f11d798d0888e989be7171e89df8031d9731ac214b3504a204c46cc",
	"94525798cd214a2a98ef6400389e900033add494da4776f46264432187a64170",
	"fc61f920f5cff3e78ac7ce85c7139422d64b717b88bcdbd5b3199d111faaf750",
	"1d6c84fe14b3be16c8d92162ad2ed3c15ebeec5c2a190e891ff52c1df7a2b7e0",
	"c6d64a2bd66221f26c13c9444c77862891a46bf8d5ef753dd9192c2e43f0a5a4",
	"85076b542946b299e27ed59db6407efce408a14c3c459d9265759eae287fa8ac",
}

// buildLFWPairs builds the lfw_pairs files from lfw-funneled.tgz (read from funneled,
// gzip-compressed tar) and the official pair lists (openList("pairsDevTrain.txt"),
// openList("pairsDevTest.txt"), openList("pairs.txt") return their content). It calls
// create(name, write) once per output file, write getting the file's uncompressed content
// writer: pairs_train.tsv, pairs_test.tsv, pairs_10_folds.tsv (byte-identical to the mirror's
// for the official lists), faces_index.tsv.gz (its uncompressed content) and the 19 strips
// faces_rgb_62x47_NN.png. Everything is built and checked in memory first, so on any error
// create has not been called: never the whole archive, but the archive's file names and the
// 62x47 RGB face of every JPEG of a person the lists name (which of a person's files the lists
// use is only known once the archive has been read): 12,382 faces, 108 MB, for the official
// lists, then the 9,056 used ones as strips and PNGs (about 155 MB more). The returned report
// says what was built, whether the strips are bit-identical to the mirror's and how the gray
// sums compare with scikit-learn's.
func buildLFWPairs(ctx context.Context, funneled io.Reader, openList func(name string) (io.ReadCloser, error),
	create func(name string, write func(w io.Writer) error) error) (report string, err error) {
	return buildLFWPairsChecked(ctx, funneled, openList, create, lfwPairsReference, lfwPairsSumTolerance)
}

// buildLFWPairsChecked is buildLFWPairs with the reference gray sums (by subset) and their
// relative tolerance as parameters, so that tests can run it on hand-made archives.
func buildLFWPairsChecked(ctx context.Context, funneled io.Reader, openList func(name string) (io.ReadCloser, error),
	create func(name string, write func(w io.Writer) error) error, reference map[string]float64, tolerance float64) (report string, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("dataset lfw_pairs recipe: %w", err)
		}
	}()
	// 1. The three lists.
	lists := make([][]lfwPairSpec, len(lfwPairLists))
	wanted := map[string]bool{} // persons some list names
	for i, l := range lfwPairLists {
		rc, err := openList(l.list)
		if err != nil {
			return "", fmt.Errorf("%s: %w", l.list, err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return "", fmt.Errorf("%s: %w", l.list, err)
		}
		if lists[i], err = parseLFWPairList(l.list, data); err != nil {
			return "", err
		}
		for _, p := range lists[i] {
			wanted[p.sides[0].person], wanted[p.sides[1].person] = true, true
		}
	}

	// 2. Stream the archive: note every entry of every person folder (the listing that
	// scikit-learn sorts and indexes) and decode every JPEG of a wanted person on all cores; which
	// of them the lists use is only known once the whole folder has been seen.
	listing, decoded, err := lfwScanArchive(ctx, funneled, wanted)
	if err != nil {
		return "", err
	}

	// 3. Resolve the lists' references to files, number the used files, write the TSVs.
	t, err := lfwPairTables(lists, listing)
	if err != nil {
		return "", err
	}
	resolved, faces, id := t.resolved, t.faces, t.id
	for f := range decoded {
		if _, ok := id[f]; !ok {
			delete(decoded, f) // not used by any list: let it go
		}
	}
	for _, f := range faces {
		d, ok := decoded[f]
		if !ok {
			return "", fmt.Errorf("lfw_funneled/%s/%s is not a regular file", f.person, f.file)
		}
		if d.err != nil {
			return "", fmt.Errorf("lfw_funneled/%s/%s: %w", f.person, f.file, d.err)
		}
	}

	// 4. Everything in memory: the TSVs, the index, the strips.
	files := map[string][]byte{}
	var order []string
	put := func(name string, b []byte) { files[name] = b; order = append(order, name) }
	for _, l := range lfwPairLists {
		put("pairs_"+l.subset+".tsv", t.tsv[l.subset])
	}
	var ix bytes.Buffer
	ix.WriteString("face_id\tperson\timage_number\tfile\tsource_jpeg_sha256\n")
	for i, f := range faces {
		n, _ := slices.BinarySearch(listing[f.person], f.file)
		fmt.Fprintf(&ix, "%d\t%s\t%d\tlfw_funneled/%s/%s\t%s\n", i, f.person, n+1, f.person, f.file, decoded[f].sha256)
	}
	put("faces_index.tsv.gz", ix.Bytes())
	nStrips := (len(faces) + lfwFacesPerStrip - 1) / lfwFacesPerStrip
	strips := make([]*image.RGBA, nStrips)
	faceBytes := lfwFaceH * lfwFaceW * 3
	for s := range strips {
		n := min(lfwFacesPerStrip, len(faces)-s*lfwFacesPerStrip)
		img := image.NewRGBA(image.Rect(0, 0, lfwFaceW, n*lfwFaceH))
		for k := 0; k < n; k++ {
			rgb := decoded[faces[s*lfwFacesPerStrip+k]].rgb
			for p := 0; p < faceBytes/3; p++ {
				o := (k*lfwFaceH*lfwFaceW + p) * 4
				img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = rgb[3*p], rgb[3*p+1], rgb[3*p+2], 0xff
			}
		}
		strips[s] = img
	}

	// 5. Check against scikit-learn's gray sums, computed the loader's way.
	faceSum := make([]float64, len(faces))
	for i := range faces {
		tile, err := format.StripTile(strips[i/lfwFacesPerStrip], lfwFaceH, i%lfwFacesPerStrip)
		if err != nil {
			return "", err
		}
		gray, err := format.GrayFloat32Mean(tile)
		if err != nil {
			return "", err
		}
		for _, v := range gray {
			faceSum[i] += float64(v)
		}
	}
	sums := make([]float64, len(lfwPairLists))
	var bad []string
	worst := 0.0
	for li, l := range lfwPairLists {
		for _, p := range resolved[li] {
			sums[li] += faceSum[id[p[0]]] + faceSum[id[p[1]]]
		}
		ref, ok := reference[l.subset]
		if !ok {
			return "", fmt.Errorf("no reference gray sum for subset %s", l.subset)
		}
		rel := math.Abs(sums[li]-ref) / ref
		worst = max(worst, rel)
		if !(rel <= tolerance) {
			bad = append(bad, fmt.Sprintf("%s %.6f, scikit-learn %.6f (relative difference %.2g)", l.subset, sums[li], ref, rel))
		}
	}
	if len(bad) > 0 {
		return "", fmt.Errorf("gray sums differ from scikit-learn 1.2.1's by more than %.0e relative: %s", tolerance, strings.Join(bad, "; "))
	}
	for s, img := range strips {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			return "", err
		}
		put(lfwStripName(s), b.Bytes())
	}

	// 6. Hand the files over.
	for _, name := range order {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		data := files[name]
		if err := create(name, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
	}
	viaLibjpeg, identical := 0, 0
	for _, f := range faces {
		if decoded[f].libjpeg {
			viaLibjpeg++
		}
	}
	for s, img := range strips {
		h := sha256.New()
		for p := 0; p < len(img.Pix); p += 4 {
			h.Write(img.Pix[p : p+3])
		}
		if s < len(lfwStripSHA256) && hex.EncodeToString(h.Sum(nil)) == lfwStripSHA256[s] {
			identical++
		}
	}
	pixels := fmt.Sprintf("%d of %d strips bit-identical to the mirror's (%d of %d faces decoded with libjpeg's IDCT, the rest with Go's image/jpeg)",
		identical, len(lfwStripSHA256), viaLibjpeg, len(faces))
	if identical == len(lfwStripSHA256) && nStrips == len(lfwStripSHA256) {
		pixels = "all strips bit-identical to the mirror's, so the arrays are scikit-learn 1.2.1's bit for bit"
	}
	return fmt.Sprintf("lfw_pairs rebuilt from lfw-funneled.tgz: %d faces in %d strips; pairs train %d, test %d, 10_folds %d; "+
		"gray sums within %.1e relative of scikit-learn 1.2.1's (tolerance %.0e): train %.6f, test %.6f, 10_folds %.6f; %s",
		len(faces), nStrips, len(resolved[0]), len(resolved[1]), len(resolved[2]), worst, tolerance, sums[0], sums[1], sums[2], pixels), nil
}

// lfwScanArchive reads lfw-funneled.tgz once. It returns, for every person folder
// lfw_funneled/<person>/, the sorted names of its direct entries (what Python's
// sorted(os.listdir(folder)) gives on the extracted archive), and, for every regular file
// lfw_funneled/<person>/<file> of a wanted person, its face made by lfwFaceFromJPEG (or the
// error doing so) and its sha256. JPEGs are decoded on runtime.GOMAXPROCS(0) goroutines while
// the archive is read.
func lfwScanArchive(ctx context.Context, funneled io.Reader, wanted map[string]bool) (map[string][]string, map[lfwFace]lfwDecoded, error) {
	zr, err := gzip.NewReader(bufio.NewReaderSize(funneled, 1<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("lfw-funneled.tgz: %w", err)
	}
	// One gzip member; bytes after it (some tools pad archives) are ignored, as gzip -d does.
	zr.Multistream(false)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct {
		face lfwFace
		data []byte
	}
	var (
		jobs    = make(chan job, 2*runtime.GOMAXPROCS(0))
		mu      sync.Mutex
		decoded = map[lfwFace]lfwDecoded{}
		wg      sync.WaitGroup
	)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				rgb, libjpeg, err := lfwFaceFromJPEG(j.data)
				sum := sha256.Sum256(j.data)
				mu.Lock()
				decoded[j.face] = lfwDecoded{rgb: rgb, sha256: hex.EncodeToString(sum[:]), libjpeg: libjpeg, err: err}
				mu.Unlock()
			}
		}()
	}
	stop := func() { close(jobs); wg.Wait() }
	entries := map[string]map[string]bool{}
	tr := tar.NewReader(zr)
	for {
		if err := ctx.Err(); err != nil {
			stop()
			return nil, nil, err
		}
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			stop()
			return nil, nil, fmt.Errorf("lfw-funneled.tgz: %w", err)
		}
		name := strings.TrimPrefix(path.Clean("/"+h.Name), "/")
		parts := strings.Split(name, "/")
		if len(parts) < 2 || parts[0] != "lfw_funneled" {
			continue
		}
		person := parts[1]
		if entries[person] == nil {
			entries[person] = map[string]bool{}
		}
		if len(parts) < 3 {
			continue
		}
		entries[person][parts[2]] = true
		if len(parts) != 3 || !wanted[person] || !h.FileInfo().Mode().IsRegular() {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			stop()
			return nil, nil, fmt.Errorf("lfw-funneled.tgz: %s: %w", h.Name, err)
		}
		jobs <- job{lfwFace{person, parts[2]}, data}
	}
	stop()
	// Read the gzip member to its end so that its checksum and length are verified.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return nil, nil, fmt.Errorf("lfw-funneled.tgz: %w", err)
	}
	listing := make(map[string][]string, len(entries))
	for person, names := range entries {
		l := make([]string, 0, len(names))
		for n := range names {
			l = append(l, n)
		}
		slices.Sort(l)
		listing[person] = l
	}
	return listing, decoded, nil
}

// lfwTables is the result of lfwPairTables.
type lfwTables struct {
	resolved [][][2]lfwFace    // per list, per pair, the two files
	faces    []lfwFace         // the used files in face id order
	id       map[lfwFace]int   // face id of each used file
	tsv      map[string][]byte // pairs_<subset>.tsv content by subset
}

// lfwPairTables resolves the parsed lists (in lfwPairLists' order) against the person folders'
// sorted listings as scikit-learn does (the image number n of a person is entry n-1 of
// sorted(os.listdir(lfw_funneled/<person>)), Python indexing), numbers every used file in
// byte-wise (person, file name) order and writes the three pairs_<subset>.tsv files: header
// "face_id_1	face_id_2	target", one line per pair in list order, target 1 for a same-person
// line.
func lfwPairTables(lists [][]lfwPairSpec, listing map[string][]string) (*lfwTables, error) {
	resolve := func(r lfwImageRef) (lfwFace, error) {
		names, ok := listing[r.person]
		if !ok {
			return lfwFace{}, fmt.Errorf("lfw-funneled.tgz has no folder lfw_funneled/%s/", r.person)
		}
		i := r.index
		if i < 0 {
			i += len(names)
		}
		if i < 0 || i >= len(names) {
			return lfwFace{}, fmt.Errorf("lfw_funneled/%s/ has %d entries, no image number %d", r.person, len(names), r.index+1)
		}
		return lfwFace{r.person, names[i]}, nil
	}
	t := &lfwTables{resolved: make([][][2]lfwFace, len(lists)), id: map[lfwFace]int{}, tsv: map[string][]byte{}}
	for li, pairs := range lists {
		t.resolved[li] = make([][2]lfwFace, len(pairs))
		for pi, p := range pairs {
			for s, ref := range p.sides {
				f, err := resolve(ref)
				if err != nil {
					return nil, fmt.Errorf("%s pair %d: %w", lfwPairLists[li].list, pi+1, err)
				}
				t.resolved[li][pi][s] = f
				t.id[f] = -1
			}
		}
	}
	for f := range t.id {
		t.faces = append(t.faces, f)
	}
	slices.SortFunc(t.faces, func(a, b lfwFace) int {
		if c := strings.Compare(a.person, b.person); c != 0 {
			return c
		}
		return strings.Compare(a.file, b.file)
	})
	for i, f := range t.faces {
		t.id[f] = i
	}
	for li, l := range lfwPairLists[:len(lists)] {
		var b bytes.Buffer
		b.WriteString("face_id_1\tface_id_2\ttarget\n")
		for pi, p := range t.resolved[li] {
			target := 0
			if lists[li][pi].same {
				target = 1
			}
			fmt.Fprintf(&b, "%d\t%d\t%d\n", t.id[p[0]], t.id[p[1]], target)
		}
		t.tsv[l.subset] = b.Bytes()
	}
	return t, nil
}
