package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
)

// classCounts returns how many rows each class name has.
func classCounts(t *Table) map[string]int {
	out := map[string]int{}
	for _, v := range t.Target.Values {
		out[t.Target.Classes[int(v)]]++
	}
	return out
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TestShapesMatchSourceCounts checks n × d of every data set (and variant) against the counts
// verified in each SOURCE.md.
func TestShapesMatchSourceCounts(t *testing.T) {
	s := mirrorSource(t)
	cases := []struct {
		name, variant string
		n, d          int
	}{
		{"adult", "", 48842, 14}, // 3,620 rows with '?', kept as a category
		{"adult", "train", 32561, 14},
		{"adult", "test", 16281, 14},
		{"boston", "", 506, 13},
		{"breast_cancer", "", 569, 30},
		{"corpus_20newsgroups", "", 18846, 0},
		{"corpus_imdb_reviews", "", 50000, 0},
		{"covtype", "", 31220, 54},
		{"diabetes", "", 442, 10},
		{"diamonds", "", 53940, 9},
		{"enzymes", "", 600, 0},
		{"faces_lfw", "", 9164, 250 * 250},
		{"faces_olivetti", "", 400, 92 * 112},
		{"gamma", "", 19020, 11},
		{"gamma", "uci", 19020, 10},
		{"houses", "", 20640, 8},
		{"kc1", "", 2109, 21},
		{"kin8nm", "", 8192, 8},
		{"kr_vs_kp", "", 3196, 36},
		{"lfw_pairs", "", 2200, 5828},
		{"lfw_pairs", "test", 1000, 5828},
		{"lfw_pairs", "10_folds", 6000, 5828},
		{"mnist", "", 70000, 784},
		{"mnist", "test", 10000, 784},
		{"mutag", "", 188, 0},
		{"ptc_mr", "", 344, 0},
		{"spambase", "", 4601, 57},
		{"steel_plates", "", 1941, 33},
		{"steel_plates", "uci", 1941, 27},
		{"steel_plates", "uci-7class", 1941, 27},
	}
	for _, c := range cases {
		var opts []LoadOption
		if c.variant != "" {
			opts = append(opts, Variant(c.variant))
		}
		sh, err := s.Shape(context.Background(), c.name, opts...)
		if err != nil {
			t.Errorf("%s %s: %v", c.name, c.variant, err)
			continue
		}
		if sh.N != c.n || sh.D != c.d {
			t.Errorf("%s %s: %d x %d, want %d x %d", c.name, c.variant, sh.N, sh.D, c.n, c.d)
		}
	}
}

// TestTabularContentMatchesSource checks class counts and target means quoted in SOURCE.md.
func TestTabularContentMatchesSource(t *testing.T) {
	s := mirrorSource(t)
	ctx := context.Background()
	load := func(name string, opts ...LoadOption) *Table {
		tab, err := s.Table(ctx, name, opts...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tab.Frame.Nrow() != tab.Len() {
			t.Fatalf("%s: frame has %d rows, target %d", name, tab.Frame.Nrow(), tab.Len())
		}
		return tab
	}
	counts := []struct {
		name, variant string
		want          map[string]int
	}{
		{"breast_cancer", "", map[string]int{"B": 357, "M": 212}},
		{"gamma", "", map[string]int{"g": 12332, "h": 6688}},
		{"gamma", "uci", map[string]int{"g": 12332, "h": 6688}},
		{"kc1", "", map[string]int{"false": 1783, "true": 326}},
		{"kr_vs_kp", "", map[string]int{"won": 1669, "nowin": 1527}},
		{"spambase", "", map[string]int{"1": 1813, "0": 2788}},
		{"steel_plates", "", map[string]int{"2": 673, "1": 1268}},
		{"steel_plates", "uci", map[string]int{"1": 673, "0": 1268}},
		{"steel_plates", "uci-7class", map[string]int{"Pastry": 158, "Z_Scratch": 190, "K_Scatch": 391, "Stains": 72,
			"Dirtiness": 55, "Bumps": 402, "Other_Faults": 673}},
	}
	for _, c := range counts {
		var opts []LoadOption
		if c.variant != "" {
			opts = append(opts, Variant(c.variant))
		}
		got := classCounts(load(c.name, opts...))
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s %s: classes %v, want %v", c.name, c.variant, got, c.want)
		}
	}
	means := []struct {
		name string
		want float64
		tol  float64
	}{
		{"boston", 22.5328, 1e-4},
		{"diabetes", 152.1335, 1e-4},
		{"diamonds", 3932.7997, 1e-4},
		{"houses", 206855.8169, 1e-4},
		{"kin8nm", 0.714283, 1e-6},
	}
	for _, c := range means {
		if got := mean(load(c.name).Target.Values); math.Abs(got-c.want) > c.tol {
			t.Errorf("%s: target mean %.6f, want %.6f", c.name, got, c.want)
		}
	}

	adult := load("adult")
	train, test := load("adult", Variant("train")), load("adult", Variant("test"))
	if adult.Len() != train.Len()+test.Len() || adult.Target.Classes[0] != "<=50K" {
		t.Errorf("adult: %d rows, train %d + test %d; classes %v", adult.Len(), train.Len(), test.Len(), adult.Target.Classes)
	}
	if !contains(adult.Notes, `missing values ("?") in categorical columns kept as a category of their own: workclass 2799, occupation 2809, native-country 857`) {
		t.Errorf("adult notes %q", adult.Notes)
	}

	diamonds := load("diamonds")
	cuts := map[string]int{}
	for _, c := range diamonds.Frame.Col("cut").Records() {
		cuts[c]++
	}
	if fmt.Sprint(cuts) != fmt.Sprint(map[string]int{"Ideal": 21551, "Premium": 13791, "Very Good": 12082, "Good": 4906, "Fair": 1610}) {
		t.Errorf("diamonds cut counts %v", cuts)
	}
	m, err := diamonds.Matrix(Prep{})
	if err != nil {
		t.Fatal(err)
	}
	// Row 1: 0.23,"Ideal","E","SI2",61.5,55,(326),3.95,3.98,2.43; codes: Ideal is 2 in
	// Fair, Good, Ideal, Premium, Very Good; E is 1 of D..J; SI2 is 3 of I1, IF, SI1, SI2, VS1, ...
	if row := []float64{0.23, 2, 1, 3, 61.5, 55, 3.95, 3.98, 2.43}; !slices.Equal(m.RawRowView(0), row) {
		t.Errorf("diamonds row 1 = %v, want %v", m.RawRowView(0), row)
	}

	cov := load("covtype")
	if cov.Variant != "subset-31220" || cov.Target.Classes[4] != "5" {
		t.Errorf("covtype variant %s classes %v", cov.Variant, cov.Target.Classes)
	}
	// The first UCI row: 2596,51,3,258,0,510,221,232,148,6279, wilderness 1, soil 29, class 5.
	first := cov.Frame.Subset([]int{0})
	if first.Elem(0, 0).Float() != 2596 || first.Elem(0, 9).Float() != 6279 || first.Elem(0, 10).Float() != 1 ||
		first.Elem(0, 14+28).Float() != 1 || cov.Target.Values[0] != 4 {
		t.Errorf("covtype row 1 = %v, class code %v", first.Records(), cov.Target.Values[0])
	}
	// The prefix's class counts plus covsample's, minus the 98 shared rows: only the prefix
	// total is in SOURCE.md per class, so check the totals of classes 3, 4, 6, 7 (the shared
	// rows 15,121..19,971 hold only classes 1, 2 and 5).
	got := classCounts(cov)
	for class, want := range map[string]int{"3": 2160 + 675, "4": 2160 + 8, "6": 2160 + 319, "7": 2160 + 352} {
		if got[class] != want {
			t.Errorf("covtype class %s: %d rows, want %d", class, got[class], want)
		}
	}
}

func TestMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 70,000 images")
	}
	s := mirrorSource(t)
	tab, err := s.Table(context.Background(), "mnist")
	if err != nil {
		t.Fatal(err)
	}
	n, d := tab.Dense.Dims()
	if n != 70000 || d != 784 || tab.Frame.Ncol() != 0 {
		t.Fatalf("mnist %d x %d", n, d)
	}
	train := []int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}
	test := []int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}
	got := make([]int, 10)
	for i, v := range tab.Target.Values {
		got[int(v)]++
		if i == 59999 {
			if !slices.Equal(got, train) {
				t.Errorf("training digits %v, want %v", got, train)
			}
		}
	}
	for k := range got {
		got[k] -= train[k]
	}
	if !slices.Equal(got, test) {
		t.Errorf("test digits %v, want %v", got, test)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range tab.Dense.RawMatrix().Data {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo != 0 || hi != 1 {
		t.Errorf("pixel range [%v, %v], want [0, 1]", lo, hi)
	}
}

// TestLFWPairsMatchScikitLearn checks the reference sums and first pixels of SOURCE.md.
func TestLFWPairsMatchScikitLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes the LFW strips")
	}
	s := mirrorSource(t)
	for _, c := range []struct {
		subset string
		sum    float64
		first  []float64
	}{
		{"train", 6215056.449782, []float64{0.30718955, 0.28758171, 0.33071896}},
		{"test", 2835447.667072, []float64{0.26274511, 0.18039216, 0.20130719}},
	} {
		tab, err := s.Table(context.Background(), "lfw_pairs", Variant(c.subset))
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, v := range tab.Dense.RawMatrix().Data {
			sum += v
		}
		if math.Abs(sum-c.sum) > 1e-4 {
			t.Errorf("%s: sum %.6f, want %.6f", c.subset, sum, c.sum)
		}
		for k, want := range c.first {
			if got := tab.Dense.At(0, k); math.Abs(got-want) > 5e-9 {
				t.Errorf("%s: pairs[0,0,0,%d] = %.8f, want %.8f", c.subset, k, got, want)
			}
		}
		if same := classCounts(tab)["same"]; same != tab.Len()/2 {
			t.Errorf("%s: %d same-person pairs of %d", c.subset, same, tab.Len())
		}
	}
}

func TestGraphSets(t *testing.T) {
	s := mirrorSource(t)
	for _, c := range []struct {
		name          string
		labels        map[int]int
		nodes, edges  int
		attrs         int
		nodeLabels    bool
		hasEdgeLabels bool
	}{
		{"mutag", map[int]int{1: 125, -1: 63}, 3371, 3721, 0, true, true},
		{"ptc_mr", map[int]int{1: 152, -1: 192}, 4915, 5054, 0, true, true},
		{"enzymes", map[int]int{1: 100, 2: 100, 3: 100, 4: 100, 5: 100, 6: 100}, 19580, 37282, 18, true, false},
	} {
		g, err := s.Graphs(context.Background(), c.name)
		if err != nil {
			t.Fatal(err)
		}
		labels := map[int]int{}
		nodes, edges := 0, 0
		for i, gr := range g.Graphs {
			labels[g.Labels[i]]++
			nodes += len(gr.NodeLabels)
			edges += len(gr.Edges)
			if (gr.EdgeLabels != nil) != c.hasEdgeLabels || c.attrs > 0 && len(gr.NodeAttributes[0]) != c.attrs {
				t.Fatalf("%s graph %d: edge labels %v, attributes %v", c.name, i, gr.EdgeLabels != nil, gr.NodeAttributes != nil)
			}
		}
		if fmt.Sprint(labels) != fmt.Sprint(c.labels) || nodes != c.nodes || edges != c.edges {
			t.Errorf("%s: labels %v, %d nodes, %d edges; want %v, %d, %d", c.name, labels, nodes, edges, c.labels, c.nodes, c.edges)
		}
	}
	if _, err := s.Graphs(context.Background(), "adult"); err == nil {
		t.Error("adult loaded as graphs")
	}
}

func TestOlivettiFaces(t *testing.T) {
	s := mirrorSource(t)
	f, err := s.Faces(context.Background(), "faces_olivetti", 1)
	if err != nil {
		t.Fatal(err)
	}
	if f.Height != 112 || f.Width != 92 || len(f.Person) != 400 || f.Person[0] != "s1" || f.Person[10] != "s2" || f.Person[399] != "s40" {
		t.Fatalf("%dx%d, people %v..%v", f.Width, f.Height, f.Person[0], f.Person[399])
	}
	data := f.Pixels.RawMatrix().Data
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range data {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	// SOURCE.md: pixel range 0..251, mean 112.6.
	if lo != 0 || hi != 251.0/255 || math.Abs(mean(data)*255-112.6) > 0.05 {
		t.Errorf("range [%v, %v]·255, mean %v·255", lo*255, hi*255, mean(data)*255)
	}
	// Downscaling by 3 averages 3×3 blocks: 37×30, checked by brute force on image 7.
	g, err := s.Faces(context.Background(), "faces_olivetti", 3)
	if err != nil {
		t.Fatal(err)
	}
	if g.Height != 37 || g.Width != 30 {
		t.Fatalf("downscaled to %dx%d", g.Width, g.Height)
	}
	for y := 0; y < 37; y++ {
		for x := 0; x < 30; x++ {
			var sum float64
			for dy := 0; dy < 3; dy++ {
				for dx := 0; dx < 3; dx++ {
					sum += f.Pixels.At(7, (3*y+dy)*92+3*x+dx)
				}
			}
			if got := g.Pixels.At(7, y*30+x); math.Abs(got-sum/9) > 1e-12 {
				t.Fatalf("pixel (%d,%d) = %v, want %v", y, x, got, sum/9)
			}
		}
	}
	if _, err := s.Faces(context.Background(), "faces_olivetti", 0); err == nil {
		t.Error("downscale 0 accepted")
	}
}

func TestLFWFaces(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 9,164 JPEGs")
	}
	s := mirrorSource(t)
	f, err := s.Faces(context.Background(), "faces_lfw", 10)
	if err != nil {
		t.Fatal(err)
	}
	people := map[string]int{}
	for _, p := range f.Person {
		people[p]++
	}
	if f.Height != 25 || f.Width != 25 || len(f.Person) != 9164 || len(people) != 1680 || people["George_W_Bush"] != 530 {
		t.Fatalf("%dx%d, %d images of %d people, %d of George_W_Bush", f.Width, f.Height, len(f.Person), len(people), people["George_W_Bush"])
	}
	for _, v := range f.Pixels.RawMatrix().Data {
		if v < 0 || v > 1 {
			t.Fatalf("pixel %v outside [0,1]", v)
		}
	}
}

func TestCorpora(t *testing.T) {
	s := mirrorSource(t)
	news, err := s.Corpus(context.Background(), "corpus_20newsgroups", 0)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]int{}
	for _, l := range news.Labels {
		groups[l]++
	}
	if len(news.Docs) != 18846 || len(groups) != 20 || groups["alt.atheism"] != 480+319 || groups["talk.religion.misc"] != 377+251 {
		t.Fatalf("%d messages in %d groups, alt.atheism %d", len(news.Docs), len(groups), groups["alt.atheism"])
	}
	few, err := s.Corpus(context.Background(), "corpus_20newsgroups", 1000)
	if err != nil {
		t.Fatal(err)
	}
	fewGroups := map[string]bool{}
	for _, l := range few.Labels {
		fewGroups[l] = true
	}
	if len(few.Docs) != 1000 || len(fewGroups) != 20 || few.Docs[1] != news.Docs[18] {
		t.Fatalf("maxDocs 1000: %d docs over %d groups", len(few.Docs), len(fewGroups))
	}
	imdb, err := s.Corpus(context.Background(), "corpus_imdb_reviews", 0)
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for _, l := range imdb.Labels {
		if l == "pos" {
			pos++
		}
	}
	if len(imdb.Docs) != 50000 || pos != 25000 {
		t.Fatalf("%d reviews, %d positive", len(imdb.Docs), pos)
	}
	if _, err := s.Corpus(context.Background(), "mnist", 0); err == nil {
		t.Error("mnist loaded as a corpus")
	}
}

func TestTableRejectsUnknownVariantAndNonTables(t *testing.T) {
	s := mirrorSource(t)
	if _, err := s.Table(context.Background(), "gamma", Variant("full")); err == nil {
		t.Error("unknown variant accepted")
	}
	if _, err := s.Table(context.Background(), "enzymes"); err == nil {
		t.Error("graph set loaded as a table")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Table(ctx, "adult"); err == nil {
		t.Error("cancelled context ignored")
	}
}
