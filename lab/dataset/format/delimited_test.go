package format

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestReadDelimited(t *testing.T) {
	cases := []struct {
		name  string
		input string
		opt   DelimitedOptions
		want  [][]string
	}{
		{"whitespace runs (boston)", " 0.00632  18.00\t2.310\n 0.02731   0.00   7.070", DelimitedOptions{},
			[][]string{{"0.00632", "18.00", "2.310"}, {"0.02731", "0.00", "7.070"}}},
		{"tabs and CRLF (steel plates)", "42\t50\t1\r\n645\t651\t0\r\n", DelimitedOptions{Sep: '\t'},
			[][]string{{"42", "50", "1"}, {"645", "651", "0"}}},
		{"adult.test", "|1x3 Cross validator\n25, Private, ?, <=50K.\n38, Self-emp, 9, >50K.\n\n",
			DelimitedOptions{Sep: ',', TrimSpace: true, Comment: "|", SkipBlank: true, TrimLastDot: true},
			[][]string{{"25", "Private", "?", "<=50K"}, {"38", "Self-emp", "9", ">50K"}}},
		{"empty fields kept", "a,,c\n,b,\n", DelimitedOptions{Sep: ','},
			[][]string{{"a", "", "c"}, {"", "b", ""}}},
		{"no trimming", "a, b\n", DelimitedOptions{Sep: ','}, [][]string{{"a", " b"}}},
		{"multi-byte separator rune", "a§b\n", DelimitedOptions{Sep: '§'}, [][]string{{"a", "b"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadDelimited(strings.NewReader(c.input), "t.data", c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestReadDelimitedErrors(t *testing.T) {
	cases := []struct {
		name, input string
		opt         DelimitedOptions
		want        string
	}{
		{"field count", "1 2 3\n# c\n4 5\n", DelimitedOptions{Comment: "#"}, "t.data:3: 2 fields, want 3 as on line 1"},
		{"blank line", "1 2\n\n3 4\n", DelimitedOptions{}, "t.data:2: blank line"},
		{"empty", "", DelimitedOptions{}, "t.data: no data rows"},
		{"only comments", "#a\n#b\n", DelimitedOptions{Comment: "#"}, "t.data: no data rows"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadDelimited(strings.NewReader(c.input), "t.data", c.opt)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got error %v, want prefix %q", err, c.want)
			}
		})
	}
}

func FuzzReadDelimited(f *testing.F) {
	f.Add([]byte(" 1 2\n3 4\n"), int32(0), true, "", true, false)
	f.Add([]byte("|x\n1, a.\n2, b.\n\n"), int32(','), true, "|", true, true)
	f.Add([]byte("1\t2\r\n3\r\n"), int32('\t'), false, "", false, false)
	f.Add([]byte("\n"), int32(0), false, "#", false, true)
	f.Fuzz(func(t *testing.T, data []byte, sep int32, trim bool, comment string, skipBlank, lastDot bool) {
		opt := DelimitedOptions{Sep: rune(sep), TrimSpace: trim, Comment: comment, SkipBlank: skipBlank, TrimLastDot: lastDot}
		rows, err := ReadDelimited(bytes.NewReader(data), "fuzz.data", opt)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.data") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, row := range rows {
			if len(row) != len(rows[0]) {
				t.Fatalf("rows of %d and %d fields accepted", len(rows[0]), len(row))
			}
		}
	})
}
