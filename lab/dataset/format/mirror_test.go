package format

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset/internal/mirrortest"
)

// openMirror opens a mirror file, decompressing .gz files.
func openMirror(t *testing.T, parts ...string) io.Reader {
	t.Helper()
	path := filepath.Join(append([]string{mirrortest.Dir(t)}, parts...)...)
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("mirror file missing: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	if !strings.HasSuffix(path, ".gz") {
		return bufio.NewReader(f)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func countValues(rows [][]string, col int) map[string]int {
	counts := map[string]int{}
	for _, r := range rows {
		counts[r[col]]++
	}
	return counts
}

func TestMirrorARFF(t *testing.T) {
	cases := []struct {
		dir, file   string
		rows, attrs int
	}{
		{"kc1", "kc1.arff", 2109, 22},
		{"kr_vs_kp", "kr-vs-kp.arff", 3196, 37},
		{"spambase", "spambase.arff", 4601, 58},
		{"breast_cancer", "wdbc.arff", 569, 31},
		{"steel_plates", "steel-plates-fault.arff", 1941, 34},
		{"gamma", "MagicTelescope.arff.gz", 19020, 12},
		{"kin8nm", "kin8nm.arff.gz", 8192, 9},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			a, err := ReadARFF(openMirror(t, c.dir, c.file), c.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Rows) != c.rows || len(a.Attributes) != c.attrs {
				t.Errorf("%d rows × %d attributes, want %d × %d", len(a.Rows), len(a.Attributes), c.rows, c.attrs)
			}
		})
	}
	a, err := ReadARFF(openMirror(t, "kc1", "kc1.arff"), "kc1.arff")
	if err != nil {
		t.Fatal(err)
	}
	last := a.Attributes[21]
	if a.Relation != "KC1" || last.Name != "defects" || !reflect.DeepEqual(last.Nominal, []string{"false", "true"}) {
		t.Errorf("relation %q, last attribute %+v", a.Relation, last)
	}
	if got := countValues(a.Rows, 21); got["false"] != 1783 || got["true"] != 326 {
		t.Errorf("kc1 labels %v, want false 1783, true 326", got)
	}
	if a.Rows[0][0] != "1.1" || a.Rows[0][1] != "1.4" {
		t.Errorf("kc1 first row starts %q", a.Rows[0][:2])
	}
}

func TestMirrorDelimited(t *testing.T) {
	adult := DelimitedOptions{Sep: ',', TrimSpace: true, Comment: "|", SkipBlank: true, TrimLastDot: true}
	cases := []struct {
		dir, file     string
		opt           DelimitedOptions
		rows, columns int
		labels        map[string]int // counts of the last column, when checked
	}{
		{"adult", "adult.data.gz", adult, 32561, 15, map[string]int{"<=50K": 24720, ">50K": 7841}},
		{"adult", "adult.test.gz", adult, 16281, 15, map[string]int{"<=50K": 12435, ">50K": 3846}},
		{"boston", "housing.data", DelimitedOptions{}, 506, 14, nil},
		{"steel_plates", "Faults.NNA", DelimitedOptions{Sep: '\t'}, 1941, 34, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			rows, err := ReadDelimited(openMirror(t, c.dir, c.file), c.file, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != c.rows || len(rows[0]) != c.columns {
				t.Fatalf("%d rows × %d columns, want %d × %d", len(rows), len(rows[0]), c.rows, c.columns)
			}
			if c.labels != nil {
				if got := countValues(rows, c.columns-1); !reflect.DeepEqual(got, c.labels) {
					t.Errorf("labels %v, want %v", got, c.labels)
				}
			}
		})
	}
}

func TestMirrorMNIST(t *testing.T) {
	labels, err := ReadIDX(openMirror(t, "mnist", "t10k-labels-idx1-ubyte.gz"), "t10k-labels-idx1-ubyte")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(labels.Dims, []int{10000}) {
		t.Errorf("label dims %v, want [10000]", labels.Dims)
	}
	counts := make([]int, 10)
	for _, l := range labels.Data {
		counts[l]++
	}
	if want := []int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}; !reflect.DeepEqual(counts, want) {
		t.Errorf("digit counts %v, want %v", counts, want)
	}
	images, err := ReadIDX(openMirror(t, "mnist", "t10k-images-idx3-ubyte.gz"), "t10k-images-idx3-ubyte")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(images.Dims, []int{10000, 28, 28}) || len(images.Data) != 7840000 {
		t.Errorf("image dims %v, %d bytes", images.Dims, len(images.Data))
	}
}

// tuFiles opens the TU files of a mirror folder; optional ones are nil when missing.
func tuFiles(t *testing.T, dir, prefix string) TUFiles {
	open := func(suffix string, required bool) io.Reader {
		for _, name := range []string{prefix + suffix, prefix + suffix + ".gz"} {
			if _, err := os.Stat(filepath.Join(mirrortest.Dir(t), dir, name)); err == nil {
				return openMirror(t, dir, name)
			}
		}
		if required {
			t.Skipf("%s%s missing from the mirror", prefix, suffix)
		}
		return nil
	}
	return TUFiles{
		A: open("_A.txt", true), GraphIndicator: open("_graph_indicator.txt", true), GraphLabels: open("_graph_labels.txt", true),
		NodeLabels: open("_node_labels.txt", false), EdgeLabels: open("_edge_labels.txt", false),
		NodeAttributes: open("_node_attributes.txt", false),
	}
}

func TestMirrorTU(t *testing.T) {
	cases := []struct {
		dir, prefix                 string
		graphs, nodes, edges, attrs int
		graphLabels                 map[int]int
		nodeLabels, edgeLabels      map[int]int // per undirected edge; nil = not checked
	}{
		{"mutag", "MUTAG", 188, 3371, 3721, 0, map[int]int{1: 125, -1: 63},
			map[int]int{0: 2395, 1: 345, 2: 593, 3: 12, 4: 1, 5: 23, 6: 2},
			map[int]int{0: 4708 / 2, 1: 2008 / 2, 2: 724 / 2, 3: 2 / 2}},
		{"ptc_mr", "PTC_MR", 344, 4915, 5054, 0, nil, nil,
			map[int]int{0: 12 / 2, 1: 852 / 2, 2: 5276 / 2, 3: 3968 / 2}},
		{"enzymes", "ENZYMES", 600, 19580, 37282, 18, map[int]int{1: 100, 2: 100, 3: 100, 4: 100, 5: 100, 6: 100},
			map[int]int{1: 9457, 2: 9665, 3: 458}, nil},
	}
	for _, c := range cases {
		t.Run(c.prefix, func(t *testing.T) {
			graphs, err := ReadTU(tuFiles(t, c.dir, c.prefix), c.prefix)
			if err != nil {
				t.Fatal(err)
			}
			nodes, edges := 0, 0
			graphLabels, nodeLabels, edgeLabels := map[int]int{}, map[int]int{}, map[int]int{}
			for _, g := range graphs {
				nodes += len(g.NodeLabels)
				edges += len(g.Edges)
				graphLabels[g.Label]++
				for _, l := range g.NodeLabels {
					nodeLabels[l]++
				}
				for _, l := range g.EdgeLabels {
					edgeLabels[l]++
				}
				if c.attrs > 0 && (len(g.NodeAttributes) != len(g.NodeLabels) || len(g.NodeAttributes[0]) != c.attrs) {
					t.Fatalf("node attributes %d × %d", len(g.NodeAttributes), len(g.NodeAttributes[0]))
				}
			}
			if len(graphs) != c.graphs || nodes != c.nodes || edges != c.edges {
				t.Errorf("%d graphs, %d nodes, %d edges; want %d, %d, %d", len(graphs), nodes, edges, c.graphs, c.nodes, c.edges)
			}
			for _, check := range []struct {
				what      string
				got, want map[int]int
			}{{"graph labels", graphLabels, c.graphLabels}, {"node labels", nodeLabels, c.nodeLabels}, {"edge labels", edgeLabels, c.edgeLabels}} {
				if check.want != nil && !reflect.DeepEqual(check.got, check.want) {
					t.Errorf("%s %v, want %v", check.what, check.got, check.want)
				}
			}
		})
	}
}

func TestMirrorOlivettiTar(t *testing.T) {
	var images, pixels int
	var sum float64
	err := WalkTar(openMirror(t, "faces_olivetti", "orl_faces.tar.gz"), "orl_faces.tar", func(path string, size int64, body io.Reader) error {
		if !strings.HasSuffix(path, ".pgm") {
			return nil
		}
		img, err := ReadPGM(body, path)
		if err != nil {
			return err
		}
		if b := img.Bounds(); b.Dx() != 92 || b.Dy() != 112 || size != 10318 {
			return fmt.Errorf("%v image in %d bytes", b, size)
		}
		images++
		for _, v := range mustGrayScaled(t, img) {
			sum += v * 255
			pixels++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if images != 400 {
		t.Errorf("%d images, want 400", images)
	}
	if mean := sum / float64(pixels); mean < 112.55 || mean >= 112.65 {
		t.Errorf("mean pixel %.3f, want 112.6 (SOURCE.md)", mean)
	}
}

// Face 5 is pairs_train.tsv's first face; SOURCE.md gives scikit-learn's
// pairs[0,0,0,0:3] for the train subset.
func TestMirrorLFWPairsFace(t *testing.T) {
	first := bufio.NewScanner(openMirror(t, "lfw_pairs", "pairs_train.tsv"))
	first.Scan() // header
	first.Scan()
	face, err := strconv.Atoi(strings.Fields(first.Text())[0])
	if err != nil || face != 5 {
		t.Fatalf("first train face %q (%v), want 5", first.Text(), err)
	}
	strip, err := png.Decode(openMirror(t, "lfw_pairs", fmt.Sprintf("faces_rgb_62x47_%02d.png", face/500)))
	if err != nil {
		t.Fatal(err)
	}
	tile, err := StripTile(strip, 62, face%500)
	if err != nil {
		t.Fatal(err)
	}
	gray := mustGrayMean(t, tile)
	if len(gray) != 62*47 {
		t.Fatalf("%d values, want 62×47", len(gray))
	}
	for k, want := range []string{"0.30718955", "0.28758171", "0.33071896"} {
		if got := strconv.FormatFloat(float64(gray[k]), 'f', 8, 32); got != want {
			t.Errorf("pixel %d = %s, want %s", k, got, want)
		}
	}
}

// The whole train subset, rebuilt from the strips, must give SOURCE.md's float64 sum of
// scikit-learn's float32 array (6215056.449782 over 2200 × 2 × 62 × 47 values).
func TestMirrorLFWPairsTrainSum(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes all 19 strips")
	}
	pairs, err := ReadDelimited(openMirror(t, "lfw_pairs", "pairs_train.tsv"), "pairs_train.tsv",
		DelimitedOptions{Sep: '\t', Comment: "face_id_1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2200 {
		t.Fatalf("%d pairs, want 2200", len(pairs))
	}
	faceSums := map[int]float64{} // face id → sum of its gray values
	for _, p := range pairs {
		for _, s := range p[:2] {
			id, err := strconv.Atoi(s)
			if err != nil {
				t.Fatal(err)
			}
			faceSums[id] = 0
		}
	}
	for file := 0; file <= 18; file++ {
		strip, err := png.Decode(openMirror(t, "lfw_pairs", fmt.Sprintf("faces_rgb_62x47_%02d.png", file)))
		if err != nil {
			t.Fatal(err)
		}
		for id := range faceSums {
			if id/500 != file {
				continue
			}
			tile, err := StripTile(strip, 62, id%500)
			if err != nil {
				t.Fatal(err)
			}
			var s float64
			for _, v := range mustGrayMean(t, tile) {
				s += float64(v)
			}
			faceSums[id] = s
		}
	}
	var total float64
	for _, p := range pairs {
		for _, s := range p[:2] {
			id, _ := strconv.Atoi(s)
			total += faceSums[id]
		}
	}
	if math.Abs(total-6215056.449782) > 1e-4 {
		t.Errorf("train sum %.6f, want 6215056.449782", total)
	}
}
