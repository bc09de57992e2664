package plotting

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteTableExactContent(t *testing.T) {
	base := filepath.Join(t.TempDir(), "tables", "t3_1")
	header := []string{"method", "error", "time (s)"}
	rows := [][]string{
		{"uniform", "0.12", "1.5"},
		{"DAC|RLS, fast", "0.034", "12"},
		{"two\nlines", "", "-3e2"},
	}
	if err := WriteTable(base, "Errors on the\nMNIST subset", header, rows); err != nil {
		t.Fatal(err)
	}
	wantMD := "Table: Errors on the MNIST subset\n" +
		"\n" +
		"| method         | error | time (s) |\n" +
		"| -------------- | ----: | -------: |\n" +
		"| uniform        |  0.12 |      1.5 |\n" +
		"| DAC\\|RLS, fast | 0.034 |       12 |\n" +
		"| two lines      |       |     -3e2 |\n"
	wantCSV := "method,error,time (s)\n" +
		"uniform,0.12,1.5\n" +
		"\"DAC|RLS, fast\",0.034,12\n" +
		"\"two\nlines\",,-3e2\n"
	for path, want := range map[string]string{base + ".md": wantMD, base + ".csv": wantCSV} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n%s\nwant:\n%s", filepath.Base(path), got, want)
		}
	}
}

func TestWriteTableWithoutCaptionOrRows(t *testing.T) {
	base := filepath.Join(t.TempDir(), "t")
	if err := WriteTable(base, "", []string{"a", "long name"}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(base + ".md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "| a   | long name |\n| --- | --------- |\n"; string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteTableErrors(t *testing.T) {
	dir := t.TempDir()
	if err := WriteTable(filepath.Join(dir, "t"), "c", []string{"a", "b"}, [][]string{{"1", "2"}, {"3"}}); err == nil {
		t.Error("short row: no error")
	}
	if err := WriteTable(filepath.Join(dir, "t"), "c", nil, nil); err == nil {
		t.Error("empty header: no error")
	}
	if err := WriteTable("", "c", []string{"a"}, nil); err == nil {
		t.Error("empty name: no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed writes left files: %v", entries)
	}
}
