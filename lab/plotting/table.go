package plotting

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fastkernels/kernellab/lab/safefile"
)

// WriteTable writes a table twice, each file atomically: base+".md", a Markdown pipe table
// preceded by the line "Table: caption" (the caption syntax of pandoc), with columns padded to a
// common width and numeric columns right-aligned; and base+".csv", the header and rows as CSV for
// further processing. Every row must have as many cells as the header. In the Markdown file, "|"
// is escaped and line breaks inside a cell become spaces; the CSV file keeps cells as they are.
func WriteTable(base, caption string, header []string, rows [][]string) error {
	if base == "" {
		return errors.New("plotting: WriteTable with an empty file name")
	}
	if len(header) == 0 {
		return errors.New("plotting: WriteTable with an empty header")
	}
	for r, row := range rows {
		if len(row) != len(header) {
			return fmt.Errorf("plotting: table row %d has %d cells, the header has %d", r, len(row), len(header))
		}
	}
	var csvBuf bytes.Buffer
	w := csv.NewWriter(&csvBuf)
	if err := w.Write(header); err != nil {
		return fmt.Errorf("plotting: table CSV: %w", err)
	}
	if err := w.WriteAll(rows); err != nil {
		return fmt.Errorf("plotting: table CSV: %w", err)
	}
	if err := safefile.WriteBytes(base+".md", markdownTable(caption, header, rows)); err != nil {
		return err
	}
	return safefile.WriteBytes(base+".csv", csvBuf.Bytes())
}

// markdownTable formats the table as a Markdown pipe table under its caption.
func markdownTable(caption string, header []string, rows [][]string) []byte {
	cell := func(s string) string {
		s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "|", `\|`).Replace(s)
		return strings.TrimSpace(s)
	}
	head := make([]string, len(header))
	body := make([][]string, len(rows))
	width := make([]int, len(header))
	numeric := make([]bool, len(header))
	for c, h := range header {
		head[c] = cell(h)
		width[c] = max(3, utf8.RuneCountInString(head[c]))
		numeric[c] = len(rows) > 0
	}
	for r, row := range rows {
		body[r] = make([]string, len(row))
		for c, s := range row {
			body[r][c] = cell(s)
			width[c] = max(width[c], utf8.RuneCountInString(body[r][c]))
			if _, err := strconv.ParseFloat(body[r][c], 64); err != nil && body[r][c] != "" {
				numeric[c] = false
			}
		}
	}
	pad := func(s string, c int) string {
		gap := strings.Repeat(" ", width[c]-utf8.RuneCountInString(s))
		if numeric[c] {
			return gap + s
		}
		return s + gap
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for c, s := range cells {
			b.WriteString(" " + pad(s, c) + " |")
		}
		b.WriteString("\n")
	}
	if caption = cell(caption); caption != "" {
		b.WriteString("Table: " + caption + "\n\n")
	}
	line(head)
	b.WriteString("|")
	for c := range header {
		if numeric[c] {
			b.WriteString(" " + strings.Repeat("-", width[c]-1) + ": |")
		} else {
			b.WriteString(" " + strings.Repeat("-", width[c]) + " |")
		}
	}
	b.WriteString("\n")
	for _, row := range body {
		line(row)
	}
	return []byte(b.String())
}
