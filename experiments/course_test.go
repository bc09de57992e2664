package experiments

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/run"
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

// runCourseExperiment executes e at scale sc into dir, renders it and checks its claims, failing the
// test on any error, a missing figure or a claim that does not pass.
func runCourseExperiment(t *testing.T, e *run.Experiment, sc run.Scale, dir string) []run.ClaimResult {
	return runAndCheck(t, e, sc, dir, true)
}

// runAndCheck is runCourseExperiment; with requirePass false a failing claim is only logged (for
// claims that may honestly fail on our data), while a claim that cannot be evaluated still fails.
func runAndCheck(t *testing.T, e *run.Experiment, sc run.Scale, dir string, requirePass bool) []run.ClaimResult {
	t.Helper()
	res, err := run.Execute(context.Background(), e, run.Options{Scale: sc, Dir: dir})
	if err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	figDir := filepath.Join(dir, "figures")
	if err := run.Render(e, res, figDir); err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	for _, ext := range []string{".png", ".svg"} {
		if fi, err := os.Stat(filepath.Join(figDir, e.ID+ext)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: no %s figure (%v)", e.ID, ext, err)
		}
	}
	claims := run.CheckClaims(e, res)
	if len(claims) != len(e.Claims) {
		t.Fatalf("%s: %d claim results for %d claims", e.ID, len(claims), len(e.Claims))
	}
	for _, c := range claims {
		t.Logf("%s %s: %s — %s", e.ID, c.ClaimID, c.Status, c.Evidence)
		if c.Status != run.StatusSupported && (requirePass || c.Status == run.StatusError || c.Status == run.StatusNotRun) {
			t.Errorf("%s %s: %s — %s", e.ID, c.ClaimID, c.Status, c.Evidence)
		}
	}
	return claims
}

// useDataMirror points the data loaders at the offline mirror (LAB_DATA_MIRROR, else
// /work/shared/datasets) and skips the test when there is none.
func useDataMirror(t *testing.T) {
	t.Helper()
	dir := os.Getenv("LAB_DATA_MIRROR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "datasets")
	}
	if _, err := os.Stat(filepath.Join(dir, "houses")); err != nil {
		t.Skipf("no data mirror with houses at %s (set LAB_DATA_MIRROR)", dir)
	}
	t.Setenv("LAB_DATA_MIRROR", dir)
}

func TestCourseExperimentsSmoke(t *testing.T) {
	reg := courseExperiments(t)
	for _, e := range reg.All() {
		t.Run(e.ID, func(t *testing.T) {
			if e.ID == "notes_fig_nystrom" {
				useDataMirror(t)
			}
			runCourseExperiment(t, e, run.Smoke, t.TempDir())
		})
	}
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
		if _, err := e.Plan("huge"); err == nil {
			t.Errorf("%s: an unknown scale must be an error", e.ID)
		}
	}
}

func TestLogLogSlope(t *testing.T) {
	x := []float64{10, 100, 1000, 10000}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = 3 / math.Sqrt(v)
	}
	slope, err := logLogSlope(x, y)
	if err != nil || math.Abs(slope+0.5) > 1e-12 {
		t.Errorf("slope of 3/√x: %v, %v; want −0.5", slope, err)
	}
	for _, bad := range [][2][]float64{
		{{1}, {1}}, {{1, 2}, {1}}, {{1, 1}, {1, 2}}, {{1, 2}, {0, 1}}, {{-1, 2}, {1, 1}}, {{1, math.Inf(1)}, {1, 1}},
	} {
		if _, err := logLogSlope(bad[0], bad[1]); err == nil {
			t.Errorf("logLogSlope(%v, %v): want an error", bad[0], bad[1])
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

// rowsOf builds a Results from (dataset, method, params, rep, metric, value) rows.
func rowsOf(id string, rows ...run.Row) *run.Results {
	for i := range rows {
		rows[i].ID = id
	}
	return &run.Results{ID: id, Scale: run.Smoke, Rows: rows}
}

func TestNotesRFFRateClaim(t *testing.T) {
	build := func(exponent float64) *run.Results {
		var rows []run.Row
		for _, p := range notesRFFDims {
			for _, c := range []float64{10, 100, 1000, 10000} {
				for rep := range 2 {
					rows = append(rows, run.Row{Dataset: notesRFFDataset, Method: "rff-gaussian", Rep: rep,
						Params: []run.Param{run.P("p", p), run.P("c", c)}, Metric: notesRFFMetric,
						// The point at c = 10, below the fit range, must not count.
						Value: map[bool]float64{true: 5, false: math.Pow(c, exponent)}[c < notesRFFFitFrom]})
				}
			}
		}
		return rowsOf("notes_fig_rff", rows...)
	}
	claim := notesRFFRateClaim("g", "rff-gaussian", "Gaussian")
	for _, tc := range []struct {
		exponent float64
		pass     bool
	}{{-0.5, true}, {-0.64, true}, {-0.66, false}, {-0.3, false}} {
		v, err := claim.Check(build(tc.exponent))
		if err != nil || (v.Outcome == run.Supported) != tc.pass {
			t.Errorf("exponent %v: %+v, %v; want pass %v", tc.exponent, v, err, tc.pass)
		}
	}
	if _, err := claim.Check(rowsOf("notes_fig_rff")); err == nil {
		t.Error("no results: want an error")
	}
}

func TestNotesNystromGapClaim(t *testing.T) {
	// Best rank-k error 1 in both repetitions; Nyström error 1 + g(c).
	build := func(gap func(c float64) float64) *run.Results {
		var rows []run.Row
		for rep := range 2 {
			rows = append(rows, run.Row{Dataset: notesNystromData, Method: bestRankAll, Rep: rep, Metric: notesNystromMetric, Value: 1})
			for _, c := range []float64{20, 40, 80, 160} {
				rows = append(rows, run.Row{Dataset: notesNystromData, Method: nystromAll, Rep: rep,
					Params: []run.Param{run.P("c", c)}, Metric: notesNystromMetric, Value: 1 + gap(c)})
			}
		}
		return rowsOf("notes_fig_nystrom", rows...)
	}
	claim := notesNystromGapClaim("gap", "t", nystromAll, bestRankAll)
	// The threshold is (20/160)^{1/4} ≈ 0.595 of the first gap.
	for _, tc := range []struct {
		name string
		gap  func(c float64) float64
		pass bool
	}{
		{"c^-1/2", func(c float64) float64 { return 10 / math.Sqrt(c) }, true},
		{"c^-0.2, too slow", func(c float64) float64 { return 10 * math.Pow(c, -0.2) }, false},
		{"growing", func(c float64) float64 { return c }, false},
	} {
		v, err := claim.Check(build(tc.gap))
		if err != nil || (v.Outcome == run.Supported) != tc.pass {
			t.Errorf("%s: %+v, %v; want pass %v", tc.name, v, err, tc.pass)
		}
	}
}

func TestLectureRFFClaims(t *testing.T) {
	// R draws per cell: value = k + bias + sd(n)·z with z a fixed zero-mean, unit-variance pattern, so
	// the sample mean is exactly k + bias and the sample sd exactly sd(n).
	const reps = 8
	pattern := []float64{-1.5, -1, -0.5, 0, 0, 0.5, 1, 1.5}
	scale := math.Sqrt(float64(reps-1) / floats.Dot(pattern, pattern))
	build := func(bias, exponent float64) *run.Results {
		var rows []run.Row
		for _, k := range lectureRFFKernelValues {
			for _, n := range []float64{10, 100, 1000} {
				for rep, z := range pattern {
					rows = append(rows, run.Row{Dataset: lectureRFFPairs, Method: lectureRFFMethod, Rep: rep,
						Params: []run.Param{run.P("k", k), run.P("n", n)}, Metric: lectureRFFEstimate,
						Value: k + bias + 0.5*math.Pow(n, exponent)*z*scale})
				}
			}
		}
		return rowsOf("lecture_fig_rff", rows...)
	}
	v, err := checkLectureRFFUnbiased(build(0, -0.5))
	if err != nil || !(v.Outcome == run.Supported) {
		t.Errorf("unbiased draws: %+v, %v", v, err)
	}
	// A bias of 0.1 against a standard error of at most 0.5·10^{-1/2}/√8 ≈ 0.056 gives t ≥ 1.8 at
	// n = 10, and t = 17.9 at n = 1000, far above the threshold (about 7 for 7 degrees of freedom).
	if v, err := checkLectureRFFUnbiased(build(0.1, -0.5)); err != nil || (v.Outcome == run.Supported) {
		t.Errorf("biased draws: %+v, %v", v, err)
	}
	if v, err := checkLectureRFFRate(build(0, -0.5)); err != nil || !(v.Outcome == run.Supported) {
		t.Errorf("sd ∝ n^{-1/2}: %+v, %v", v, err)
	}
	if v, err := checkLectureRFFRate(build(0, -0.25)); err != nil || (v.Outcome == run.Supported) {
		t.Errorf("sd ∝ n^{-1/4}: %+v, %v", v, err)
	}
}
