package format

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

const sampleARFF = "% a comment line\r\n" +
	"@RELATION 'my data'   % trailing comment\r\n" +
	"\r\n" +
	"@attribute num NUMERIC\n" +
	"@Attribute 'a b' {x, y, 'c d'}\n" +
	"@attribute \"s t\" string\n" +
	"@attribute when date \"yyyy-MM-dd\"\n" +
	"@attribute i integer\n" +
	"@attribute r{1,2}\n" +
	"@DATA\n" +
	"1.5, x, 'hello, world', \"2001-01-02\", 3, 1\n" +
	"?, 'c d', plain, ?, 4, '2'   % comment after a row\r\n" +
	"-2e3, y, 'it\\'s', 2003-03-03, -1, ?\n" +
	"{0 7, 1 y, 2 'q', 3 2002-02-02}\n" +
	"{2 s,3 d,  5 2}\n"

func TestReadARFF(t *testing.T) {
	got, err := ReadARFF(strings.NewReader(sampleARFF), "t.arff")
	if err != nil {
		t.Fatal(err)
	}
	want := &ARFF{
		Relation: "my data",
		Attributes: []ARFFAttribute{
			{Name: "num", Type: "numeric"},
			{Name: "a b", Type: "nominal", Nominal: []string{"x", "y", "c d"}},
			{Name: "s t", Type: "string"},
			{Name: "when", Type: "date"},
			{Name: "i", Type: "numeric"},
			{Name: "r", Type: "nominal", Nominal: []string{"1", "2"}},
		},
		Rows: [][]string{
			{"1.5", "x", "hello, world", "2001-01-02", "3", "1"},
			{"?", "c d", "plain", "?", "4", "2"},
			{"-2e3", "y", "it's", "2003-03-03", "-1", "?"},
			{"7", "y", "q", "2002-02-02", "0", "1"}, // omitted nominal = first category
			{"0", "x", "s", "d", "0", "2"},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func TestReadARFFNoRows(t *testing.T) {
	got, err := ReadARFF(strings.NewReader("@relation r\n@attribute x real\n@data\n"), "t.arff")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 0 || len(got.Attributes) != 1 {
		t.Errorf("got %+v", got)
	}
}

func TestReadARFFErrors(t *testing.T) {
	const head = "@relation r\n@attribute x numeric\n@attribute c {a,b}\n@attribute s string\n@data\n" // data from line 6
	cases := []struct {
		name, input, want string
	}{
		{"nominal not declared", head + "1,a,s\n2,z,s\n", "t.arff:7: column 2 (c): \"z\" is not one of the declared categories"},
		{"numeric does not parse", head + "abc,a,s\n", "t.arff:6: column 1 (x): \"abc\" is not a number"},
		{"NaN", head + "NaN,a,s\n", "t.arff:6: column 1 (x): \"NaN\" is not a finite number"},
		{"Inf", head + "-Inf,a,s\n", "t.arff:6: column 1 (x): \"-Inf\" is not a finite number"},
		{"out of range", head + "1e999,a,s\n", "t.arff:6: column 1 (x): \"1e999\" is out of the float64 range"},
		{"too few values", head + "1,a\n", "t.arff:6: 2 values, want 3"},
		{"too many values", head + "1,a,s,4\n", "t.arff:6: 4 values, want 3"},
		{"empty value", head + "1,,s\n", "t.arff:6: value 2: empty value"},
		{"text after quote", head + "1,'a'b,s\n", "t.arff:6: value 2: unexpected 'b' after the value"},
		{"unterminated quote", head + "1,a,'s\n", "t.arff:6: value 3: unterminated quoted string"},
		{"sparse omits string", head + "{0 1}\n", "t.arff:6: sparse row omits string attribute 2 (s), which has no zero value"},
		{"sparse not increasing", head + "{2 s, 0 1}\n", "t.arff:6: sparse index 0 is not increasing"},
		{"sparse out of range", head + "{3 1}\n", "t.arff:6: sparse index 3 is out of range 0..2"},
		{"sparse unterminated", head + "{0 1, 2 s\n", "t.arff:6: unterminated sparse row"},
		{"sparse without value", head + "{0}\n", "t.arff:6: sparse index 0: expected a space and a value"},
		{"sparse bad nominal", head + "{1 q, 2 s}\n", "t.arff:6: column 2 (c): \"q\" is not one of the declared categories"},
		{"attribute before relation", "@attribute x numeric\n", "t.arff:1: @attribute before @relation"},
		{"unknown type", "@relation r\n@attribute x float\n", "t.arff:2: attribute \"x\": unknown type \"float\""},
		{"relational", "@relation r\n@attribute x relational\n", "t.arff:2: attribute \"x\": relational attributes are not supported"},
		{"no type", "@relation r\n@attribute x\n", "t.arff:2: attribute \"x\" has no type"},
		{"empty nominal", "@relation r\n@attribute x {}\n", "t.arff:2: attribute \"x\": nominal attribute with no categories"},
		{"duplicate category", "@relation r\n@attribute x {a,a}\n", "t.arff:2: attribute \"x\": category \"a\" declared twice"},
		{"unterminated categories", "@relation r\n@attribute x {a,b\n", "t.arff:2: attribute \"x\": unterminated category list"},
		{"duplicate attribute", "@relation r\n@attribute x real\n@attribute x real\n", "t.arff:3: attribute \"x\" declared twice"},
		{"second relation", "@relation r\n@relation s\n", "t.arff:2: second @relation"},
		{"unquoted relation with space", "@relation my data\n", "t.arff:1: after the relation name"},
		{"data before attributes", "@relation r\n@data\n", "t.arff:2: @data before any @attribute"},
		{"unknown declaration", "@relation r\n@foo\n", "t.arff:2: unknown declaration @foo"},
		{"data before header", "1,2\n", "t.arff:1: expected @relation, @attribute or @data"},
		{"no data section", "@relation r\n@attribute x real\n", "t.arff: no @data section"},
		{"empty file", "", "t.arff: no @data section"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadARFF(strings.NewReader(c.input), "t.arff")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got error %v, want prefix %q", err, c.want)
			}
		})
	}
}

func FuzzReadARFF(f *testing.F) {
	f.Add([]byte(sampleARFF))
	f.Add([]byte("@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n1,a\n{1 b}\n"))
	f.Add([]byte("@relation r\n@attribute x numeric\n@data\n{0 1,}\n"))
	f.Add([]byte("@relation 'r\n"))
	f.Add([]byte("@relation r\n@attribute x {a,'b\n"))
	f.Add([]byte("@relation r\n@attribute s string\n@data\n'a\\\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ReadARFF(bytes.NewReader(data), "fuzz.arff")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.arff") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, row := range a.Rows {
			if len(row) != len(a.Attributes) {
				t.Fatalf("row %q has %d cells for %d attributes", row, len(row), len(a.Attributes))
			}
			for j, v := range row {
				attr := a.Attributes[j]
				if v == "?" {
					continue
				}
				switch attr.Type {
				case "numeric":
					if _, err := parseFinite(v); err != nil {
						t.Fatalf("numeric cell %q accepted", v)
					}
				case "nominal":
					found := false
					for _, c := range attr.Nominal {
						found = found || c == v
					}
					if !found {
						t.Fatalf("nominal cell %q not in %q accepted", v, attr.Nominal)
					}
				}
			}
		}
	})
}
