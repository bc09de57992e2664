package format

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ARFFAttribute is one declared column of an ARFF file.
type ARFFAttribute struct {
	Name    string
	Type    string   // "numeric" (also for real and integer), "nominal", "string" or "date"
	Nominal []string // the declared categories in declaration order, for Type "nominal"
}

// ARFF is a parsed Weka ARFF file: its relation name, its columns and its rows as text.
// Cells are kept as text so that nominal labels, dates and strings survive unchanged; numeric
// cells are checked to parse as finite numbers.
type ARFF struct {
	Relation   string
	Attributes []ARFFAttribute
	Rows       [][]string // raw cell text per row, unquoted; "?" stays "?" (missing)
}

// ReadARFF parses a Weka ARFF file. It handles % comments, case-insensitive @relation,
// @attribute and @data, quoted names ('a b' and "a b") with backslash escapes, nominal
// {a,b,'c d'}, numeric/real/integer, string and date types, missing values '?', sparse rows
// {i v, j v} (0-based indices; an omitted numeric cell is "0" and an omitted nominal cell is the
// first category, as in Weka), quoted values with commas, and \r\n line endings.
//
// It returns an error with the line number for a nominal value outside the declared set, a
// numeric cell that is not a finite number, a wrong number of values, a sparse row that omits
// a string or date cell (they have no zero value), relational attributes, and any syntax error.
func ReadARFF(r io.Reader, name string) (*ARFF, error) {
	if err := missing(name, "the reader", r); err != nil {
		return nil, err
	}
	lr := newLineReader(r, name)
	a := &ARFF{}
	var (
		haveRelation, inData bool
		categories           []map[string]bool // per attribute; nil unless nominal
		seen                 = map[string]bool{}
	)
	fail := func(format string, args ...any) (*ARFF, error) {
		return nil, lineError(name, lr.line, format, args...)
	}
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		text := strings.TrimSpace(line)
		if text == "" || text[0] == '%' {
			continue
		}
		if inData {
			row, err := parseARFFRow(text, a.Attributes, categories)
			if err != nil {
				return fail("%v", err)
			}
			a.Rows = append(a.Rows, row)
			continue
		}
		if text[0] != '@' {
			return fail("expected @relation, @attribute or @data, found %q", clip(text))
		}
		c := &arffCursor{s: text, i: 1}
		keyword, _, err := c.word()
		if err != nil {
			return fail("%v", err)
		}
		switch strings.ToLower(keyword) {
		case "relation":
			if haveRelation {
				return fail("second @relation")
			}
			if a.Relation, err = parseARFFRelation(c); err != nil {
				return fail("%v", err)
			}
			haveRelation = true
		case "attribute":
			if !haveRelation {
				return fail("@attribute before @relation")
			}
			attr, err := parseARFFAttribute(c)
			if err != nil {
				return fail("%v", err)
			}
			if seen[attr.Name] {
				return fail("attribute %q declared twice", clip(attr.Name))
			}
			seen[attr.Name] = true
			var set map[string]bool
			if attr.Type == "nominal" {
				set = make(map[string]bool, len(attr.Nominal))
				for _, v := range attr.Nominal {
					set[v] = true
				}
			}
			a.Attributes = append(a.Attributes, attr)
			categories = append(categories, set)
		case "data":
			if len(a.Attributes) == 0 {
				return fail("@data before any @attribute")
			}
			if err := c.end(); err != nil {
				return fail("after @data: %v", err)
			}
			inData = true
		default:
			return fail("unknown declaration @%s", clip(keyword))
		}
	}
	if !inData {
		return nil, fileError(name, "no @data section")
	}
	return a, nil
}

func parseARFFRelation(c *arffCursor) (string, error) {
	rel, _, err := c.word()
	if err != nil {
		return "", err
	}
	if rel == "" {
		return "", fmt.Errorf("@relation without a name")
	}
	if err := c.end(); err != nil {
		return "", fmt.Errorf("after the relation name (quote names with spaces): %v", err)
	}
	return rel, nil
}

func parseARFFAttribute(c *arffCursor) (ARFFAttribute, error) {
	var attr ARFFAttribute
	attrName, _, err := c.word()
	if err != nil {
		return attr, err
	}
	if attrName == "" {
		return attr, fmt.Errorf("@attribute without a name")
	}
	attr.Name = attrName
	c.skipSpace()
	if c.peek() == '{' {
		c.i++
		attr.Type = "nominal"
		if attr.Nominal, err = parseARFFCategories(c); err != nil {
			return attr, fmt.Errorf("attribute %q: %v", clip(attrName), err)
		}
		return attr, c.end()
	}
	typeName, _, err := c.word()
	if err != nil {
		return attr, err
	}
	switch strings.ToLower(typeName) {
	case "numeric", "real", "integer":
		attr.Type = "numeric"
	case "string":
		attr.Type = "string"
	case "date":
		attr.Type = "date"
		c.skipSpace()
		if !c.atEnd() { // the optional date format; values are kept as text
			if _, _, err := c.word(); err != nil {
				return attr, err
			}
		}
	case "relational":
		return attr, fmt.Errorf("attribute %q: relational attributes are not supported", clip(attrName))
	case "":
		return attr, fmt.Errorf("attribute %q has no type", clip(attrName))
	default:
		return attr, fmt.Errorf("attribute %q: unknown type %q", clip(attrName), clip(typeName))
	}
	if err := c.end(); err != nil {
		return attr, fmt.Errorf("attribute %q: %v", clip(attrName), err)
	}
	return attr, nil
}

// parseARFFCategories reads "a, b, 'c d'}" (the opening brace already consumed).
func parseARFFCategories(c *arffCursor) ([]string, error) {
	var values []string
	dup := map[string]bool{}
	c.skipSpace()
	if c.peek() == '}' {
		return nil, fmt.Errorf("nominal attribute with no categories")
	}
	for {
		v, _, err := c.value(",}")
		if err != nil {
			return nil, err
		}
		if dup[v] {
			return nil, fmt.Errorf("category %q declared twice", clip(v))
		}
		dup[v] = true
		values = append(values, v)
		c.skipSpace()
		switch c.peek() {
		case ',':
			c.i++
		case '}':
			c.i++
			return values, nil
		default:
			return nil, fmt.Errorf("unterminated category list")
		}
	}
}

// parseARFFRow parses one dense or sparse data line and checks every cell against its type.
func parseARFFRow(text string, attrs []ARFFAttribute, categories []map[string]bool) ([]string, error) {
	var (
		row []string
		err error
	)
	if text[0] == '{' {
		row, err = parseARFFSparse(text, attrs)
	} else {
		row, err = parseARFFDense(text, len(attrs))
	}
	if err != nil {
		return nil, err
	}
	for j, v := range row {
		if v == "?" {
			continue
		}
		switch attrs[j].Type {
		case "numeric":
			if _, err := parseFinite(v); err != nil {
				return nil, fmt.Errorf("column %d (%s): %q is %v", j+1, clip(attrs[j].Name), clip(v), err)
			}
		case "nominal":
			if !categories[j][v] {
				return nil, fmt.Errorf("column %d (%s): %q is not one of the declared categories", j+1, clip(attrs[j].Name), clip(v))
			}
		}
	}
	return row, nil
}

func parseARFFDense(text string, want int) ([]string, error) {
	row := make([]string, 0, want)
	c := &arffCursor{s: text}
	for {
		v, _, err := c.value(",")
		if err != nil {
			return nil, fmt.Errorf("value %d: %v", len(row)+1, err)
		}
		row = append(row, v)
		c.skipSpace()
		if c.atEnd() {
			break
		}
		if c.peek() != ',' {
			return nil, fmt.Errorf("value %d: unexpected %q after the value", len(row), c.peek())
		}
		c.i++
	}
	if len(row) != want {
		return nil, fmt.Errorf("%d values, want %d (one per attribute)", len(row), want)
	}
	return row, nil
}

func parseARFFSparse(text string, attrs []ARFFAttribute) ([]string, error) {
	row := make([]string, len(attrs))
	next := 0 // first attribute not yet filled
	fillTo := func(end int) error {
		for ; next < end; next++ {
			switch attrs[next].Type {
			case "numeric":
				row[next] = "0"
			case "nominal":
				row[next] = attrs[next].Nominal[0]
			default:
				return fmt.Errorf("sparse row omits %s attribute %d (%s), which has no zero value",
					attrs[next].Type, next, clip(attrs[next].Name))
			}
		}
		return nil
	}
	c := &arffCursor{s: text, i: 1}
	c.skipSpace()
	if c.peek() == '}' {
		c.i++
	} else {
		for {
			c.skipSpace()
			start := c.i
			for c.i < len(c.s) && c.s[c.i] >= '0' && c.s[c.i] <= '9' {
				c.i++
			}
			if start == c.i {
				return nil, fmt.Errorf("sparse entry: expected an attribute index at %q", clip(c.s[start:]))
			}
			idx, err := strconv.Atoi(c.s[start:c.i])
			if err != nil || idx >= len(attrs) {
				return nil, fmt.Errorf("sparse index %s is out of range 0..%d", clip(c.s[start:c.i]), len(attrs)-1)
			}
			if idx < next {
				return nil, fmt.Errorf("sparse index %d is not increasing", idx)
			}
			if c.peek() != ' ' && c.peek() != '\t' {
				return nil, fmt.Errorf("sparse index %d: expected a space and a value", idx)
			}
			v, _, err := c.value(",}")
			if err != nil {
				return nil, fmt.Errorf("sparse index %d: %v", idx, err)
			}
			if err := fillTo(idx); err != nil {
				return nil, err
			}
			row[idx] = v
			next = idx + 1
			c.skipSpace()
			if c.peek() == ',' {
				c.i++
				continue
			}
			if c.peek() == '}' {
				c.i++
				break
			}
			return nil, fmt.Errorf("unterminated sparse row")
		}
	}
	if err := c.end(); err != nil {
		return nil, fmt.Errorf("after the sparse row: %v", err)
	}
	if err := fillTo(len(attrs)); err != nil {
		return nil, err
	}
	return row, nil
}

// arffCursor walks one ARFF line, reading words, quoted strings and values.
type arffCursor struct {
	s string
	i int
}

func (c *arffCursor) skipSpace() {
	for c.i < len(c.s) && (c.s[c.i] == ' ' || c.s[c.i] == '\t') {
		c.i++
	}
}

// peek returns the current byte, or 0 at the end of the line.
func (c *arffCursor) peek() byte {
	if c.i < len(c.s) {
		return c.s[c.i]
	}
	return 0
}

// atEnd reports whether only a comment or nothing is left.
func (c *arffCursor) atEnd() bool { return c.i >= len(c.s) || c.s[c.i] == '%' }

// end checks that nothing but spaces and a comment is left.
func (c *arffCursor) end() error {
	c.skipSpace()
	if !c.atEnd() {
		return fmt.Errorf("unexpected text %q", clip(c.s[c.i:]))
	}
	return nil
}

// word reads a quoted string or an unquoted run up to a space, a tab, '{' or '%'.
func (c *arffCursor) word() (string, bool, error) {
	c.skipSpace()
	if q := c.peek(); q == '\'' || q == '"' {
		s, err := c.quoted()
		return s, true, err
	}
	start := c.i
	for c.i < len(c.s) && !strings.ContainsRune(" \t{%", rune(c.s[c.i])) {
		c.i++
	}
	return c.s[start:c.i], false, nil
}

// value reads a quoted string, or an unquoted run up to a byte in stops or '%' with the
// surrounding spaces removed; an empty unquoted value is an error.
func (c *arffCursor) value(stops string) (string, bool, error) {
	c.skipSpace()
	if q := c.peek(); q == '\'' || q == '"' {
		s, err := c.quoted()
		return s, true, err
	}
	start := c.i
	for c.i < len(c.s) && c.s[c.i] != '%' && !strings.ContainsRune(stops, rune(c.s[c.i])) {
		c.i++
	}
	v := strings.TrimRight(c.s[start:c.i], " \t")
	if v == "" {
		return "", false, fmt.Errorf("empty value")
	}
	return v, false, nil
}

// quoted reads a string in single or double quotes; \n, \t and \r are control characters and
// a backslash before any other character keeps that character.
func (c *arffCursor) quoted() (string, error) {
	q := c.s[c.i]
	c.i++
	var b strings.Builder
	for c.i < len(c.s) {
		ch := c.s[c.i]
		c.i++
		switch {
		case ch == q:
			return b.String(), nil
		case ch == '\\' && c.i < len(c.s):
			esc := c.s[c.i]
			c.i++
			switch esc {
			case 'n':
				esc = '\n'
			case 't':
				esc = '\t'
			case 'r':
				esc = '\r'
			}
			b.WriteByte(esc)
		default:
			b.WriteByte(ch)
		}
	}
	return "", fmt.Errorf("unterminated quoted string")
}
