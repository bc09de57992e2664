package format

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestReadLIBSVM(t *testing.T) {
	const input = "+1 1:0.5 3:2   # a comment\n\n# a full-line comment\r\n-1 2:-1e-1\n0\n"
	X, y, err := ReadLIBSVM(strings.NewReader(input), "t.svm", 0)
	if err != nil {
		t.Fatal(err)
	}
	wantX := [][]float64{{0.5, 0, 2}, {0, -0.1, 0}, {0, 0, 0}}
	wantY := []float64{1, -1, 0}
	if !reflect.DeepEqual(X, wantX) || !reflect.DeepEqual(y, wantY) {
		t.Errorf("got X=%v y=%v, want X=%v y=%v", X, y, wantX, wantY)
	}

	X, _, err = ReadLIBSVM(strings.NewReader(input), "t.svm", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(X[0]) != 5 || X[0][2] != 2 || X[0][4] != 0 {
		t.Errorf("minDim 5: got %v", X)
	}
	// Rows must not share capacity: appending to one must not change the next.
	X[0] = append(X[0], 99)
	if X[1][0] != 0 {
		t.Errorf("rows alias each other")
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	cases := []struct {
		name, input string
		minDim      int
		want        string
	}{
		{"not increasing", "1 1:1\n1 3:1 2:1\n", 0, "t.svm:2: index 2 does not increase (previous 3)"},
		{"repeated index", "1 2:1 2:1\n", 0, "t.svm:1: index 2 does not increase"},
		{"zero index", "1 0:1\n", 0, "t.svm:1: index 0 is outside 1.."},
		{"bad label", "x 1:1\n", 0, "t.svm:1: label \"x\" is not a number"},
		{"NaN value", "1 1:nan\n", 0, "t.svm:1: value \"nan\" of index 1 is not a finite number"},
		{"no colon", "1 1\n", 0, "t.svm:1: \"1\" is not index:value"},
		{"qid", "1 qid:3 1:1\n", 0, "t.svm:1: index \"qid\" is not an integer"},
		{"multi-label", "1,2 1:1\n", 0, "t.svm:1: label \"1,2\" is not a number"},
		{"empty", "# nothing\n", 0, "t.svm: no data rows"},
		{"negative minDim", "1 1:1\n", -1, "t.svm: minDim -1 is negative"},
		{"minDim above cap", "1 1:1\n", maxLIBSVMCells + 1, "t.svm: 1 rows × 134217729 columns exceed the cap"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ReadLIBSVM(strings.NewReader(c.input), "t.svm", c.minDim)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got error %v, want prefix %q", err, c.want)
			}
		})
	}
}

func TestReadLIBSVMCap(t *testing.T) {
	if _, _, err := readLIBSVM(strings.NewReader("1 11:1\n"), "t.svm", 0, 10); err == nil ||
		!strings.HasPrefix(err.Error(), "t.svm:1: index 11 is outside 1..10") {
		t.Errorf("index above cap: got %v", err)
	}
	if _, _, err := readLIBSVM(strings.NewReader("1 4:1\n2 1:1\n3 2:2\n"), "t.svm", 0, 11); err == nil ||
		!strings.HasPrefix(err.Error(), "t.svm: 3 rows × 4 columns exceed the cap of 11") {
		t.Errorf("n×d above cap: got %v", err)
	}
	if X, _, err := readLIBSVM(strings.NewReader("1 4:1\n2 1:1\n3 2:2\n"), "t.svm", 0, 12); err != nil || len(X) != 3 {
		t.Errorf("n×d at cap: got %v, %v", X, err)
	}
}

func FuzzReadLIBSVM(f *testing.F) {
	f.Add([]byte("+1 1:0.5 3:2 # c\n-1 2:-1\n"), 0)
	f.Add([]byte("1 3:1 2:1\n"), 2)
	f.Add([]byte("1 99999999:1\n"), 0)
	f.Add([]byte("x\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, minDim int) {
		const maxCells = 1 << 16
		X, y, err := readLIBSVM(bytes.NewReader(data), "fuzz.svm", minDim, maxCells)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.svm") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(X) != len(y) || len(X) == 0 {
			t.Fatalf("%d rows, %d labels", len(X), len(y))
		}
		for _, row := range X {
			if len(row) != len(X[0]) || len(row) < minDim || len(row)*len(X) > maxCells {
				t.Fatalf("row width %d (first %d, minDim %d, %d rows)", len(row), len(X[0]), minDim, len(X))
			}
		}
	})
}
