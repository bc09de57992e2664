// Package mirrortest finds the offline data mirror for the tests of lab/dataset and its
// sub-packages, which compare loaders and recipes with the mirror's files.
package mirrortest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the data mirror: LAB_DATA_MIRROR, else the shared/datasets folder beside the
// repository's clone (where CI and the developers' machines have it). It skips the test when
// there is none.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("LAB_DATA_MIRROR")
	if dir == "" {
		_, here, _, _ := runtime.Caller(0) // <clone>/lab/dataset/internal/mirrortest/mirrortest.go
		dir = filepath.Join(filepath.Dir(here), "..", "..", "..", "..", "..", "shared", "datasets")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("no data mirror at %s (set LAB_DATA_MIRROR)", dir)
	}
	return dir
}
