package course

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// courseExperiments are the four experiments of the course notes and lecture (issue 3).
func courseExperiments(t *testing.T) *run.Registry {
	t.Helper()
	reg, err := run.NewRegistry(notesFigRFF(), notesFigNystrom(), lectureFigRFF(), lectureFigKPCA())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestCourseExperimentsSmoke(t *testing.T) {
	reg := courseExperiments(t)
	for _, e := range reg.All() {
		t.Run(e.ID, func(t *testing.T) {
			if e.ID == "notes_fig_nystrom" {
				kittest.UseDataMirror(t)
			}
			dir := t.TempDir()
			kittest.RunAndCheck(t, e, run.Smoke, dir, false)
			kittest.CheckPrintFigure(t, filepath.Join(dir, "figures"), e.ID, courseLegendMethods[e.ID])
		})
	}
}

// courseLegendMethods maps, per figure, the legend entries drawn in a registered style to their
// method (or reference line): the figures' other series (classes, input dimensions, pairs) are not
// methods and keep index styles.
var courseLegendMethods = map[string]map[string]string{
	"notes_fig_nystrom": func() map[string]string {
		m := map[string]string{"slope −1/2": "slope"}
		for method, label := range notesNystromLabels {
			m[label] = method
		}
		return m
	}(),
	"notes_fig_rff":    {"slope −1/2": "slope"},
	"lecture_fig_rff":  {"estimate = exact": "identity"},
	"lecture_fig_kpca": {},
}

func TestCourseExperimentPlans(t *testing.T) {
	reg := courseExperiments(t)
	for _, e := range reg.All() {
		for _, sc := range []run.Scale{run.Smoke, run.Quick, run.Paper} {
			tasks, err := e.Plan(sc)
			if err != nil || len(tasks) < 2 {
				t.Errorf("%s at %s: %d tasks, %v", e.ID, sc, len(tasks), err)
			}
			keys := map[string]bool{}
			for _, task := range tasks {
				if keys[task.Key] {
					t.Errorf("%s at %s: task key %q twice", e.ID, sc, task.Key)
				}
				keys[task.Key] = true
			}
		}
	}
}

func TestMeanL1Distance(t *testing.T) {
	// Pairs of (0,0), (1,2), (3,0): l1 distances 3, 3, 4; mean 10/3.
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 2, 3, 0})
	if got := meanL1Distance(X); math.Abs(got-10.0/3) > 1e-15 {
		t.Errorf("mean l1 distance %v, want 10/3", got)
	}
}

func TestBestThreshold(t *testing.T) {
	for _, tc := range []struct {
		name         string
		score, class []float64
		acc          float64
	}{
		{"separable", []float64{0.1, 0.2, 0.8, 0.9}, []float64{0, 0, 1, 1}, 1},
		{"reversed", []float64{0.1, 0.2, 0.8, 0.9}, []float64{1, 1, 0, 0}, 1},
		{"one mistake", []float64{1, 2, 3, 4, 5}, []float64{0, 1, 0, 1, 1}, 0.8},
		{"ties cannot be split", []float64{1, 1, 1, 1}, []float64{0, 1, 0, 1}, 0.5},
		// Class 1 in the middle: a single threshold gets at best 4 of 6.
		{"interval", []float64{1, 2, 3, 4, 5, 6}, []float64{0, 0, 1, 1, 0, 0}, 4.0 / 6},
	} {
		cut, acc := bestThreshold(tc.score, tc.class)
		if math.Abs(acc-tc.acc) > 1e-15 {
			t.Errorf("%s: accuracy %v, want %v", tc.name, acc, tc.acc)
		}
		// The returned cut must achieve the accuracy (in one orientation).
		correct := 0
		for i, s := range tc.score {
			if (s > cut) == (tc.class[i] == 1) {
				correct++
			}
		}
		got := math.Max(float64(correct), float64(len(tc.score)-correct)) / float64(len(tc.score))
		if got != acc {
			t.Errorf("%s: the cut %v gives accuracy %v, reported %v", tc.name, cut, got, acc)
		}
	}
}

func TestConcentricCircles(t *testing.T) {
	X, class := concentricCircles(rand.New(rand.NewPCG(1, 2)), 2001)
	var sum [2]float64
	var count [2]int
	for i, c := range class {
		sum[int(c)] += math.Hypot(X.At(i, 0), X.At(i, 1))
		count[int(c)]++
	}
	if count[0] != 1001 || count[1] != 1000 {
		t.Fatalf("class sizes %v, want 1001 outer and 1000 inner", count)
	}
	// Mean radius: r plus a bias of about σ²/(2r) from the noise, and a standard error of about
	// 0.05/√1000 ≈ 0.0016.
	for c, r := range []float64{1, circlesFactor} {
		if got := sum[c] / float64(count[c]); math.Abs(got-r) > 0.01 {
			t.Errorf("class %d: mean radius %v, want %v", c, got, r)
		}
	}
}

func TestNotesRFFRateClaim(t *testing.T) {
	// Sup error (1 + 0.05·jitter)·c^exponent over 6 repetitions; at c = 10, below the fit range, a
	// value that must not count.
	build := func(exponent func(p int) float64) *run.Results {
		var rows []run.Row
		for _, p := range notesRFFDims {
			for _, c := range []float64{10, 100, 1000, 10000} {
				for rep := range 6 {
					v := (1 + 0.05*jitter(rep+int(c)%7)) * math.Pow(c, exponent(p))
					if c < notesRFFFitFrom {
						v = 5
					}
					rows = append(rows, run.Row{Dataset: notesRFFDataset, Method: "rff-gaussian", Rep: rep,
						Params: []run.Param{run.P("p", p), run.P("c", c)}, Metric: notesRFFMetric, Value: v})
				}
			}
		}
		return kittest.RowsOf("notes_fig_rff", rows...)
	}
	check := notesRFFRateClaim("g", "rff-gaussian", "Gaussian").Check
	kittest.WantOutcome(t, "c^-1/2", check, build(func(int) float64 { return -0.5 }), verdict.Supported)
	kittest.WantOutcome(t, "c^-0.3 at p = 8", check, build(func(p int) float64 { return map[bool]float64{true: -0.3, false: -0.5}[p == 8] }), verdict.Contradicted)
	kittest.WantOutcome(t, "c^-0.65, on the edge", check, build(func(int) float64 { return -0.65 }), verdict.Inconclusive)
	if _, err := check(kittest.RowsOf("notes_fig_rff")); err == nil {
		t.Error("no results: want an error")
	}
}

func TestNotesNystromGapClaim(t *testing.T) {
	// Best rank-k error 1 in every repetition; Nyström error 1 + g(c)·(1 + 0.05·jitter).
	build := func(gap func(c float64) float64) *run.Results {
		var rows []run.Row
		for rep := range 4 {
			rows = append(rows, run.Row{Dataset: notesNystromData, Method: bestRankAll, Rep: rep, Metric: notesNystromMetric, Value: 1})
			for _, c := range []float64{20, 40, 80, 160} {
				rows = append(rows, run.Row{Dataset: notesNystromData, Method: nystromAll, Rep: rep,
					Params: []run.Param{run.P("c", c)}, Metric: notesNystromMetric, Value: 1 + gap(c)*(1+0.05*jitter(rep+int(c)%5))})
			}
		}
		return kittest.RowsOf("notes_fig_nystrom", rows...)
	}
	check := notesNystromGapClaim("gap", run.Check, "t", nystromAll, bestRankAll).Check
	kittest.WantOutcome(t, "c^-1/2", check, build(func(c float64) float64 { return 10 / math.Sqrt(c) }), verdict.Supported)
	kittest.WantOutcome(t, "c^-0.1, too slow", check, build(func(c float64) float64 { return 10 * math.Pow(c, -0.1) }), verdict.Contradicted)
	kittest.WantOutcome(t, "growing", check, build(func(c float64) float64 { return c }), verdict.Contradicted)
	kittest.WantOutcome(t, "c^-1/4, on the edge", check, build(func(c float64) float64 { return 10 * math.Pow(c, -0.25) }), verdict.Inconclusive)
	kittest.WantOutcome(t, "a gap of 0", check, build(func(c float64) float64 { return map[bool]float64{true: 0, false: 1}[c == 160] }), verdict.Inconclusive)
}

func TestLectureRFFClaims(t *testing.T) {
	// R draws per cell: value = k + bias + sd(n)·z with z a fixed zero-mean, unit-variance pattern
	// (rotated per n, so that the per-repetition means vary), so the sample mean is exactly k + bias
	// and the sample sd exactly sd(n).
	const reps = 8
	pattern := []float64{-1.5, -1, -0.5, 0, 0, 0.5, 1, 1.5}
	scale := math.Sqrt(float64(reps-1) / floats.Dot(pattern, pattern))
	build := func(bias, sd0, exponent float64) *run.Results {
		var rows []run.Row
		for _, k := range lectureRFFKernelValues {
			for i, n := range []float64{10, 100, 1000, 10000} {
				for rep := range reps {
					z := pattern[(rep+3*i)%reps]
					rows = append(rows, run.Row{Dataset: lectureRFFPairs, Method: lectureRFFMethod, Rep: rep,
						Params: []run.Param{run.P("k", k), run.P("n", n)}, Metric: lectureRFFEstimate,
						Value: k + bias + sd0*math.Pow(n, exponent)*z*scale})
				}
			}
		}
		return kittest.RowsOf("lecture_fig_rff", rows...)
	}
	kittest.WantOutcome(t, "unbiased", checkLectureRFFUnbiased, build(0, 0.01, -0.5), verdict.Supported)
	kittest.WantOutcome(t, "bias 0.1", checkLectureRFFUnbiased, build(0.1, 0.01, -0.5), verdict.Contradicted)
	kittest.WantOutcome(t, "unbiased but noisy", checkLectureRFFUnbiased, build(0, 0.5, -0.5), verdict.Inconclusive)
	kittest.WantOutcome(t, "sd ∝ n^{-1/2}", checkLectureRFFRate, build(0, 0.5, -0.5), verdict.Supported)
	kittest.WantOutcome(t, "sd ∝ n^{-1/4}", checkLectureRFFRate, build(0, 0.5, -0.25), verdict.Contradicted)
	// sd ∝ n^{-0.65}, on the edge of the tolerance: the rotated pattern makes each cell's sd exact,
	// so the slope is too; an edge slope is decided by neither one-sided test.
	kittest.WantOutcome(t, "sd ∝ n^{-0.65}", checkLectureRFFRate, build(0, 0.5, -0.5-lectureRFFRateTolerance), verdict.Inconclusive)
}

// circlesAccuracyRows builds lecture_fig_kpca accuracy rows, one per repetition and series.
func circlesAccuracyRows(kernelAcc, linearAcc []float64) *run.Results {
	var rows []run.Row
	for rep := range kernelAcc {
		for _, s := range []struct {
			method string
			gamma  float64
			value  float64
		}{{"kernel-pca", circlesGamma, kernelAcc[rep]}, {"pca", 0, linearAcc[rep]}, {"kernel-pca", circlesGammaExample, 0.8}} {
			rows = append(rows, run.Row{Dataset: circlesDataset, Method: s.method, Params: circlesParams(s.method, s.gamma), Rep: rep,
				Metric: pc1AccuracyName, Value: s.value})
		}
	}
	return kittest.RowsOf("lecture_fig_kpca", rows...)
}

func TestLectureKPCAClaim(t *testing.T) {
	kittest.WantOutcome(t, "separates", checkLectureKPCA, circlesAccuracyRows([]float64{1, 0.99, 1, 0.995, 1}, []float64{0.7, 0.69, 0.71, 0.7, 0.7}), verdict.Supported)
	kittest.WantOutcome(t, "kernel PCA fails", checkLectureKPCA, circlesAccuracyRows([]float64{0.8, 0.82, 0.79, 0.8, 0.81}, []float64{0.7, 0.69, 0.71, 0.7, 0.7}), verdict.Contradicted)
	kittest.WantOutcome(t, "linear PCA separates too", checkLectureKPCA, circlesAccuracyRows([]float64{1, 1, 1, 1, 1}, []float64{0.99, 0.98, 1, 0.99, 0.99}), verdict.Contradicted)
	kittest.WantOutcome(t, "noisy kernel PCA", checkLectureKPCA, circlesAccuracyRows([]float64{1, 0.8, 1, 0.9, 1}, []float64{0.7, 0.69, 0.71, 0.7, 0.7}), verdict.Inconclusive)
}

func TestLectureRFFResultAgainstTheClosedForms(t *testing.T) {
	// Two draws k ± a with a = sd/√2 have mean k and sample sd exactly the closed form
	// √(((1 + K⁴)/2 − K²)/n), whose log-log slope in n is −1/2.
	var cells [][]lectureRFFCell
	for _, k := range []float64{0.2, 0.5} {
		var byN []lectureRFFCell
		for _, n := range []float64{10, 100, 1000} {
			a := math.Sqrt(((1+math.Pow(k, 4))/2-k*k)/n) / math.Sqrt2
			byN = append(byN, lectureRFFCell{k: k, n: n, values: []float64{k - a, k + a}})
		}
		cells = append(cells, byN)
	}
	got, err := lectureRFFResult(cells)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"within 0.0 standard errors", "within 0% of its closed form", "slopes −0.50, −0.50"} {
		if !strings.Contains(got, want) {
			t.Errorf("result %q lacks %q", got, want)
		}
	}
}
