package format

import (
	"io"
	"strings"
)

// DelimitedOptions says how [ReadDelimited] splits lines into fields.
type DelimitedOptions struct {
	Sep       rune   // field separator; 0 = any run of spaces/tabs (leading and trailing runs ignored)
	TrimSpace bool   // trim spaces and tabs around fields (for ", " separators)
	Comment   string // lines starting with it are skipped ("" = none)
	SkipBlank bool   // skip lines that are empty or only spaces/tabs; otherwise they are an error
	// TrimLastDot removes one trailing '.' from the last field of every row, for files such as
	// UCI adult.test whose labels read "<=50K." where the training file has "<=50K".
	TrimLastDot bool
}

// ReadDelimited reads text that gota cannot: whitespace-separated columns (boston
// housing.data, steel plates Faults.NNA) and comma files with ", " separators (adult). Fields
// are not unquoted. Every row must have as many fields as the first; "\r\n" endings are
// accepted. An input without rows is an error.
func ReadDelimited(r io.Reader, name string, opt DelimitedOptions) ([][]string, error) {
	if err := missing(name, "the reader", r); err != nil {
		return nil, err
	}
	lr := newLineReader(r, name)
	var (
		rows      [][]string
		firstLine int
	)
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if opt.Comment != "" && strings.HasPrefix(line, opt.Comment) {
			continue
		}
		if strings.Trim(line, " \t") == "" {
			if opt.SkipBlank {
				continue
			}
			return nil, lineError(name, lr.line, "blank line (set SkipBlank to skip blank lines)")
		}
		var fields []string
		if opt.Sep == 0 {
			fields = strings.FieldsFunc(line, func(c rune) bool { return c == ' ' || c == '\t' })
		} else {
			fields = strings.Split(line, string(opt.Sep))
		}
		if opt.TrimSpace {
			for i, f := range fields {
				fields[i] = strings.Trim(f, " \t")
			}
		}
		if opt.TrimLastDot {
			fields[len(fields)-1] = strings.TrimSuffix(fields[len(fields)-1], ".")
		}
		if len(rows) == 0 {
			firstLine = lr.line
		} else if len(fields) != len(rows[0]) {
			return nil, lineError(name, lr.line, "%d fields, want %d as on line %d", len(fields), len(rows[0]), firstLine)
		}
		rows = append(rows, fields)
	}
	if len(rows) == 0 {
		return nil, fileError(name, "no data rows")
	}
	return rows, nil
}
