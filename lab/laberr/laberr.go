// Package laberr defines, once, the error values of the lab's packages that a caller may act on:
// a model used before it was fitted, data holding a NaN or ±Inf, arguments whose dimensions do
// not match. Each numeric package re-exports the ones it returns (lowrank.ErrNotFitted is
// laberr.ErrNotFitted), so a caller tests
//
//	if errors.Is(err, lowrank.ErrNotFitted) { … }
//
// without importing this package. The sentinels never reach a caller alone: every error of the
// lab starts with its package and operation, as in "lowrank: Nystrom.Transform: the approximation
// is not fitted", and matches its sentinel through errors.Is. An *Error carries such a message
// unchanged and adds the sentinel beside it (gonum's mat.ErrShape plays the same part with
// panics).
package laberr

import (
	"errors"
	"fmt"
)

var (
	// ErrNotFitted: a method was called on a model that its Fit or New function did not make (a
	// zero value or a nil pointer).
	ErrNotFitted = errors.New("model not fitted")
	// ErrNonFinite: the input data hold a NaN or ±Inf, or finite data overflowed in the
	// computation; clean or rescale them.
	ErrNonFinite = errors.New("NaN or ±Inf value")
	// ErrShape: the dimensions of two arguments, or of an argument and a fitted model or a
	// destination, do not match.
	ErrShape = errors.New("dimension mismatch")
	// ErrNilRand: a nil *rand.Rand where a function draws at random. Its text is written after
	// the package and operation ("leverage: DAC: nil *rand.Rand (…)").
	ErrNilRand = errors.New("nil *rand.Rand (pass an explicit generator, e.g. rand.New(rand.NewPCG(seed, stream)))")
)

// Error is an error of a known kind: its text is the lab's message, and errors.Is matches it to
// Kind (one of the sentinels above) as well as to whatever the message wraps.
type Error struct {
	// Kind is the sentinel the error matches.
	Kind error
	err  error // the message, and its cause when it wraps one
}

// Errorf returns an *Error of the given kind whose text is fmt.Errorf(format, args...): the text
// a caller sees is the one format gives, and a %w verb still wraps its operand.
func Errorf(kind error, format string, args ...any) error {
	return &Error{Kind: kind, err: fmt.Errorf(format, args...)}
}

// Error returns the message.
func (e *Error) Error() string { return e.err.Error() }

// Unwrap returns the kind and the message's own error, so that errors.Is and errors.As look
// through both.
func (e *Error) Unwrap() []error { return []error{e.Kind, e.err} }
