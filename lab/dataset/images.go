package dataset

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// readIDX reads one IDX file of spec and checks its dimensions against want (-1 = any).
func (s Source) readIDX(ctx context.Context, spec Spec, file string, want ...int) (*format.IDX, error) {
	var idx *format.IDX
	err := s.withFile(ctx, spec, file, func(r io.Reader) error {
		var err error
		idx, err = format.ReadIDX(r, file)
		return err
	})
	if err != nil {
		return nil, err
	}
	ok := len(idx.Dims) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = want[i] < 0 || idx.Dims[i] == want[i]
	}
	if !ok {
		return nil, fmt.Errorf("dataset %s: %s has dimensions %v, want %v (-1 = any)", spec.Name, file, idx.Dims, want)
	}
	return idx, nil
}

// loadMNIST reads the IDX files: "train+test" (70,000 rows, the 60,000 training images first),
// "train" or "test". Dense holds the 784 pixels of each image divided by 255; the target is the
// digit (class code = digit). No missing values.
func loadMNIST(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	if variant == "" {
		variant = "train+test"
	}
	var prefixes []string
	if variant != "test" {
		prefixes = append(prefixes, "train")
	}
	if variant != "train" {
		prefixes = append(prefixes, "t10k")
	}
	var images, labels []*format.IDX
	n := 0
	for _, p := range prefixes {
		img, err := s.readIDX(ctx, spec, p+"-images-idx3-ubyte.gz", -1, 28, 28)
		if err != nil {
			return nil, err
		}
		lab, err := s.readIDX(ctx, spec, p+"-labels-idx1-ubyte.gz", img.Dims[0])
		if err != nil {
			return nil, err
		}
		images, labels = append(images, img), append(labels, lab)
		n += img.Dims[0]
	}
	if n == 0 {
		return nil, fmt.Errorf("dataset mnist: no images")
	}
	const d = 28 * 28
	data := make([]float64, n*d)
	values := make([]float64, 0, n)
	row := 0
	for k, img := range images {
		for i, b := range img.Data {
			data[row*d+i] = float64(b) / 255
		}
		for i, l := range labels[k].Data {
			if l > 9 {
				return nil, fmt.Errorf("dataset mnist: %s-labels-idx1-ubyte.gz: label %d of image %d is not a digit", prefixes[k], l, i)
			}
			values = append(values, float64(l))
		}
		row += img.Dims[0]
	}
	classes := make([]string, 10)
	for i := range classes {
		classes[i] = strconv.Itoa(i)
	}
	notes := []string{"pixels / 255 in [0,1], 28x28 row-major"}
	if variant == "train+test" {
		notes = append(notes, "rows 0..59,999 are the training set, rows 60,000..69,999 the test set")
	}
	return &Table{Name: spec.Name, Variant: variant, Dense: mat.NewDense(n, d, data),
		Target: Target{Name: "digit", Kind: Classification, Values: values, Classes: classes}, Notes: notes}, nil
}

const (
	lfwFaceH, lfwFaceW = 62, 47
	lfwFacesPerStrip   = 500
	lfwStrips          = 19
	lfwFaces           = 9056
)

// lfwStripName names face strip i of lfw_pairs.
func lfwStripName(i int) string { return fmt.Sprintf("faces_rgb_62x47_%02d.png", i) }

// loadLFWPairs rebuilds scikit-learn's fetch_lfw_pairs(subset=variant) gray arrays ("train",
// the default as in scikit-learn, "test" or "10_folds"): row i holds the two 62x47 faces of pair
// i, row-major (side, row, column), 5,828 values computed in float32 exactly as numpy does and
// then widened to float64; the target is 1 for the same person, 0 for different persons. No
// missing values.
func loadLFWPairs(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	if variant == "" {
		variant = "train"
	}
	pairs, targets, err := s.readLFWPairList(ctx, spec, variant)
	if err != nil {
		return nil, err
	}
	// Decode only the strips holding a face of a pair, in parallel.
	needStrip := make([]bool, lfwStrips)
	for _, p := range pairs {
		needStrip[p[0]/lfwFacesPerStrip], needStrip[p[1]/lfwFacesPerStrip] = true, true
	}
	strips := make([]image.Image, lfwStrips)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		sem      = make(chan struct{}, runtime.GOMAXPROCS(0))
	)
	for i, need := range needStrip {
		if !need {
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			file := lfwStripName(i)
			err := s.withFile(ctx, spec, file, func(r io.Reader) error {
				img, err := png.Decode(r)
				if err != nil {
					return fmt.Errorf("%s: %w", file, err)
				}
				wantH := lfwFacesPerStrip * lfwFaceH
				if i == lfwStrips-1 {
					wantH = (lfwFaces - (lfwStrips-1)*lfwFacesPerStrip) * lfwFaceH
				}
				if b := img.Bounds(); b.Dx() != lfwFaceW || b.Dy() != wantH {
					return fmt.Errorf("%s is %dx%d, want %dx%d", file, b.Dx(), b.Dy(), lfwFaceW, wantH)
				}
				strips[i] = img
				return nil
			})
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	const faceLen = lfwFaceH * lfwFaceW
	faces := map[int][]float32{}
	face := func(id int) ([]float32, error) {
		if v, ok := faces[id]; ok {
			return v, nil
		}
		tile, err := format.StripTile(strips[id/lfwFacesPerStrip], lfwFaceH, id%lfwFacesPerStrip)
		if err != nil {
			return nil, err
		}
		v, err := format.GrayFloat32Mean(tile)
		if err != nil {
			return nil, err
		}
		faces[id] = v
		return v, nil
	}
	dense := mat.NewDense(len(pairs), 2*faceLen, nil)
	for i, p := range pairs {
		row := dense.RawRowView(i)
		for side, id := range p {
			v, err := face(id)
			if err != nil {
				return nil, fmt.Errorf("dataset lfw_pairs: face %d: %w", id, err)
			}
			for k, x := range v {
				row[side*faceLen+k] = float64(x)
			}
		}
	}
	return &Table{Name: spec.Name, Variant: variant, Dense: dense,
		Target: Target{Name: "same_person", Kind: Classification, Values: targets, Classes: []string{"different", "same"}},
		Notes: []string{
			fmt.Sprintf("scikit-learn fetch_lfw_pairs(subset=%q) gray arrays, bit for bit in float32, widened to float64", variant),
			"row = pair: face 1 then face 2, each 62x47 row-major",
		}}, nil
}

// readLFWPairList reads pairs_<subset>.tsv: face ids of each pair and the target (1 = same).
func (s Source) readLFWPairList(ctx context.Context, spec Spec, subset string) ([][2]int, []float64, error) {
	file := "pairs_" + subset + ".tsv"
	rows, err := s.readDelimited(ctx, spec, file, format.DelimitedOptions{Sep: '\t', TrimSpace: true, SkipBlank: true})
	if err != nil {
		return nil, nil, err
	}
	if strings.Join(rows[0], " ") != "face_id_1 face_id_2 target" {
		return nil, nil, fmt.Errorf("dataset lfw_pairs: %s: header %q, want face_id_1, face_id_2, target", file, rows[0])
	}
	pairs := make([][2]int, 0, len(rows)-1)
	targets := make([]float64, 0, len(rows)-1)
	for i, row := range rows[1:] {
		var p [2]int
		for k := 0; k < 2; k++ {
			id, err := strconv.Atoi(row[k])
			if err != nil || id < 0 || id >= lfwFaces {
				return nil, nil, fmt.Errorf("dataset lfw_pairs: %s: data row %d: face id %q is not in 0..%d", file, i+1, row[k], lfwFaces-1)
			}
			p[k] = id
		}
		switch row[2] {
		case "0", "1":
		default:
			return nil, nil, fmt.Errorf("dataset lfw_pairs: %s: data row %d: target %q, want 0 or 1", file, i+1, row[2])
		}
		pairs = append(pairs, p)
		targets = append(targets, float64(row[2][0]-'0'))
	}
	if len(pairs) == 0 {
		return nil, nil, fmt.Errorf("dataset lfw_pairs: %s: no pairs", file)
	}
	return pairs, targets, nil
}
