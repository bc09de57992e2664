package dataset

import (
	"context"
	"fmt"
)

// Shape is a data set's size as loaded: N rows (images, graphs, documents) and D features
// after dropping the target (0 where features do not apply: graph sets and text corpora).
type Shape struct {
	N, D    int
	Variant string
	Notes   []string
}

// Shape returns the size of data set name as its loader gives it, for tables of data sets.
// Tabular sets are loaded; mnist and lfw_pairs are sized from their label files and pair lists,
// faces_lfw from its manifest, so no image is decoded (faces_olivetti's 400 are); graph sets
// are parsed and corpora read.
func (s Source) Shape(ctx context.Context, name string, opts ...LoadOption) (Shape, error) {
	spec, err := Lookup(name)
	if err != nil {
		return Shape{}, err
	}
	var cfg loadConfig
	for _, o := range opts {
		o(&cfg)
	}
	switch spec.Task {
	case "graphs":
		g, err := s.Graphs(ctx, name)
		if err != nil {
			return Shape{}, err
		}
		nodes, edges := 0, 0
		for _, gr := range g.Graphs {
			nodes += len(gr.NodeLabels)
			edges += len(gr.Edges)
		}
		return Shape{N: len(g.Graphs), Notes: []string{fmt.Sprintf("graphs with %d labelled nodes and %d undirected edges in all", nodes, edges)}}, nil
	case "corpus":
		c, err := s.Corpus(ctx, name, 0)
		if err != nil {
			return Shape{}, err
		}
		return Shape{N: len(c.Docs), Notes: []string{"documents (raw text)"}}, nil
	case "images":
		if name == "faces_lfw" {
			paths, _, err := s.readLFWManifest(ctx, spec)
			if err != nil {
				return Shape{}, err
			}
			return Shape{N: len(paths), D: lfwSide * lfwSide, Notes: []string{"gray 250x250 images, counted from the manifest"}}, nil
		}
		f, err := s.Faces(ctx, name, 1)
		if err != nil {
			return Shape{}, err
		}
		return Shape{N: f.Pixels.RawMatrix().Rows, D: f.Height * f.Width, Notes: []string{fmt.Sprintf("gray %dx%d images", f.Width, f.Height)}}, nil
	}
	switch name {
	case "mnist":
		return s.mnistShape(ctx, spec, cfg.variant)
	case "lfw_pairs":
		variant := cfg.variant
		if variant == "" {
			variant = "train"
		}
		if !contains(tableLoaders[name].variants, variant) {
			return Shape{}, fmt.Errorf("dataset lfw_pairs: unknown variant %q (variants: train, test, 10_folds)", variant)
		}
		pairs, _, err := s.readLFWPairList(ctx, spec, variant)
		if err != nil {
			return Shape{}, err
		}
		return Shape{N: len(pairs), D: 2 * lfwFaceH * lfwFaceW, Variant: variant, Notes: []string{"pairs of two 62x47 gray faces"}}, nil
	}
	t, err := s.Table(ctx, name, opts...)
	if err != nil {
		return Shape{}, err
	}
	return Shape{N: t.Len(), D: t.NumFeatures(), Variant: t.Variant, Notes: t.Notes}, nil
}

// mnistShape sizes MNIST from its label files and image headers.
func (s Source) mnistShape(ctx context.Context, spec Spec, variant string) (Shape, error) {
	if variant == "" {
		variant = "train+test"
	}
	if !contains(tableLoaders[spec.Name].variants, variant) {
		return Shape{}, fmt.Errorf("dataset mnist: unknown variant %q (variants: train+test, train, test)", variant)
	}
	n := 0
	for _, p := range []string{"train", "t10k"} {
		if variant == "train" && p == "t10k" || variant == "test" && p == "train" {
			continue
		}
		labels, err := s.readIDX(ctx, spec, p+"-labels-idx1-ubyte.gz", -1)
		if err != nil {
			return Shape{}, err
		}
		n += labels.Dims[0]
	}
	return Shape{N: n, D: 28 * 28, Variant: variant, Notes: []string{"28x28 gray images"}}, nil
}
