package upstreamtest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset/internal/mirrortest"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/dataset/upstreamtest"
)

// TestRecipesRebuildTheMirrorsFiles fetches, without a mirror, every data set made by a recipe
// (but lfw_pairs, whose source JPEGs the mirror lacks) from the double, which serves their
// upstream archives in the upstreams' layouts re-packed from the mirror's files, and checks that
// the recipes rebuild the mirror's files: Fetch verifies each against the manifest's sha256 (IMDB's
// archive against its reviews' digest), and the cache must then hold exactly those files. It reads
// about 150 MB, so it runs in the full-size step, not under -short.
func TestRecipesRebuildTheMirrorsFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("reads about 150 MB of the mirror; runs without -short")
	}
	mirror := mirrortest.Dir(t)
	srv, err := upstreamtest.NewServer(mirror)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, set := range []string{"corpus_20newsgroups", "corpus_imdb_reviews", "faces_olivetti", "faces_lfw"} {
		t.Run(set, func(t *testing.T) {
			cache := t.TempDir()
			s := dataset.Source{Cache: cache, Upstream: srv.URL, Client: srv.Client()}
			if err := s.Fetch(context.Background(), set); err != nil {
				t.Fatal(err)
			}
			spec, _ := dataset.Lookup(set)
			for _, f := range spec.Files {
				_, err := os.Stat(filepath.Join(cache, set, f.Name))
				if built := err == nil; built != (f.Recipe != "") {
					t.Errorf("%s: in the cache %v, made by a recipe %v", f.Name, built, f.Recipe != "")
				}
			}
			if err := s.Verify(context.Background(), set); err != nil {
				t.Fatal(err)
			}
		})
	}
}
