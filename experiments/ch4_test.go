package experiments

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/graphkernel"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/mmd"
	"github.com/fastkernels/kernellab/lab/run"
)

// ch4Figures are the experiments of chapter 4 with their sizes and their dataset column.
var ch4Figures = []struct {
	build   func() *run.Experiment
	sizes   map[run.Scale]mmdSizes
	dataset string
	graphs  bool
}{
	{fig4_2, fig4_2Sizes, fig4_2Dataset, false},
	{fig4_3, fig4_3Sizes, fig4_3Dataset, false},
	{fig4_4, fig4_4Sizes, fig4_4Dataset, false},
	{fig4_5, fig4_5Sizes, fig4_5Dataset, true},
}

// Every figure runs end to end at smoke scale: each method has an error rate and a time at every
// n, the exact MMD and Δ exactly at the n ≤ exactMax, RFF only on vectors. Claims are evaluated
// (they may fail at smoke scale) but must not be in error.
func TestCh4Smoke(t *testing.T) {
	useDataMirror(t)
	for _, fig := range ch4Figures {
		e := fig.build()
		t.Run(e.ID, func(t *testing.T) {
			dir := t.TempDir()
			runAndCheck(t, e, run.Smoke, dir, false)
			res, err := run.Load(e, run.Smoke, dir)
			if err != nil {
				t.Fatal(err)
			}
			sz := fig.sizes[run.Smoke]
			if got, err := mmdDraws(res, fig.dataset); err != nil || got != sz.tasks*sz.drawsPerTask {
				t.Errorf("draws %d (%v), want %d", got, err, sz.tasks*sz.drawsPerTask)
			}
			methods := []string{"linear", "block", "rff", "nystrom", "exact"}
			for _, m := range methods {
				for _, metric := range []string{mmdMetricError, mmdMetricSeconds, mmdMetricDelta} {
					var want []int
					for _, n := range sz.n {
						ran := !(m == "rff" && fig.graphs) && (m != "exact" || n <= sz.exactMax)
						if ran && (metric != mmdMetricDelta || (m != "exact" && n <= sz.exactMax)) {
							for range sz.tasks {
								want = append(want, n)
							}
						}
					}
					var got []int
					for _, r := range res.Where(fig.dataset, m, metric) {
						n, err := r.ParamFloat("n")
						if err != nil {
							t.Fatal(err)
						}
						if metric == mmdMetricError && !(r.Value >= 0 && r.Value <= 1) {
							t.Errorf("%s error rate %g outside [0, 1]", m, r.Value)
						}
						if metric != mmdMetricError && !(r.Value >= 0) {
							t.Errorf("%s %s %g, want ≥ 0", m, metric, r.Value)
						}
						got = append(got, int(n))
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Errorf("%s %s rows at n = %v, want %v", m, metric, got, want)
					}
				}
			}
		})
	}
}

// The plans give tasks × drawsPerTask draws with unique keys at every scale, the paper scale has
// the catalogue's draws, the sizes fit the data (two disjoint samples of P_X), and an unknown scale
// is an error.
func TestCh4Plans(t *testing.T) {
	paperDraws := map[string]int{"fig4_2": 200, "fig4_3": 500, "fig4_4": 500, "fig4_5": 500}
	// The largest n two disjoint samples of P_X allow: MNIST's 35,735 images of 0–4, Covertype's
	// 7,134 rows of class 1 in the mirror's subset and 211,840 in the full data; MUTAG draws with
	// replacement and the Gaussians are generated.
	maxN := map[string]map[run.Scale]int{
		"fig4_3": {run.Smoke: 35735 / 2, run.Quick: 35735 / 2, run.Paper: 35735 / 2},
		"fig4_4": {run.Smoke: 7134 / 2, run.Quick: 7134 / 2, run.Paper: 211840 / 2},
	}
	for _, fig := range ch4Figures {
		e := fig.build()
		for _, sc := range []run.Scale{run.Smoke, run.Quick, run.Paper} {
			sz := fig.sizes[sc]
			tasks, err := e.Plan(sc)
			if err != nil || len(tasks) != sz.tasks || len(tasks) < 2 {
				t.Errorf("%s at %s: %d tasks (%v), want %d ≥ 2", e.ID, sc, len(tasks), err, sz.tasks)
			}
			keys := map[string]bool{}
			for _, task := range tasks {
				if keys[task.Key] {
					t.Errorf("%s at %s: task key %q twice", e.ID, sc, task.Key)
				}
				keys[task.Key] = true
			}
			if !slices.IsSorted(sz.n) || sz.exactMax < sz.n[0] || sz.exactMax > sz.n[len(sz.n)-1] {
				t.Errorf("%s at %s: n = %v with the exact MMD up to %d", e.ID, sc, sz.n, sz.exactMax)
			}
			if limit, ok := maxN[e.ID][sc]; ok && sz.n[len(sz.n)-1] > limit {
				t.Errorf("%s at %s: n up to %d, the data allow %d", e.ID, sc, sz.n[len(sz.n)-1], limit)
			}
		}
		if sz := fig.sizes[run.Paper]; sz.tasks*sz.drawsPerTask != paperDraws[e.ID] {
			t.Errorf("%s: %d draws at paper scale, want %d", e.ID, sz.tasks*sz.drawsPerTask, paperDraws[e.ID])
		}
		if _, err := e.Plan("huge"); err == nil {
			t.Errorf("%s: an unknown scale must be an error", e.ID)
		}
	}
	if fig4_4Variant(run.Paper) != "uci" || fig4_4Variant(run.Quick) != "subset-31220" {
		t.Error("Covertype variants: full data at paper scale only")
	}
}

// A Gaussian draw is the next 3n normal numbers of the generator, the middle n scaled by √1.001,
// with σ² the brute-force mean squared distance over the 3n points.
func TestGaussianPairSample(t *testing.T) {
	const n = 7
	d, err := gaussianPairSample(rand.New(rand.NewPCG(3, 4)), n)
	if err != nil {
		t.Fatal(err)
	}
	ref := rand.New(rand.NewPCG(3, 4))
	values := make([]float64, 3*n)
	for i := range values {
		values[i] = ref.NormFloat64()
		if i >= n && i < 2*n {
			values[i] *= math.Sqrt(1.001)
		}
	}
	v, ok := d.points.(*mmd.Vectors)
	if !ok {
		t.Fatalf("points %T, want *mmd.Vectors", d.points)
	}
	if !slices.Equal(d.x, indexRange(0, n)) || !slices.Equal(d.z, indexRange(n, 2*n)) || !slices.Equal(d.w, indexRange(2*n, 3*n)) {
		t.Errorf("samples %v %v %v, want three consecutive ranges", d.x, d.z, d.w)
	}
	// The kernel between rows i and j is exp(−(v_i − v_j)²/(2σ²)).
	var s2 float64
	for _, a := range values {
		for _, b := range values {
			s2 += (a - b) * (a - b)
		}
	}
	s2 /= float64(len(values) * len(values))
	block := mat.NewDense(1, 1, nil)
	for _, pair := range [][2]int{{0, 1}, {3, 10}, {8, 20}} {
		if err := v.Block(block, pair[:1], pair[1:]); err != nil {
			t.Fatal(err)
		}
		diff := values[pair[0]] - values[pair[1]]
		if want := math.Exp(-diff * diff / (2 * s2)); math.Abs(block.At(0, 0)-want) > 1e-12 {
			t.Errorf("k(%d, %d) = %g, want %g", pair[0], pair[1], block.At(0, 0), want)
		}
	}
	if _, err := gaussianPairSample(rand.New(rand.NewPCG(1, 1)), 0); err == nil {
		t.Error("n = 0 must be an error")
	}
}

// Vector draws: X and W disjoint, from P_X's pool, Z from P_Z's, n sorted rows each; too large an
// n is an error.
func TestVectorPoolsSample(t *testing.T) {
	X := mat.NewDense(30, 2, nil)
	for i := range 30 {
		X.Set(i, 0, float64(i))
		X.Set(i, 1, float64(i%7))
	}
	var px, pz []int
	for i := range 30 {
		if i%3 == 0 {
			pz = append(pz, i)
		} else {
			px = append(px, i)
		}
	}
	pools, err := newVectorPools(X, px, pz)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := kernel.MeanSquaredDistance(X)
	if got := pools.points.Kernel().(kernel.Gaussian).Sigma; math.Abs(got*got-s2) > 1e-12 {
		t.Errorf("σ² = %g, want the mean squared distance %g", got*got, s2)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		d, err := pools.sample(rng, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range [][]int{d.x, d.z, d.w} {
			if len(s) != 10 || !slices.IsSorted(s) || len(slices.Compact(slices.Clone(s))) != 10 {
				t.Fatalf("sample %v: want 10 distinct sorted rows", s)
			}
		}
		for _, i := range d.x {
			if i%3 == 0 || slices.Contains(d.w, i) {
				t.Fatalf("X = %v, W = %v: X must come from P_X and not meet W", d.x, d.w)
			}
		}
		for i := range 10 {
			if d.w[i]%3 == 0 || d.z[i]%3 != 0 {
				t.Fatalf("W = %v from P_X and Z = %v from P_Z expected", d.w, d.z)
			}
		}
	}
	if _, err := pools.sample(rng, 11); err == nil {
		t.Error("2n = 22 > 20 points of P_X must be an error")
	}
}

// Graph draws are with replacement from each class.
func TestGraphPoolsSample(t *testing.T) {
	edge := format.Graph{NodeLabels: []int{0, 1}, Edges: [][2]int{{0, 1}}}
	path := format.Graph{NodeLabels: []int{0, 1, 0}, Edges: [][2]int{{0, 1}, {1, 2}}}
	sp, err := graphkernel.NewShortestPath([]format.Graph{edge, path, edge, path}, graphkernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := &graphPools{graphs: sp, px: []int{0, 1}, pz: []int{2, 3}}
	d, err := g.sample(rand.New(rand.NewPCG(1, 2)), 50)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, s := range [][]int{d.x, d.w} {
		for _, i := range s {
			seen[i] = true
			if i > 1 {
				t.Fatalf("X or W holds graph %d, not of P_X", i)
			}
		}
	}
	for _, i := range d.z {
		if i < 2 {
			t.Fatalf("Z holds graph %d, not of P_Z", i)
		}
	}
	if len(d.x) != 50 || len(d.z) != 50 || len(d.w) != 50 || len(seen) != 2 {
		t.Errorf("sizes %d %d %d, graphs seen %v", len(d.x), len(d.z), len(d.w), seen)
	}
	if _, err := g.sample(rand.New(rand.NewPCG(1, 2)), 0); err == nil {
		t.Error("n = 0 must be an error")
	}
}

// A tally of 4 decisions, one an error, gives error 1/4, half the decision time per estimate and
// the mean Δ over the draws with an exact value; s = log n is recorded for block, RFF and Nyström.
func TestMMDTallyRecords(t *testing.T) {
	tally := mmdTally{draws: 4, errors: 1, withExact: 2, seconds: 2, delta: 0.3}
	recs := tally.records("d", "nystrom", 1000)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	want := map[string]float64{mmdMetricError: 0.25, mmdMetricSeconds: 0.5, mmdMetricDelta: 0.15}
	for _, r := range recs {
		if math.Abs(r.Value-want[r.Metric]) > 1e-15 {
			t.Errorf("%s = %g, want %g", r.Metric, r.Value, want[r.Metric])
		}
		if len(r.Params) != 2 || r.Params[1].Name != "s" || r.Params[1].Value != strconv.Itoa(mmd.DefaultSize(1000)) {
			t.Errorf("params %v, want n and s = %d", r.Params, mmd.DefaultSize(1000))
		}
	}
	if recs := (&mmdTally{draws: 2}).records("d", "linear", 10); len(recs) != 2 || len(recs[0].Params) != 1 {
		t.Errorf("linear without exact: %v, want error and seconds with n only", recs)
	}
	if recs := (&mmdTally{}).records("d", "exact", 10); recs != nil {
		t.Errorf("a method that did not run: %v, want no records", recs)
	}
}

// mmdResults builds results of dataset "d" from values[method][metric] = one value per n of ns, the
// same in two batches of 10 draws.
func mmdResults(ns []float64, values map[string]map[string][]float64) *run.Results {
	var rows []run.Row
	for rep := range 2 {
		rows = append(rows, run.Row{Dataset: "d", Method: mmdSetupMethod, Rep: rep, Metric: mmdMetricDraws, Value: 10})
		for method, metrics := range values {
			for metric, vs := range metrics {
				for i, v := range vs {
					rows = append(rows, run.Row{Dataset: "d", Method: method, Rep: rep, Params: []run.Param{run.P("n", ns[i])}, Metric: metric, Value: v})
				}
			}
		}
	}
	return rowsOf("fig4_x", rows...)
}

// checkVerdict runs a check and compares its verdict with pass.
func checkVerdict(t *testing.T, name string, check func(*run.Results) (run.Verdict, error), res *run.Results, pass bool) {
	t.Helper()
	v, err := check(res)
	if err != nil || (v.Outcome == run.Supported) != pass {
		t.Errorf("%s: %+v, %v; want pass %v", name, v, err, pass)
	}
}

// The claim checks decide on hand-made results whose verdicts follow from their thresholds: with 20
// draws, 3 standard errors are 0.335 from 1/2 and 0.474 between two rates.
func TestCh4ClaimChecks(t *testing.T) {
	ns := []float64{100, 1000, 10000}
	errs := func(m map[string][]float64) *run.Results {
		v := map[string]map[string][]float64{}
		for k, e := range m {
			v[k] = map[string][]float64{mmdMetricError: e}
		}
		return mmdResults(ns, v)
	}
	same := errs(map[string][]float64{"nystrom": {0.5, 0.4, 0.1}, "rff": {0.5, 0.5, 0.5}})
	checkVerdict(t, "same error within 0.474", checkSameError("d", "nystrom", "rff"), same, true)
	apart := errs(map[string][]float64{"nystrom": {0.5, 0.4, 0}, "rff": {0.5, 0.5, 0.5}})
	checkVerdict(t, "errors 0.5 apart", checkSameError("d", "nystrom", "rff"), apart, false)
	checkVerdict(t, "0.5 at chance", checkAtChance("d", true, "rff"), apart, true)
	checkVerdict(t, "0 not at chance", checkAtChance("d", true, "nystrom", "rff"), apart, false)
	checkVerdict(t, "0 separates", checkAtChance("d", false, "nystrom"), apart, true)
	checkVerdict(t, "0.17 is not below 0.165", checkAtChance("d", false, "x"), errs(map[string][]float64{"x": {0, 0, 0.17}}), false)

	ranked := errs(map[string][]float64{"exact": {0, 0}, "nystrom": {0.1, 0, 0}, "block": {0.2, 0.1, 0}, "linear": {0.3, 0.2, 0.1}})
	checkVerdict(t, "exact fewest", claimExactFewest("c", "d", []string{"nystrom", "block", "linear"}).Check, ranked, true)
	checkVerdict(t, "order nystrom ≤ block ≤ linear", checkErrorOrder("d", "nystrom", "block", "linear"), ranked, true)
	checkVerdict(t, "order linear ≤ block", checkErrorOrder("d", "linear", "block"), ranked, false)
	small := func(n float64) bool { return n <= 5000 }
	checkVerdict(t, "block fewest for n ≤ 5000", claimFewestErrors("c", "", "d", "block", []string{"linear"}, small, "n ≤ 5000").Check, ranked, true)
	checkVerdict(t, "linear fewest for n ≤ 5000", claimFewestErrors("c", "", "d", "linear", []string{"block"}, small, "n ≤ 5000").Check, ranked, false)
	none := func(n float64) bool { return n > 1e6 }
	checkVerdict(t, "no n in range", claimFewestErrors("c", "", "d", "block", []string{"linear"}, none, "n > 10⁶").Check, ranked, false)
	checkVerdict(t, "nystrom no error from 1000", checkNoErrorFrom("d", "nystrom", 1000), ranked, true)
	checkVerdict(t, "block no error from 1000", checkNoErrorFrom("d", "block", 1000), ranked, false)
	checkVerdict(t, "no n ≥ 10⁶", checkNoErrorFrom("d", "nystrom", 1e6), ranked, false)

	power := func(c, p float64) []float64 {
		out := make([]float64, len(ns))
		for i, n := range ns {
			out[i] = c * math.Pow(n, p)
		}
		return out
	}
	deltas := mmdResults(ns, map[string]map[string][]float64{
		"rff": {mmdMetricDelta: power(1, -0.5)}, "nystrom": {mmdMetricDelta: power(2, -0.6)},
		"block": {mmdMetricDelta: power(3, -0.5)}, "linear": {mmdMetricDelta: power(1, -0.2)},
	})
	checkVerdict(t, "slopes −0.5 and −0.6", claimSameConvergence("c", "", "d", "rff", "nystrom").Check, deltas, true)
	checkVerdict(t, "slopes −0.5 and −0.2", claimSameConvergence("c", "", "d", "rff", "linear").Check, deltas, false)
	checkVerdict(t, "rff and nystrom below block", checkDeltaBelow("d", []string{"rff", "nystrom"}, []string{"block"}), deltas, true)
	checkVerdict(t, "block below linear and rff", checkDeltaBelow("d", []string{"block"}, []string{"linear", "rff"}), deltas, false)
	// At n = 10⁴: rff 0.01, nystrom 0.0079, block 0.03, linear 0.16: RFF is not the smallest.
	checkVerdict(t, "convergence order", checkConvergenceOrder("d"), deltas, false)
	inOrder := mmdResults(ns, map[string]map[string][]float64{
		"rff": {mmdMetricDelta: power(1, -0.5)}, "nystrom": {mmdMetricDelta: power(2, -0.5)},
		"block": {mmdMetricDelta: power(4, -0.5)}, "linear": {mmdMetricDelta: power(1, -0.2)},
	})
	checkVerdict(t, "convergence order holds", checkConvergenceOrder("d"), inOrder, true)

	times := func(m map[string][]float64) *run.Results {
		v := map[string]map[string][]float64{}
		for k, s := range m {
			v[k] = map[string][]float64{mmdMetricSeconds: s}
		}
		return mmdResults(ns, v)
	}
	ordered := times(map[string][]float64{
		"linear": power(1e-6, 1), "rff": power(3e-6, 1), "nystrom": power(4e-6, 1), "block": power(9e-6, 1), "exact": power(1e-8, 2),
	})
	checkVerdict(t, "time order", checkTimeOrder("d", []string{"linear", "block", "rff", "nystrom"}), ordered, true)
	checkVerdict(t, "linear fastest", checkFastest("d", "linear", []string{"block", "rff", "nystrom"}), ordered, true)
	checkVerdict(t, "rff not fastest", checkFastest("d", "rff", []string{"linear"}), ordered, false)
	checkVerdict(t, "rff ≈ nystrom < block", checkSimilarTimeBelow("d", "rff", "nystrom", "block"), ordered, true)
	checkVerdict(t, "linear ≈ block? no", checkSimilarTimeBelow("d", "linear", "block", "exact"), ordered, false)
	checkVerdict(t, "exact ∝ n²", checkExactExplodes("d", []string{"linear", "block"}), ordered, true)
	checkVerdict(t, "linear < nystrom < block", checkLinearFastestBlockSlowest("d"), ordered, true)
	linearExact := times(map[string][]float64{"linear": power(1e-6, 1), "block": power(9e-6, 1), "exact": power(1e-5, 1)})
	checkVerdict(t, "exact ∝ n", checkExactExplodes("d", []string{"linear", "block"}), linearExact, false)
	swapped := times(map[string][]float64{
		"linear": power(1e-6, 1), "rff": power(3e-6, 1), "nystrom": power(9e-6, 1), "block": power(4e-6, 1), "exact": power(1e-8, 2),
	})
	checkVerdict(t, "block faster than nystrom", checkTimeOrder("d", []string{"linear", "block", "rff", "nystrom"}), swapped, false)
	checkVerdict(t, "block not slowest", checkLinearFastestBlockSlowest("d"), swapped, false)

	if _, err := checkSameError("d", "nystrom", "rff")(rowsOf("fig4_x")); err == nil {
		t.Error("no results: want an error")
	}
}
