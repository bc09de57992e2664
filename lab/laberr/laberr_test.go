package laberr_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/fastkernels/kernellab/lab/laberr"
)

func TestErrorf(t *testing.T) {
	err := laberr.Errorf(laberr.ErrShape, "pkg: Op: X has %d columns but Z has %d", 3, 4)
	if err.Error() != "pkg: Op: X has 3 columns but Z has 4" {
		t.Errorf("text %q", err)
	}
	if !errors.Is(err, laberr.ErrShape) || errors.Is(err, laberr.ErrNonFinite) {
		t.Errorf("errors.Is: ErrShape %v, ErrNonFinite %v", errors.Is(err, laberr.ErrShape), errors.Is(err, laberr.ErrNonFinite))
	}
	// A wrapped cause stays reachable, and wrapping the *Error keeps its kind.
	cause := laberr.Errorf(laberr.ErrNotFitted, "pkg: Op: %w", io.ErrUnexpectedEOF)
	outer := fmt.Errorf("other: Op: %w", cause)
	if !errors.Is(outer, laberr.ErrNotFitted) || !errors.Is(outer, io.ErrUnexpectedEOF) {
		t.Errorf("%v does not match both its kind and its cause", outer)
	}
	if outer.Error() != "other: Op: pkg: Op: unexpected EOF" {
		t.Errorf("text %q", outer)
	}
	var e *laberr.Error
	if !errors.As(outer, &e) || e.Kind != laberr.ErrNotFitted {
		t.Errorf("errors.As: %v", e)
	}
}
