package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset/upstreamtest"
)

// TestSmokeCatalogueFromUpstreamDouble is a user's first run with internet and no mirror: an
// empty cache, LAB_DATA_MIRROR unset, and every upstream address answered by a local double made
// from the mirror (lab/dataset/upstreamtest). `lab datasets fetch` must download every file and
// build every recipe's files, and the smoke catalogue must then run. The double cannot play two
// upstream files the mirror lacks (covtype's full UCI file, lfw_pairs' lfw-funneled.tgz), so the
// cache is given what the mirror holds of those two data sets, as a user's cache would hold
// their first fetch; everything else comes through the download and recipe code.
func TestSmokeCatalogueFromUpstreamDouble(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and builds every data set from a local double (about 2 minutes); runs without -short")
	}
	mirrorOrSkip(t)
	mirror := os.Getenv("LAB_DATA_MIRROR")
	srv, err := upstreamtest.NewServer(mirror)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cache := t.TempDir()
	for _, set := range []string{"covtype", "lfw_pairs"} {
		copyFolder(t, filepath.Join(mirror, set), filepath.Join(cache, set))
	}
	t.Setenv("LAB_DATA_MIRROR", "")
	t.Setenv("LAB_DATA_CACHE", cache)
	t.Setenv("LAB_DATA_UPSTREAM", srv.URL)

	if out, err := lab(t, "datasets", "fetch"); err != nil {
		t.Fatalf("lab datasets fetch: %v\n%s", err, out)
	}
	h := srv.Config.Handler.(*upstreamtest.Handler)
	for _, source := range []string{"ndownloader.figshare.com/files/5975967", "ai.stanford.edu/~amaas/data/sentiment/aclImdb_v1.tar.gz",
		"github.com/baileyfriend/Gender-Image-Classifier/archive/9aaaad06efad7888c2d12b77c343a0ef1bea17bc.tar.gz"} {
		if h.Requests[source] != 1 {
			t.Errorf("%s downloaded %d times, want once", source, h.Requests[source])
		}
	}
	out := t.TempDir()
	if log, err := lab(t, "run", "--scale", "smoke", "--results", out, "--figures", filepath.Join(out, "figures")); err != nil {
		t.Fatalf("lab run --scale smoke: %v\n%s", err, log)
	}
	claims, err := os.ReadFile(filepath.Join(out, "figures", "CLAIMS.md"))
	if err != nil || !strings.Contains(string(claims), "SUPPORTED") {
		t.Fatalf("the smoke run wrote no claims report (%v)", err)
	}
}

// copyFolder copies the regular files of src into dst.
func copyFolder(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == "SOURCE.md" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
