package dataset

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image/jpeg"
	"io"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// Faces is a face-image set: one row of Pixels per image, gray values in [0,1], row-major
// Height×Width, and the person each image shows.
type Faces struct {
	Name          string
	Height, Width int
	Pixels        *mat.Dense
	Person        []string
}

// Faces loads faces_lfw (9,164 gray 250×250 JPEGs of 1,680 people, in the manifest's order:
// people sorted by name) or faces_olivetti (400 PGM 92×112 images, subjects s1..s40 with 10
// images each, in subject then image number order). downscale k ≥ 1 averages k×k pixel blocks,
// giving ⌊H/k⌋×⌊W/k⌋ images (trailing rows and columns dropped). Memory: n×⌊H/k⌋×⌊W/k⌋
// float64, which for faces_lfw is 4.6 GB at k = 1 and 180 MB at k = 5. JPEGs are decoded on all
// cores.
func (s Source) Faces(ctx context.Context, name string, downscale int) (*Faces, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if downscale < 1 {
		return nil, fmt.Errorf("dataset %s: downscale %d, want >= 1", name, downscale)
	}
	switch name {
	case "faces_lfw":
		return s.lfwFaces(ctx, spec, downscale)
	case "faces_olivetti":
		return s.olivettiFaces(ctx, spec, downscale)
	}
	return nil, fmt.Errorf("dataset %s is not a face image set (face sets: faces_lfw, faces_olivetti)", name)
}

// downscaleInto averages k×k blocks of the h×w image pix into dst (⌊h/k⌋×⌊w/k⌋ values).
func downscaleInto(dst, pix []float64, h, w, k int) {
	oh, ow := h/k, w/k
	inv := 1 / float64(k*k)
	for oy := 0; oy < oh; oy++ {
		for ox := 0; ox < ow; ox++ {
			var sum float64
			for y := oy * k; y < oy*k+k; y++ {
				for _, v := range pix[y*w+ox*k : y*w+ox*k+k] {
					sum += v
				}
			}
			dst[oy*ow+ox] = sum * inv
		}
	}
}

const (
	olivettiH, olivettiW = 112, 92
	olivettiSubjects     = 40
	olivettiPerSubject   = 10
)

func (s Source) olivettiFaces(ctx context.Context, spec Spec, k int) (*Faces, error) {
	type face struct {
		subject, number int
		pix             []float64
	}
	var faces []face
	err := s.withFile(ctx, spec, "orl_faces.tar.gz", func(r io.Reader) error {
		return format.WalkTar(r, "orl_faces.tar.gz", func(p string, _ int64, body io.Reader) error {
			var subject, number int
			dir, file := path.Split(p)
			if !strings.HasSuffix(file, ".pgm") {
				return nil // README
			}
			if _, err := fmt.Sscanf(path.Base(strings.TrimSuffix(dir, "/")), "s%d", &subject); err != nil {
				return fmt.Errorf("subject folder not sN")
			}
			number, err := strconv.Atoi(strings.TrimSuffix(file, ".pgm"))
			if err != nil {
				return fmt.Errorf("image file not N.pgm")
			}
			img, err := format.ReadPGM(body, p)
			if err != nil {
				return err
			}
			if b := img.Bounds(); b.Dx() != olivettiW || b.Dy() != olivettiH {
				return fmt.Errorf("image is %dx%d, want %dx%d", b.Dx(), b.Dy(), olivettiW, olivettiH)
			}
			gray, err := format.GrayScaled(img)
			if err != nil {
				return err
			}
			faces = append(faces, face{subject, number, gray})
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(faces) != olivettiSubjects*olivettiPerSubject {
		return nil, fmt.Errorf("dataset %s: %d images, want %d", spec.Name, len(faces), olivettiSubjects*olivettiPerSubject)
	}
	sort.Slice(faces, func(i, j int) bool {
		if faces[i].subject != faces[j].subject {
			return faces[i].subject < faces[j].subject
		}
		return faces[i].number < faces[j].number
	})
	h, w := olivettiH/k, olivettiW/k
	if h == 0 || w == 0 {
		return nil, fmt.Errorf("dataset %s: downscale %d leaves no pixels of a %dx%d image", spec.Name, k, olivettiW, olivettiH)
	}
	out := &Faces{Name: spec.Name, Height: h, Width: w, Pixels: mat.NewDense(len(faces), h*w, nil), Person: make([]string, len(faces))}
	for i, f := range faces {
		downscaleInto(out.Pixels.RawRowView(i), f.pix, olivettiH, olivettiW, k)
		out.Person[i] = fmt.Sprintf("s%d", f.subject)
	}
	return out, nil
}

const lfwSide = 250

// lfwFaces reads the manifest (the image order and people), then streams the four archives and
// decodes their JPEGs on all cores into the rows the manifest gives them.
func (s Source) lfwFaces(ctx context.Context, spec Spec, k int) (*Faces, error) {
	paths, people, err := s.readLFWManifest(ctx, spec)
	if err != nil {
		return nil, err
	}
	h, w := lfwSide/k, lfwSide/k
	if h == 0 {
		return nil, fmt.Errorf("dataset %s: downscale %d leaves no pixels of a %dx%d image", spec.Name, k, lfwSide, lfwSide)
	}
	out := &Faces{Name: spec.Name, Height: h, Width: w, Pixels: mat.NewDense(len(paths), h*w, nil), Person: people}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type job struct {
		row  int
		data []byte
	}
	jobs := make(chan job, 64)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if ctx.Err() != nil {
					continue
				}
				img, err := jpeg.Decode(bytes.NewReader(j.data))
				if err == nil && (img.Bounds().Dx() != lfwSide || img.Bounds().Dy() != lfwSide) {
					err = fmt.Errorf("image is %dx%d, want %dx%d", img.Bounds().Dx(), img.Bounds().Dy(), lfwSide, lfwSide)
				}
				if err != nil {
					cancel(fmt.Errorf("dataset %s: %s: %w", spec.Name, paths[j.row], err))
					continue
				}
				gray, err := format.GrayScaled(img)
				if err != nil {
					cancel(fmt.Errorf("dataset %s: %s: %w", spec.Name, paths[j.row], err))
					continue
				}
				downscaleInto(out.Pixels.RawRowView(j.row), gray, lfwSide, lfwSide, k)
			}
		}()
	}
	row := 0
	var walkErr error
	for part := 1; part <= 4 && walkErr == nil; part++ {
		file := lfwGrayPart(part)
		walkErr = s.withFile(ctx, spec, file, func(r io.Reader) error {
			return format.WalkTar(r, file, func(p string, size int64, body io.Reader) error {
				if row >= len(paths) || p != paths[row] {
					want := "no more images"
					if row < len(paths) {
						want = paths[row]
					}
					return fmt.Errorf("archive member %d is %s, the manifest says %s", row, p, want)
				}
				data, err := io.ReadAll(body)
				if err != nil {
					return err
				}
				select {
				case jobs <- job{row, data}:
				case <-ctx.Done():
					return context.Cause(ctx)
				}
				row++
				return nil
			})
		})
	}
	close(jobs)
	wg.Wait()
	if cause := context.Cause(ctx); cause != nil {
		return nil, cause // a decoding error, or the caller's cancellation
	}
	if walkErr != nil {
		return nil, walkErr
	}
	if row != len(paths) {
		return nil, fmt.Errorf("dataset %s: the archives hold %d images, the manifest %d", spec.Name, row, len(paths))
	}
	return out, nil
}

// readLFWManifest returns the archive path and person of every image, in manifest order.
func (s Source) readLFWManifest(ctx context.Context, spec Spec) (paths, people []string, err error) {
	const file = "lfw_gray250_min2_manifest.csv.gz"
	header := "index,person_id,person,image_no,path,archive,bytes,sha256"
	err = s.withFile(ctx, spec, file, func(r io.Reader) error {
		cr := csv.NewReader(r)
		rows, err := cr.ReadAll()
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if len(rows) < 2 || strings.Join(rows[0], ",") != header {
			return fmt.Errorf("%s: want the header %s and at least one image", file, header)
		}
		for i, row := range rows[1:] {
			if row[0] != strconv.Itoa(i) {
				return fmt.Errorf("%s: row %d: index %s, want %d", file, i+1, row[0], i)
			}
			if path.Base(path.Dir(row[4])) != row[2] {
				return fmt.Errorf("%s: row %d: path %s is not in the folder of %s", file, i+1, row[4], row[2])
			}
			paths, people = append(paths, row[4]), append(people, row[2])
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return paths, people, nil
}
