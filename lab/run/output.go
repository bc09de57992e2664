package run

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fastkernels/kernellab/lab/safefile"
)

// Output is where Render writes: files named after the experiment ID in one folder, so every
// figure and table is traceable to its catalogue entry.
type Output struct{ Dir, ID string }

// Path is <Dir>/<ID>.<ext>, for renderers that must hand a file name to a library.
func (o *Output) Path(ext string) string { return filepath.Join(o.Dir, o.ID+"."+ext) }

// Write creates <Dir>/<ID>.<ext> atomically with what fill writes (no half-written figure after a
// crash). ext must be a plain extension such as "png" or "md".
func (o *Output) Write(ext string, fill func(io.Writer) error) error {
	if ext == "" || strings.ContainsAny(ext, `/\`) || strings.HasPrefix(ext, ".") {
		return fmt.Errorf("run: output %s: bad extension %q (want e.g. png, svg, md, csv)", o.ID, ext)
	}
	if fill == nil {
		return fmt.Errorf("run: output %s.%s: nil fill function", o.ID, ext)
	}
	return safefile.Write(o.Path(ext), fill)
}

// Render writes the experiment's files for the given results into figDir.
func Render(e *Experiment, res *Results, figDir string) error {
	if err := e.validate(); err != nil {
		return err
	}
	if res == nil {
		return fmt.Errorf("run: render %s: no results", e.ID)
	}
	if figDir == "" {
		return errors.New("run: render " + e.ID + ": figure directory not set")
	}
	if err := e.Render(res, &Output{Dir: figDir, ID: e.ID}); err != nil {
		return fmt.Errorf("run: render %s: %w", e.ID, err)
	}
	return nil
}
