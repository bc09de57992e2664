package dataset

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// tinyTable: a numeric, a categorical and a constant column, 4 rows.
func tinyTable() *Table {
	return &Table{
		Name: "tiny",
		Frame: dataframe.New(
			series.New([]float64{1, 2, 3, 6}, series.Float, "x"),
			series.New([]string{"b", "a", "c", "a"}, series.String, "colour"),
			series.New([]float64{5, 5, 5, 5}, series.Float, "flat"),
		),
		Target: Target{Name: "y", Kind: Classification, Values: []float64{0, 1, 1, 0}, Classes: []string{"no", "yes"}},
	}
}

func TestMatrixCodesCategoriesInSortedOrder(t *testing.T) {
	m, err := tinyTable().Matrix(Prep{})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(4, 3, []float64{
		1, 1, 5,
		2, 0, 5,
		3, 2, 5,
		6, 0, 5,
	})
	if !mat.Equal(m, want) {
		t.Fatalf("Matrix =\n%v\nwant\n%v", mat.Formatted(m), mat.Formatted(want))
	}
}

func TestMatrixStandardises(t *testing.T) {
	tab := tinyTable()
	m, err := tab.Matrix(Prep{Standardise: true})
	if err != nil {
		t.Fatal(err)
	}
	// x: mean 3, population variance (4+1+0+9)/4 = 3.5.
	sd := math.Sqrt(3.5)
	wantX := []float64{-2 / sd, -1 / sd, 0, 3 / sd}
	// colour codes 1,0,2,0: mean 0.75, variance (0.0625+0.5625+1.5625+0.5625)/4 = 0.6875.
	sdC := math.Sqrt(0.6875)
	wantC := []float64{0.25 / sdC, -0.75 / sdC, 1.25 / sdC, -0.75 / sdC}
	for i := 0; i < 4; i++ {
		if math.Abs(m.At(i, 0)-wantX[i]) > 1e-12 || math.Abs(m.At(i, 1)-wantC[i]) > 1e-12 || m.At(i, 2) != 0 {
			t.Fatalf("row %d = %v, want %v %v 0", i, mat.Row(nil, i, m), wantX[i], wantC[i])
		}
	}
	for j := 0; j < 2; j++ {
		col := mat.Col(nil, j, m)
		var mean, ss float64
		for _, v := range col {
			mean += v / 4
		}
		for _, v := range col {
			ss += (v - mean) * (v - mean) / 4
		}
		if math.Abs(mean) > 1e-12 || math.Abs(ss-1) > 1e-12 {
			t.Errorf("column %d: mean %v, variance %v", j, mean, ss)
		}
	}
	if len(tab.Notes) != 1 || !strings.Contains(tab.Notes[0], "flat") {
		t.Errorf("notes %q should record the constant column flat", tab.Notes)
	}
	tab.Matrix(Prep{Standardise: true})
	if len(tab.Notes) != 1 {
		t.Errorf("note repeated: %q", tab.Notes)
	}
}

func TestMatrixOfDenseTableIsACopy(t *testing.T) {
	tab := &Table{Name: "img", Dense: mat.NewDense(2, 2, []float64{0, 1, 1, 1}), Target: Target{Values: []float64{0, 1}}}
	m, err := tab.Matrix(Prep{Standardise: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := mat.NewDense(2, 2, []float64{-1, 0, 1, 0}); !mat.Equal(m, want) {
		t.Fatalf("got %v", mat.Formatted(m))
	}
	if tab.Dense.At(0, 0) != 0 || tab.Dense.At(1, 1) != 1 {
		t.Fatal("Matrix changed the table")
	}
	if tab.NumFeatures() != 2 || tab.Len() != 2 {
		t.Fatalf("shape %d x %d", tab.Len(), tab.NumFeatures())
	}
}

func TestMatrixRejectsMissingAndMismatchedTables(t *testing.T) {
	tab := tinyTable()
	tab.Frame = tab.Frame.Mutate(series.New([]float64{1, math.NaN(), 3, 4}, series.Float, "x"))
	if _, err := tab.Matrix(Prep{}); err == nil || !strings.Contains(err.Error(), "row 1") {
		t.Fatalf("NaN: error %v should name the row", err)
	}
	tab = tinyTable()
	tab.Target.Values = tab.Target.Values[:3]
	if _, err := tab.Matrix(Prep{}); err == nil {
		t.Fatal("frame/target row mismatch accepted")
	}
	if _, err := (&Table{Name: "empty"}).Matrix(Prep{}); err == nil {
		t.Fatal("empty table accepted")
	}
}

func TestSubsetKeepsOrderAndRepeats(t *testing.T) {
	tab := tinyTable()
	sub, err := tab.Subset([]int{3, 0, 3})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := sub.Matrix(Prep{})
	want := mat.NewDense(3, 3, []float64{6, 0, 5, 1, 1, 5, 6, 0, 5})
	if !mat.Equal(m, want) {
		t.Fatalf("subset matrix\n%v", mat.Formatted(m))
	}
	if got := sub.Target.Values; got[0] != 0 || got[1] != 0 || got[2] != 0 || sub.Len() != 3 {
		t.Fatalf("subset target %v", got)
	}
	if _, err := tab.Subset([]int{4}); err == nil {
		t.Fatal("row out of range accepted")
	}
	if _, err := tab.Subset(nil); err == nil {
		t.Fatal("empty subset accepted")
	}
	img := &Table{Name: "img", Dense: mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5}), Target: Target{Values: []float64{7, 8, 9}}}
	sub, err = img.Subset([]int{2, 1})
	if err != nil || !mat.Equal(sub.Dense, mat.NewDense(2, 2, []float64{4, 5, 2, 3})) || sub.Target.Values[0] != 9 {
		t.Fatalf("dense subset %v, %v", sub, err)
	}
}

func TestTableBuilderChecksValuesAndDropsMissing(t *testing.T) {
	cols := []columnSpec{{"a", numericFeature}, {"b", categoricalFeature}, {"id", droppedColumn}, {"class", targetColumn}}
	b := newTableBuilder("t", Classification, cols)
	b.missing = "?"
	rows := [][]string{{"1", "x", "?", "10"}, {"2", "?", "7", "9"}, {"3.5", "y", "8", "10"}, {"?", "y", "9", "2"}}
	if err := b.addRows(rows, "t.data"); err != nil {
		t.Fatal(err)
	}
	tab, err := b.table("v")
	if err != nil {
		t.Fatal(err)
	}
	// Rows 2 and 4 hold '?' in kept columns; the '?' in the dropped id column does not count.
	if tab.Len() != 2 || tab.NumFeatures() != 2 {
		t.Fatalf("shape %d x %d, want 2 x 2", tab.Len(), tab.NumFeatures())
	}
	// Numeric classes sort numerically: "9" < "10".
	if strings.Join(tab.Target.Classes, ",") != "10" || tab.Target.Values[0] != 0 {
		t.Fatalf("classes %v values %v", tab.Target.Classes, tab.Target.Values)
	}
	if len(tab.Notes) != 1 || !strings.Contains(tab.Notes[0], "dropped 2 of 4") || !strings.Contains(tab.Notes[0], "a 1, b 1") {
		t.Fatalf("notes %q", tab.Notes)
	}

	for _, bad := range [][]string{{"1", "x", "1", "NaN"}, {"abc", "x", "1", "1"}, {"Inf", "x", "1", "1"}, {"1", "x"}} {
		b := newTableBuilder("t", Regression, cols)
		err := b.add(bad, position{file: "t.data", n: 17, isLine: true})
		if err == nil || !strings.Contains(err.Error(), "t.data:17") {
			t.Errorf("row %q: error %v should name t.data:17", bad, err)
		}
	}
}

func TestClassCodes(t *testing.T) {
	codes, classes, err := classCodes([]string{"10", "9", "2", "9"}, nil)
	if err != nil || strings.Join(classes, ",") != "2,9,10" || codes[0] != 2 || codes[1] != 1 || codes[2] != 0 {
		t.Fatalf("numeric labels: %v %v %v", codes, classes, err)
	}
	codes, classes, err = classCodes([]string{"won", "nowin"}, nil)
	if err != nil || strings.Join(classes, ",") != "nowin,won" || codes[0] != 1 {
		t.Fatalf("text labels: %v %v %v", codes, classes, err)
	}
	codes, _, err = classCodes([]string{"g", "h", "g"}, []string{"h", "g"})
	if err != nil || codes[0] != 1 || codes[1] != 0 {
		t.Fatalf("declared order: %v %v", codes, err)
	}
	if _, _, err := classCodes([]string{"g", "x"}, []string{"g", "h"}); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("undeclared label: %v", err)
	}
}
