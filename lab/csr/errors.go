package csr

import "github.com/fastkernels/kernellab/lab/laberr"

// The errors of the package that a caller may act on; errors.Is matches every error the package
// returns for that condition, whose message stays the package's own ("csr: Op: …"). They are
// lab/laberr's, shared by the lab's packages.
var (
	// ErrNonFinite: a NaN or ±Inf in the input, or an overflow on finite input.
	ErrNonFinite = laberr.ErrNonFinite
	// ErrShape: arguments (or an argument and a fitted model or a destination) whose
	// dimensions do not match.
	ErrShape = laberr.ErrShape
)
