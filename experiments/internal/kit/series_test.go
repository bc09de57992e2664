package kit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
)

func TestWriteCaption(t *testing.T) {
	out := &run.Output{Dir: t.TempDir(), ID: "fig9"}
	res := &run.Results{ID: "fig9", Scale: run.Quick}
	if err := WriteCaption(out, res, " DAC is twice as slow. ", "5 draws.\n"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out.Dir, "fig9.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "**fig9** (quick scale). DAC is twice as slow.\n\n5 draws.\n"; string(got) != want {
		t.Errorf("caption %q, want %q", got, want)
	}
	for _, c := range [][2]string{{"", "5 draws."}, {"Result.", " "}} {
		if err := WriteCaption(out, res, c[0], c[1]); err == nil {
			t.Errorf("WriteCaption(%q, %q): no error for a caption without a result or a set-up", c[0], c[1])
		}
	}
}
