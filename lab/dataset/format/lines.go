package format

import (
	"bufio"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// lineReader yields the lines of a text file without their "\n" or "\r\n" ending and counts
// them, so that every text parser reports the same 1-based line numbers.
type lineReader struct {
	r    *bufio.Reader
	name string
	line int // number of the line last returned
}

func newLineReader(r io.Reader, name string) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 1<<16), name: name}
}

// next returns the next line; ok is false at the end of the input. A final line without a
// newline is returned like any other.
func (l *lineReader) next() (line string, ok bool, err error) {
	s, err := l.r.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", false, &ParseError{File: l.name, Line: l.line + 1, Offset: -1, Msg: "read failed", Err: err}
	}
	if s == "" && err != nil {
		return "", false, nil
	}
	l.line++
	s = strings.TrimSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\r")
	return s, true, nil
}

// parseFinite parses a float64 and rejects NaN and ±Inf, so that no parser ever lets a
// non-finite value through silently.
func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, errors.New("out of the float64 range")
	}
	if err != nil {
		return 0, errors.New("not a number")
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("not a finite number")
	}
	return v, nil
}
