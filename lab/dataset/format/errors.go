package format

import (
	"fmt"
	"reflect"
	"strconv"
)

// ParseError reports malformed input: the file, the place in it, and what is wrong.
// Callers can recover the position with errors.As to point users at the bad line or byte.
type ParseError struct {
	File   string // the name given to the parser (for ReadTU, the member file, e.g. "MUTAG_A.txt")
	Line   int    // 1-based line for text formats; 0 when the position is a byte offset
	Offset int64  // byte offset for binary formats; -1 when the position is a line or unknown
	Msg    string // what is wrong
	Err    error  // an underlying error (from the reader or a decoder), or nil
}

// Error formats the error as "file:line: msg", "file: offset N: msg" or "file: msg".
func (e *ParseError) Error() string {
	s := e.File
	switch {
	case e.Line > 0:
		s += ":" + strconv.Itoa(e.Line) + ": "
	case e.Offset >= 0:
		s += ": offset " + strconv.FormatInt(e.Offset, 10) + ": "
	default:
		s += ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error, so errors.Is sees through a ParseError.
func (e *ParseError) Unwrap() error { return e.Err }

// lineError builds a ParseError for line-based text formats.
func lineError(file string, line int, format string, args ...any) *ParseError {
	return &ParseError{File: file, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// offsetError builds a ParseError for binary formats.
func offsetError(file string, offset int64, format string, args ...any) *ParseError {
	return &ParseError{File: file, Offset: offset, Msg: fmt.Sprintf(format, args...)}
}

// fileError builds a ParseError that concerns the whole file rather than one place in it.
func fileError(file string, format string, args ...any) *ParseError {
	return &ParseError{File: file, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// missing returns a ParseError when v, a reader or an image given to a function of this package,
// is nil or a typed nil pointer (reading it would panic), and nil otherwise.
func missing(file, what string, v any) error {
	if v == nil {
		return fileError(file, "%s is nil", what)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return fileError(file, "%s is a nil %T", what, v)
	}
	return nil
}

// clip shortens text quoted in error messages so that one bad line cannot flood a log.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
