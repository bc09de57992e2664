package dataset

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// tableLoaders lists the data sets Source.Table loads, with their variants (first = default).
var tableLoaders = map[string]tableLoader{
	"adult":         {variants: []string{"train+test", "train", "test"}, load: loadAdult},
	"boston":        {variants: []string{"uci"}, load: loadBoston},
	"breast_cancer": {variants: []string{"uci"}, load: loadBreastCancer},
	"covtype":       {variants: []string{CovtypeFull, CovtypeSubset}, load: loadCovtype},
	"diabetes":      {variants: []string{"raw"}, load: loadDiabetes},
	"diamonds":      {variants: []string{"ggplot2"}, load: loadDiamonds},
	"gamma":         {variants: []string{"openml", "uci"}, load: loadGamma},
	"houses":        {variants: []string{"torgo"}, load: loadHouses},
	"kc1":           {variants: []string{"promise"}, load: loadKC1},
	"kin8nm":        {variants: []string{"arff"}, load: loadKin8nm},
	"kr_vs_kp":      {variants: []string{"uci"}, load: loadKrVsKp},
	"lfw_pairs":     {variants: []string{"train", "test", "10_folds"}, load: loadLFWPairs},
	"mnist":         {variants: []string{"train+test", "train", "test"}, load: loadMNIST},
	"spambase":      {variants: []string{"uci"}, load: loadSpambase},
	"steel_plates":  {variants: []string{"openml", "uci", "uci-7class"}, load: loadSteelPlates},
}

// openSpec opens a file of spec (verified, decompressed).
func (s Source) openSpec(ctx context.Context, spec Spec, file string) (io.ReadCloser, error) {
	f, err := spec.File(file)
	if err != nil {
		return nil, err
	}
	return s.open(ctx, spec, f)
}

// withFile opens file of spec, passes its content to read and closes it; every error it returns
// starts with "dataset <name>:", so callers return it as it is.
func (s Source) withFile(ctx context.Context, spec Spec, file string, read func(r io.Reader) error) error {
	rc, err := s.openSpec(ctx, spec, file)
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := read(ctxReader{ctx: ctx, r: rc}); err != nil {
		return fmt.Errorf("dataset %s: %w", spec.Name, err)
	}
	return nil
}

func (s Source) readDelimited(ctx context.Context, spec Spec, file string, opt format.DelimitedOptions) ([][]string, error) {
	var rows [][]string
	err := s.withFile(ctx, spec, file, func(r io.Reader) error {
		var err error
		rows, err = format.ReadDelimited(r, file, opt)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (s Source) readARFF(ctx context.Context, spec Spec, file string) (*format.ARFF, error) {
	var a *format.ARFF
	err := s.withFile(ctx, spec, file, func(r io.Reader) error {
		var err error
		a, err = format.ReadARFF(r, file)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

func (s Source) readCSV(ctx context.Context, spec Spec, file string) ([][]string, error) {
	var rows [][]string
	err := s.withFile(ctx, spec, file, func(r io.Reader) error {
		var err error
		if rows, err = csv.NewReader(r).ReadAll(); err != nil {
			return fmt.Errorf("%s: %w", file, err) // withFile adds the data set's name
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// csvTable streams a comma-separated file into a builder.
func (s Source) csvTable(ctx context.Context, spec Spec, b *tableBuilder, file string, header []string) error {
	return s.withFile(ctx, spec, file, func(r io.Reader) error { return b.addCSV(r, file, header) })
}

// arffTable loads an ARFF file: numeric attributes become numeric features, the others
// categorical; target names the target attribute (a nominal target is a classification in the
// declared class order); drop names attributes left out; rename maps attribute names to column
// names. Rows with '?' are dropped and noted.
func (s Source) arffTable(ctx context.Context, spec Spec, file, target string, drop []string, rename func(string) string) (*tableBuilder, error) {
	a, err := s.readARFF(ctx, spec, file)
	if err != nil {
		return nil, err
	}
	cols := make([]columnSpec, len(a.Attributes))
	kind := Regression
	var classes []string
	found := false
	for j, attr := range a.Attributes {
		name := attr.Name
		if rename != nil {
			name = rename(name)
		}
		cols[j] = columnSpec{name: name, role: categoricalFeature}
		switch {
		case attr.Name == target:
			found = true
			cols[j].role = targetColumn
			if attr.Type == "nominal" {
				kind, classes = Classification, attr.Nominal
			}
		case slices.Contains(drop, attr.Name):
			cols[j].role = droppedColumn
		case attr.Type == "numeric":
			cols[j].role = numericFeature
		}
	}
	if !found {
		return nil, fmt.Errorf("dataset %s: %s has no attribute %q", spec.Name, file, target)
	}
	b := newTableBuilder(spec.Name, kind, cols)
	b.classes, b.missing = classes, "?"
	return b, b.addRows(a.Rows, file)
}

// loadAdult reads adult.data and/or adult.test (", "-separated; the test file's first line is a
// comment and its labels end with '.'). Missing values ('?') occur only in three categorical
// columns (workclass, occupation, native-country: 3,620 of 48,842 rows); they are kept as a
// category of their own, so every row stays, as in the thesis's count of 48,842.
func loadAdult(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	if variant == "" {
		variant = "train+test"
	}
	cols := []columnSpec{{"age", numericFeature}, {"workclass", categoricalFeature}, {"fnlwgt", numericFeature},
		{"education", categoricalFeature}, {"education-num", numericFeature}, {"marital-status", categoricalFeature},
		{"occupation", categoricalFeature}, {"relationship", categoricalFeature}, {"race", categoricalFeature},
		{"sex", categoricalFeature}, {"capital-gain", numericFeature}, {"capital-loss", numericFeature},
		{"hours-per-week", numericFeature}, {"native-country", categoricalFeature}, {"income", targetColumn}}
	b := newTableBuilder(spec.Name, Classification, cols)
	b.classes, b.missing, b.missingCategory = []string{"<=50K", ">50K"}, "?", true
	var files []string
	if variant != "test" {
		files = append(files, "adult.data.gz")
	}
	if variant != "train" {
		files = append(files, "adult.test.gz")
	}
	for _, file := range files {
		rows, err := s.readDelimited(ctx, spec, file, format.DelimitedOptions{Sep: ',', TrimSpace: true, Comment: "|", SkipBlank: true, TrimLastDot: true})
		if err != nil {
			return nil, err
		}
		if err := b.addRows(rows, file); err != nil {
			return nil, err
		}
	}
	return b.table(variant, "rows of "+strings.Join(files, " then "))
}

// loadBoston reads housing.data (whitespace-separated, 14 columns, MEDV last). No missing
// values. The B column encodes a racist assumption; results should say so.
func loadBoston(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	cols := numericColumns("CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT")
	cols = append(cols, columnSpec{"MEDV", targetColumn})
	rows, err := s.readDelimited(ctx, spec, "housing.data", format.DelimitedOptions{})
	if err != nil {
		return nil, err
	}
	b := newTableBuilder(spec.Name, Regression, cols)
	if err := b.addRows(rows, "housing.data"); err != nil {
		return nil, err
	}
	return b.table("uci", "column B = 1000(Bk - 0.63)^2 encodes a racist assumption (why scikit-learn dropped load_boston); say so with results")
}

// loadBreastCancer reads wdbc.data: ID (dropped), Diagnosis (B = 0, M = 1), 30 features. No
// missing values.
func loadBreastCancer(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	cols := []columnSpec{{"ID", droppedColumn}, {"Diagnosis", targetColumn}}
	for _, stat := range []string{"mean", "se", "worst"} {
		for _, f := range []string{"radius", "texture", "perimeter", "area", "smoothness", "compactness",
			"concavity", "concave_points", "symmetry", "fractal_dimension"} {
			cols = append(cols, columnSpec{f + "_" + stat, numericFeature})
		}
	}
	b := newTableBuilder(spec.Name, Classification, cols)
	b.classes = []string{"B", "M"}
	if err := s.csvTable(ctx, spec, b, "wdbc.data", nil); err != nil {
		return nil, err
	}
	return b.table("uci", "ID column dropped")
}

const (
	covtypeFull   = "covtype.data.gz"
	covtypePrefix = 20000 // rows of covtype.20k.data.gz
	covtypeShared = 98    // leading covsample rows that are also prefix rows
)

// covtypePartial are the two partial covtype files that an offline mirror may hold instead of
// the full one.
var covtypePartial = []string{"covtype.20k.data.gz", "covsample.data.gz"}

func covtypeColumns() []columnSpec {
	cols := numericColumns("Elevation", "Aspect", "Slope", "Horizontal_Distance_To_Hydrology",
		"Vertical_Distance_To_Hydrology", "Horizontal_Distance_To_Roadways", "Hillshade_9am", "Hillshade_Noon",
		"Hillshade_3pm", "Horizontal_Distance_To_Fire_Points")
	for i := 1; i <= 4; i++ {
		cols = append(cols, columnSpec{fmt.Sprintf("Wilderness_Area%d", i), numericFeature})
	}
	for i := 1; i <= 40; i++ {
		cols = append(cols, columnSpec{fmt.Sprintf("Soil_Type%d", i), numericFeature})
	}
	return append(cols, columnSpec{"Cover_Type", targetColumn})
}

// loadCovtype reads the full UCI covtype.data.gz ("uci": 581,012 rows, checked against the rows
// the two partial files hold, see checkCovtypeFull) when it is present or asked for, else ("subset-31220") UCI rows
// 1..20,000 followed by covsample's every-50th rows beyond 20,000 (its first 98 rows repeat
// prefix rows; that they are equal is checked). No missing values.
func loadCovtype(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	if variant == "" {
		variant = CovtypeSubset
		if s.Has(spec.Name, covtypeFull) || !s.Has(spec.Name, covtypePartial[0]) || !s.Has(spec.Name, covtypePartial[1]) {
			variant = CovtypeFull // the full file, downloaded when not here
		}
	}
	b := newTableBuilder(spec.Name, Classification, covtypeColumns())
	if variant == "uci" {
		if err := s.csvTable(ctx, spec, b, covtypeFull, nil); err != nil {
			return nil, err
		}
		if b.rows != CovtypeRows {
			return nil, fmt.Errorf("dataset covtype: %s has %d rows, want %d: not the UCI file", covtypeFull, b.rows, CovtypeRows)
		}
		if err := s.checkCovtypeFull(ctx, spec); err != nil {
			return nil, err
		}
		return b.table("uci", "full UCI covtype.data (581,012 rows)")
	}
	prefix, err := s.readCSV(ctx, spec, "covtype.20k.data.gz")
	if err != nil {
		return nil, err
	}
	sample, err := s.readCSV(ctx, spec, "covsample.data.gz")
	if err != nil {
		return nil, err
	}
	if len(prefix) != covtypePrefix || len(sample) <= covtypeShared {
		return nil, fmt.Errorf("dataset covtype: %d prefix rows and %d sample rows, want %d and more than %d", len(prefix), len(sample), covtypePrefix, covtypeShared)
	}
	for k := 0; k < covtypeShared; k++ {
		if !slices.Equal(sample[k], prefix[15120+50*k]) {
			return nil, fmt.Errorf("dataset covtype: covsample.data.gz row %d differs from UCI row %d in covtype.20k.data.gz", k+1, 15121+50*k)
		}
	}
	if err := b.addRows(prefix, "covtype.20k.data.gz"); err != nil {
		return nil, err
	}
	if err := b.addRows(sample[covtypeShared:], "covsample.data.gz (after its first 98 rows)"); err != nil {
		return nil, err
	}
	if b.rows != CovtypeSubsetRows {
		return nil, fmt.Errorf("dataset covtype: the partial files hold %d distinct rows, want %d", b.rows, CovtypeSubsetRows)
	}
	return b.table("subset-31220",
		fmt.Sprintf("PARTIAL Covertype: %d of 581,012 UCI rows (rows 1-20,000, then every 50th row from 15,121 beyond 20,000); rows 1-15,120 are class-balanced, so class frequencies differ from the full data", b.rows),
		"the 98 rows shared by the two partial files are kept once")
}

// loadDiabetes reads the raw (unstandardised) features and the target of scikit-learn's
// diabetes data. No missing values.
func loadDiabetes(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	x, err := s.readDelimited(ctx, spec, "diabetes_data_raw.csv.gz", format.DelimitedOptions{})
	if err != nil {
		return nil, err
	}
	y, err := s.readDelimited(ctx, spec, "diabetes_target.csv.gz", format.DelimitedOptions{})
	if err != nil {
		return nil, err
	}
	if len(x) != len(y) || len(y[0]) != 1 {
		return nil, fmt.Errorf("dataset diabetes: %d feature rows, %d target rows of %d columns: want equal counts and one column", len(x), len(y), len(y[0]))
	}
	cols := numericColumns("age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6")
	cols = append(cols, columnSpec{"y", targetColumn})
	b := newTableBuilder(spec.Name, Regression, cols)
	for i := range x {
		if err := b.add(append(x[i], y[i][0]), position{file: "diabetes_data_raw.csv.gz", n: i + 1}); err != nil {
			return nil, err
		}
	}
	return b.table("raw", "unstandardised values (scikit-learn load_diabetes(scaled=False)); sex coded 1/2")
}

// loadDiamonds reads diamonds.csv (header line; cut, color, clarity categorical, so Matrix
// codes them in alphabetical order, not in quality order). No missing values.
func loadDiamonds(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	cols := []columnSpec{{"carat", numericFeature}, {"cut", categoricalFeature}, {"color", categoricalFeature},
		{"clarity", categoricalFeature}, {"depth", numericFeature}, {"table", numericFeature}, {"price", targetColumn},
		{"x", numericFeature}, {"y", numericFeature}, {"z", numericFeature}}
	b := newTableBuilder(spec.Name, Regression, cols)
	header := []string{"carat", "cut", "color", "clarity", "depth", "table", "price", "x", "y", "z"}
	if err := s.csvTable(ctx, spec, b, "diamonds.csv.gz", header); err != nil {
		return nil, err
	}
	return b.table("ggplot2", "20 rows have x, y or z = 0 (data-entry zeros, kept)")
}

var gammaFeatures = []string{"fLength", "fWidth", "fSize", "fConc", "fConc1", "fAsym", "fM3Long", "fM3Trans", "fAlpha", "fDist"}

// loadGamma reads OpenML's MagicTelescope.arff ("openml": ID + 10 features, the thesis's 11;
// the ID leaks the label) or UCI's magic04.data ("uci": 10 features). Class g = 0, h = 1. No
// missing values.
func loadGamma(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	if variant == "uci" {
		cols := append(numericColumns(gammaFeatures...), columnSpec{"class", targetColumn})
		b := newTableBuilder(spec.Name, Classification, cols)
		b.classes = []string{"g", "h"}
		if err := s.csvTable(ctx, spec, b, "magic04.data.gz", nil); err != nil {
			return nil, err
		}
		return b.table("uci", "UCI magic04.data: the 10 features (no ID column, no label leak)")
	}
	b, err := s.arffTable(ctx, spec, "MagicTelescope.arff.gz", "class:", nil, func(n string) string { return strings.TrimSuffix(n, ":") })
	if err != nil {
		return nil, err
	}
	return b.table("openml", "OpenML MagicTelescope (the thesis's 11 features) includes the ID column, which LEAKS THE LABEL: rows are sorted by class, ID <= 12332 iff g. Use Variant(\"uci\") for the honest task",
		"trailing ':' removed from the ARFF attribute names")
}

// loadHouses reads cal_housing.data (8 features, medianHouseValue in USD as the target). No
// missing values.
func loadHouses(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	cols := numericColumns("longitude", "latitude", "housingMedianAge", "totalRooms", "totalBedrooms", "population", "households", "medianIncome")
	cols = append(cols, columnSpec{"medianHouseValue", targetColumn})
	b := newTableBuilder(spec.Name, Regression, cols)
	if err := s.csvTable(ctx, spec, b, "cal_housing.data.gz", nil); err != nil {
		return nil, err
	}
	return b.table("torgo", "block-group totals (not per household); target in USD, censored at 500,001")
}

// loadKC1 reads kc1.arff (21 numeric metrics, defects false = 0, true = 1). No missing values;
// the 897 duplicate rows are kept, as in every copy.
func loadKC1(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	b, err := s.arffTable(ctx, spec, "kc1.arff", "defects", nil, nil)
	if err != nil {
		return nil, err
	}
	return b.table("promise", "duplicate rows kept (2,109 rows, 1,212 distinct)")
}

// loadKin8nm reads kin8nm.arff (theta1..theta8, target y). No missing values.
func loadKin8nm(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	b, err := s.arffTable(ctx, spec, "kin8nm.arff.gz", "y", nil, nil)
	if err != nil {
		return nil, err
	}
	return b.table("arff")
}

// loadKrVsKp reads kr-vs-kp.data (36 categorical features, class nowin = 0, won = 1). No
// missing values.
func loadKrVsKp(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	var cols []columnSpec
	for _, n := range []string{"bkblk", "bknwy", "bkon8", "bkona", "bkspr", "bkxbq", "bkxcr", "bkxwp", "blxwp", "bxqsq",
		"cntxt", "dsopp", "dwipd", "hdchk", "katri", "mulch", "qxmsq", "r2ar8", "reskd", "reskr", "rimmx", "rkxwp",
		"rxmsq", "simpl", "skach", "skewr", "skrxp", "spcop", "stlmt", "thrsk", "wkcti", "wkna8", "wknck", "wkovl",
		"wkpos", "wtoeg"} {
		cols = append(cols, columnSpec{n, categoricalFeature})
	}
	cols = append(cols, columnSpec{"class", targetColumn})
	b := newTableBuilder(spec.Name, Classification, cols)
	if err := s.csvTable(ctx, spec, b, "kr-vs-kp.data", nil); err != nil {
		return nil, err
	}
	return b.table("uci")
}

// loadSpambase reads spambase.data (57 features, class 0 = not spam, 1 = spam). No missing
// values; the 391 duplicate rows are kept.
func loadSpambase(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	var names []string
	for _, w := range []string{"make", "address", "all", "3d", "our", "over", "remove", "internet", "order", "mail",
		"receive", "will", "people", "report", "addresses", "free", "business", "email", "you", "credit", "your",
		"font", "000", "money", "hp", "hpl", "george", "650", "lab", "labs", "telnet", "857", "data", "415", "85",
		"technology", "1999", "parts", "pm", "direct", "cs", "meeting", "original", "project", "re", "edu", "table",
		"conference"} {
		names = append(names, "word_freq_"+w)
	}
	for _, c := range []string{";", "(", "[", "!", "$", "#"} {
		names = append(names, "char_freq_"+c)
	}
	names = append(names, "capital_run_length_average", "capital_run_length_longest", "capital_run_length_total")
	cols := append(numericColumns(names...), columnSpec{"class", targetColumn})
	b := newTableBuilder(spec.Name, Classification, cols)
	if err := s.csvTable(ctx, spec, b, "spambase.data", nil); err != nil {
		return nil, err
	}
	return b.table("uci", "391 duplicate rows kept, as published")
}

var steelFeatures = []string{"X_Minimum", "X_Maximum", "Y_Minimum", "Y_Maximum", "Pixels_Areas", "X_Perimeter",
	"Y_Perimeter", "Sum_of_Luminosity", "Minimum_of_Luminosity", "Maximum_of_Luminosity", "Length_of_Conveyer",
	"TypeOfSteel_A300", "TypeOfSteel_A400", "Steel_Plate_Thickness", "Edges_Index", "Empty_Index", "Square_Index",
	"Outside_X_Index", "Edges_X_Index", "Edges_Y_Index", "Outside_Global_Index", "LogOfAreas", "Log_X_Index",
	"Log_Y_Index", "Orientation_Index", "Luminosity_Index", "SigmoidOfAreas"}

var steelFaults = []string{"Pastry", "Z_Scratch", "K_Scatch", "Stains", "Dirtiness", "Bumps", "Other_Faults"}

// loadSteelPlates reads OpenML's steel-plates-fault.arff ("openml": V1..V33, renamed to the UCI
// names, = 27 features + 6 fault flags, which LEAK the target Other_Faults; Class 1 = no = 0,
// 2 = yes = 1) or UCI's Faults.NNA ("uci": the 27 features, same target coded "0"/"1";
// "uci-7class": the 27 features, target the fault type). No missing values.
func loadSteelPlates(ctx context.Context, s Source, spec Spec, variant string) (*Table, error) {
	if variant == "" || variant == "openml" {
		ucinames := append(append([]string(nil), steelFeatures...), steelFaults[:6]...)
		rename := func(n string) string {
			var i int
			if _, err := fmt.Sscanf(n, "V%d", &i); err == nil && i >= 1 && i <= len(ucinames) && n == fmt.Sprintf("V%d", i) {
				return ucinames[i-1]
			}
			return n
		}
		b, err := s.arffTable(ctx, spec, "steel-plates-fault.arff", "Class", nil, rename)
		if err != nil {
			return nil, err
		}
		t, err := b.table("openml", "OpenML steel-plates-fault (the thesis's 33 columns) includes the six other fault flags, from which the target follows exactly: it LEAKS THE LABEL. Use Variant(\"uci\") for the honest task",
			"columns V1..V33 renamed to the UCI names; target Class 1 = not Other_Faults, 2 = Other_Faults")
		if err != nil {
			return nil, err
		}
		t.Target.Name = "Other_Faults"
		return t, nil
	}
	rows, err := s.readDelimited(ctx, spec, "Faults.NNA", format.DelimitedOptions{TrimSpace: true})
	if err != nil {
		return nil, err
	}
	nf := len(steelFeatures)
	if len(rows[0]) != nf+len(steelFaults) {
		return nil, fmt.Errorf("dataset steel_plates: Faults.NNA has %d columns, want %d", len(rows[0]), nf+len(steelFaults))
	}
	cols := append(numericColumns(steelFeatures...), columnSpec{"Other_Faults", targetColumn})
	var note string
	if variant == "uci-7class" {
		cols[nf].name = "fault"
		note = "target: the fault type (the one flag set among the 7 fault columns)"
	} else {
		note = "target: Other_Faults (the other 6 fault flags dropped, so nothing leaks the label)"
	}
	b := newTableBuilder(spec.Name, Classification, cols)
	if variant == "uci-7class" {
		b.classes = steelFaults
	} else {
		b.classes = []string{"0", "1"}
	}
	for i, row := range rows {
		label, err := steelLabel(row[nf:], variant == "uci-7class")
		if err != nil {
			return nil, fmt.Errorf("dataset steel_plates: Faults.NNA: data row %d: %w", i+1, err)
		}
		if err := b.add(append(row[:nf:nf], label), position{file: "Faults.NNA", n: i + 1}); err != nil {
			return nil, err
		}
	}
	return b.table(variant, "UCI Faults.NNA: the 27 features", note)
}

// steelLabel checks that exactly one of the 7 fault flags is 1 and returns the fault's name
// (fault type) or Other_Faults as "0"/"1".
func steelLabel(flags []string, faultType bool) (string, error) {
	set := -1
	for i, f := range flags {
		switch f {
		case "0":
		case "1":
			if set >= 0 {
				return "", fmt.Errorf("fault flags %s and %s are both set", steelFaults[set], steelFaults[i])
			}
			set = i
		default:
			return "", fmt.Errorf("fault flag %s is %q, want 0 or 1", steelFaults[i], f)
		}
	}
	if set < 0 {
		return "", fmt.Errorf("no fault flag is set")
	}
	if faultType {
		return steelFaults[set], nil
	}
	return flags[len(flags)-1], nil
}
