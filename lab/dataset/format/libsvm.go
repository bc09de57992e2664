package format

import (
	"io"
	"strconv"
	"strings"
)

// maxLIBSVMCells caps the dense n×d matrix that ReadLIBSVM builds (2^27 float64 = 1 GiB), so
// that one huge feature index in a corrupt file cannot allocate without bound.
const maxLIBSVMCells = 1 << 27

// ReadLIBSVM parses LIBSVM / svmlight text, "label idx:val idx:val ..." with 1-based, strictly
// increasing indices, '#' comments and blank lines, into a dense matrix X (n rows of d columns;
// omitted entries are 0) and the labels y. d is the largest index seen, or minDim if that is
// larger (use it to give a test file the training file's width). Labels and values must be
// finite numbers; multi-label lines and qid: tokens are not supported.
func ReadLIBSVM(r io.Reader, name string, minDim int) (X [][]float64, y []float64, err error) {
	if err := missing(name, "the reader", r); err != nil {
		return nil, nil, err
	}
	return readLIBSVM(r, name, minDim, maxLIBSVMCells)
}

// readLIBSVM is ReadLIBSVM with the cap on n×d as a parameter, so that fuzzing can use a
// small one.
func readLIBSVM(r io.Reader, name string, minDim, maxCells int) (X [][]float64, y []float64, err error) {
	if minDim < 0 {
		return nil, nil, fileError(name, "minDim %d is negative", minDim)
	}
	type entry struct {
		col int // 0-based
		val float64
	}
	var (
		rows   [][]entry
		maxIdx int
		lr     = newLineReader(r, name)
	)
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		tokens := strings.Fields(line)
		if len(tokens) == 0 {
			continue
		}
		label, err := parseFinite(tokens[0])
		if err != nil {
			return nil, nil, lineError(name, lr.line, "label %q is %v", clip(tokens[0]), err)
		}
		row := make([]entry, 0, len(tokens)-1)
		prev := 0
		for _, tok := range tokens[1:] {
			idxText, valText, found := strings.Cut(tok, ":")
			if !found {
				return nil, nil, lineError(name, lr.line, "%q is not index:value", clip(tok))
			}
			idx, err := strconv.Atoi(idxText)
			if err != nil {
				return nil, nil, lineError(name, lr.line, "index %q is not an integer", clip(idxText))
			}
			if idx < 1 || idx > maxCells {
				return nil, nil, lineError(name, lr.line, "index %d is outside 1..%d", idx, maxCells)
			}
			if idx <= prev {
				return nil, nil, lineError(name, lr.line, "index %d does not increase (previous %d)", idx, prev)
			}
			prev = idx
			val, err := parseFinite(valText)
			if err != nil {
				return nil, nil, lineError(name, lr.line, "value %q of index %d is %v", clip(valText), idx, err)
			}
			row = append(row, entry{idx - 1, val})
		}
		maxIdx = max(maxIdx, prev)
		rows = append(rows, row)
		y = append(y, label)
	}
	if len(rows) == 0 {
		return nil, nil, fileError(name, "no data rows")
	}
	d := max(maxIdx, minDim)
	if d > 0 && len(rows) > maxCells/d {
		return nil, nil, fileError(name, "%d rows × %d columns exceed the cap of %d dense cells", len(rows), d, maxCells)
	}
	cells := make([]float64, len(rows)*d)
	X = make([][]float64, len(rows))
	for i, row := range rows {
		X[i] = cells[i*d : (i+1)*d : (i+1)*d]
		for _, e := range row {
			X[i][e.col] = e.val
		}
	}
	return X, y, nil
}
