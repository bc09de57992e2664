package ch6

import (
	"slices"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// advantage is how much better than a middling score a method does in hand-made chapter-6
// results: accuracy above 0.8, or MSE below 0.5.
type advantage func(key, method, part string, fraction float64, rep int) float64

// synthetic builds chapter-6 results over every data set: 6 repetitions, a 100-tree forest, every
// method at every pruned size on test and fit, scores from adv plus a jitter of ±noise, OMP's
// negative share from neg, and NN-OMP stopping at stop trees (0: never) with advantage stopAdv
// plus adv's for NN-OMP at fraction −1.
func synthetic(adv advantage, noise float64, neg func(key string, f float64, rep int) float64, stop int, stopAdv float64) *run.Results {
	res := &run.Results{ID: "fig6_6", Scale: run.Quick}
	add := func(key, method, metric string, rep int, v float64, params ...run.Param) {
		res.Rows = append(res.Rows, run.Row{ID: "fig6_6", Dataset: key, Method: method, Params: params, Rep: rep, Metric: metric, Value: v})
	}
	score := func(cls bool, a float64) float64 {
		if cls {
			return 0.8 + a
		}
		return 0.5 - a
	}
	for _, s := range sets {
		cls := !slices.Contains(regressionSets, s.key)
		for rep := range 6 {
			add(s.key, methodFull, metricForestSize, rep, 100)
			for _, part := range []string{partTest, partFit} {
				add(s.key, methodFull, metric(part, cls), rep, score(cls, adv(s.key, methodFull, part, -1, rep)+noise*kittest.Jitter(s.key, part, rep)))
			}
			for _, m := range methods {
				for _, f := range fractions {
					x := run.P(fractionParam, f)
					for _, part := range []string{partTest, partFit} {
						add(s.key, m, metric(part, cls), rep, score(cls, adv(s.key, m, part, f, rep)+noise*kittest.Jitter(s.key, m, part, f, rep)), x)
					}
					if m == omp {
						add(s.key, m, metricNegative, rep, neg(s.key, f, rep), x)
					}
				}
			}
			add(s.key, nnomp, metricStopped, rep, float64(stop))
			add(s.key, nnomp, metricStopPrefix+metric(partTest, cls), rep, score(cls, stopAdv+adv(s.key, nnomp, partTest, -1, rep)+noise*kittest.Jitter(s.key, "stop", rep)))
		}
	}
	return res
}

// regressionSets are chapter 6's regression data sets; synthetic scores them by MSE.
var regressionSets = []string{"kin8nm", "houses", "diamonds", "diabetes", "boston"}

// mseOf sets each method's test MSE on the regression sets to mse(method) (Diamonds' scale is
// 0.02–0.04), with nothing on the classification sets: it drives the MSE ratio tests alone.
func mseOf(mse func(method string) float64) advantage {
	return func(key, method, part string, _ float64, _ int) float64 {
		if part != partTest || !slices.Contains(regressionSets, key) {
			return 0
		}
		return 0.5 - mse(method) // synthetic's MSE is 0.5 − advantage
	}
}

// favour gives method m the advantage a on part (every data set, every size) and nothing to the others.
func favour(m, part string, a float64) advantage {
	return func(_, method, p string, _ float64, _ int) float64 {
		if method == m && p == part {
			return a
		}
		return 0
	}
}

func noNegatives(string, float64, int) float64 { return 0 }

// claimChecks are chapter 6's claim checks by "experiment/claim".
func claimChecks() map[string]func(*run.Results) (verdict.Verdict, error) {
	claims := map[string]func(*run.Results) (verdict.Verdict, error){}
	for _, e := range []*run.Experiment{fig6_1(), fig6_2(), fig6_3(), fig6_4(), fig6_5(), fig6_6()} {
		for _, c := range e.Claims {
			claims[e.ID+"/"+c.ID] = c.Check
		}
	}
	return claims
}

func TestCh6ClaimChecks(t *testing.T) {
	claims := claimChecks()
	const big, noise = 0.05, 0.01
	flat := synthetic(func(string, string, string, float64, int) float64 { return 0 }, noise, noNegatives, 0, 0)
	ompUp := synthetic(favour(omp, partTest, big), noise, noNegatives, 0, 0)
	ompDown := synthetic(favour(omp, partTest, -big), noise, noNegatives, 0, 0)
	for _, c := range []struct {
		claim string
		res   *run.Results
		want  verdict.Outcome
	}{
		{"fig6_1/omp-beats-others", ompUp, verdict.Supported},
		{"fig6_1/omp-beats-others", ompDown, verdict.Contradicted},
		{"fig6_1/omp-beats-others", flat, verdict.Inconclusive},
		{"fig6_1/omp-beats-full-forest-at-some-size", ompUp, verdict.Supported},
		{"fig6_1/omp-beats-full-forest-at-some-size", ompDown, verdict.Contradicted},
		{"fig6_1/omp-beats-full-forest-at-some-size", flat, verdict.Inconclusive},
		{"fig6_1/weights-help", ompUp, verdict.Supported},
		{"fig6_1/weights-help", ompDown, verdict.Contradicted},
		{"fig6_1/weights-help", flat, verdict.Inconclusive},
		{"fig6_2/omp-unweighted-at-least-as-good", flat, verdict.Supported},
		{"fig6_2/omp-unweighted-at-least-as-good", ompUp, verdict.Contradicted},
		{"fig6_2/omp-unweighted-at-least-as-good", synthetic(favour(omp, partTest, 0.01), 0.03, noNegatives, 0, 0), verdict.Inconclusive},
		{"fig6_3/no-method-beats-random", flat, verdict.Supported},
		{"fig6_3/no-method-beats-random", ompUp, verdict.Contradicted},
		{"fig6_3/no-method-beats-random", synthetic(favour(omp, partTest, 0.01), 0.03, noNegatives, 0, 0), verdict.Inconclusive},
		{"fig6_3/omp-weights-overfit", ompDown, verdict.Supported},
		{"fig6_3/omp-weights-overfit", ompUp, verdict.Contradicted},
		{"fig6_3/omp-weights-overfit", flat, verdict.Inconclusive},
		{"fig6_4/omp-best-on-fit-data", synthetic(favour(omp, partFit, big), noise, noNegatives, 0, 0), verdict.Supported},
		{"fig6_4/omp-best-on-fit-data", synthetic(favour(omp, partFit, -big), noise, noNegatives, 0, 0), verdict.Contradicted},
		{"fig6_4/omp-best-on-fit-data", flat, verdict.Inconclusive},
		{"fig6_6/nn-omp-stops-by-itself", synthetic(favour("", "", 0), noise, noNegatives, 20, 0), verdict.Supported},
		{"fig6_6/nn-omp-stops-by-itself", flat, verdict.Contradicted},
		{"fig6_6/nn-omp-generalises", synthetic(favour("", "", 0), noise/5, noNegatives, 20, 0), verdict.Supported},
		{"fig6_6/nn-omp-generalises", synthetic(favour("", "", 0), noise, noNegatives, 20, -big), verdict.Contradicted},
		{"fig6_6/nn-omp-generalises", synthetic(favour("", "", 0), 0.03, noNegatives, 20, -0.01), verdict.Inconclusive},
	} {
		kittest.WantOutcome(t, c.claim, claims[c.claim], c.res, c.want)
	}

	// Ensemble: better than Random on regression and worse than OMP on classification supports;
	// better on both contradicts; no difference is inconclusive. On classification it is compared
	// with OMP, not Random: worse than OMP but better than Random there still supports.
	ensembleAdv := func(classWorse bool) advantage {
		return func(key, method, part string, _ float64, _ int) float64 {
			if method != ensemble || part != partTest {
				return 0
			}
			if classWorse && slices.Contains([]string{"kr_vs_kp", "steel_plates", "lfw_pairs", "gamma", "spambase", "breast_cancer"}, key) {
				return -big
			}
			return big
		}
	}
	c := claims["fig6_2/ensemble-strong-regression-weak-classification"]
	kittest.WantOutcome(t, "ensemble supported", c, synthetic(ensembleAdv(true), noise, noNegatives, 0, 0), verdict.Supported)
	kittest.WantOutcome(t, "ensemble contradicted", c, synthetic(ensembleAdv(false), noise, noNegatives, 0, 0), verdict.Contradicted)
	kittest.WantOutcome(t, "ensemble inconclusive", c, flat, verdict.Inconclusive)
	classSets := []string{"kr_vs_kp", "steel_plates", "lfw_pairs", "gamma", "spambase", "breast_cancer"}
	betweenOMPAndRandom := func(key, method, part string, _ float64, _ int) float64 {
		if part != partTest {
			return 0
		}
		switch {
		case method == ensemble && !slices.Contains(classSets, key):
			return big
		case method == omp && slices.Contains(classSets, key):
			return 2 * big
		case method == random && slices.Contains(classSets, key):
			return -big
		}
		return 0
	}
	kittest.WantOutcome(t, "ensemble worse than OMP, better than Random", c, synthetic(betweenOMPAndRandom, noise, noNegatives, 0, 0), verdict.Supported)

	// Zhang and Kmeans against Random.
	zk := func(a float64) advantage {
		return func(_, method, part string, _ float64, _ int) float64 {
			if part == partTest && (method == zhangPred || method == zhangSim || method == kMeans) {
				return a
			}
			return 0
		}
	}
	c = claims["fig6_2/zhang-kmeans-hardly-beat-random"]
	kittest.WantOutcome(t, "zhang supported", c, flat, verdict.Supported)
	kittest.WantOutcome(t, "zhang contradicted", c, synthetic(zk(big), noise, noNegatives, 0, 0), verdict.Contradicted)
	kittest.WantOutcome(t, "zhang inconclusive", c, synthetic(zk(0.01), 0.03, noNegatives, 0, 0), verdict.Inconclusive)

	// Negative weights: the share grows with the size (or falls), and OMP's score falls with it.
	growing := func(_ string, f float64, rep int) float64 { return 2*f + 0.01*kittest.Jitter("neg", f, rep) + 0.02 }
	falling := func(_ string, f float64, rep int) float64 { return 0.8 - 2*f + 0.01*kittest.Jitter("neg", f, rep) }
	noisy := func(_ string, f float64, rep int) float64 { return 0.3 + 0.2*kittest.Jitter("neg", f, rep) }
	c = claims["fig6_5/negative-share-grows"]
	kittest.WantOutcome(t, "share grows", c, synthetic(favour("", "", 0), noise, growing, 0, 0), verdict.Supported)
	kittest.WantOutcome(t, "share falls", c, synthetic(favour("", "", 0), noise, falling, 0, 0), verdict.Contradicted)
	kittest.WantOutcome(t, "share noise", c, synthetic(favour("", "", 0), noise, noisy, 0, 0), verdict.Inconclusive)
	ompWithSize := func(sign float64) advantage {
		return func(_, method, part string, f float64, _ int) float64 {
			if method == omp && part == partTest {
				return sign * f
			}
			return 0
		}
	}
	c = claims["fig6_5/performance-falls"]
	kittest.WantOutcome(t, "performance falls", c, synthetic(ompWithSize(-1), 0.001, growing, 0, 0), verdict.Supported)
	kittest.WantOutcome(t, "performance rises", c, synthetic(ompWithSize(1), 0.001, growing, 0, 0), verdict.Contradicted)
	kittest.WantOutcome(t, "performance flat", c, synthetic(favour("", "", 0), noise, growing, 0, 0), verdict.Inconclusive)
}

// TestCh6MarginsScaleWithMSE drives each margin claim to each verdict through its MSE ratio tests
// alone, at Diamonds' scale (the reference MSE 0.03, classification sets level): a method with 30%
// more error is not "at least as good" and one with 20% less is not "hardly better", where the
// former absolute margin of 0.01 called both within it.
func TestCh6MarginsScaleWithMSE(t *testing.T) {
	claims := claimChecks()
	const ref, noise = 0.03, 0.0005
	// only gives each of ms the test MSE v and every other method ref.
	only := func(v float64, ms ...string) *run.Results {
		return synthetic(mseOf(func(method string) float64 {
			if slices.Contains(ms, method) {
				return v
			}
			return ref
		}), noise, noNegatives, 20, 0)
	}
	edge := ref * mseFactor      // at the margin: neither shown inside nor beyond
	edgeBelow := ref / mseFactor // at the "hardly better" margin
	zk := []string{zhangPred, zhangSim, kMeans}
	for _, c := range []struct {
		claim string
		res   *run.Results
		want  verdict.Outcome
	}{
		{"fig6_2/omp-unweighted-at-least-as-good", only(1.03*ref, ompNoWeights), verdict.Supported},
		{"fig6_2/omp-unweighted-at-least-as-good", only(1.3*ref, ompNoWeights), verdict.Contradicted},
		{"fig6_2/omp-unweighted-at-least-as-good", only(edge, ompNoWeights), verdict.Inconclusive},
		{"fig6_2/zhang-kmeans-hardly-beat-random", only(0.97*ref, zk...), verdict.Supported},
		{"fig6_2/zhang-kmeans-hardly-beat-random", only(0.8*ref, zk...), verdict.Contradicted},
		{"fig6_2/zhang-kmeans-hardly-beat-random", only(edgeBelow, zk...), verdict.Inconclusive},
		{"fig6_3/no-method-beats-random", only(0.97*ref, omp), verdict.Supported},
		{"fig6_3/no-method-beats-random", only(0.8*ref, omp), verdict.Contradicted},
		{"fig6_3/no-method-beats-random", only(edgeBelow, omp), verdict.Inconclusive},
		{"fig6_6/nn-omp-generalises", only(1.03*ref, nnomp), verdict.Supported},
		{"fig6_6/nn-omp-generalises", only(1.3*ref, nnomp), verdict.Contradicted},
		{"fig6_6/nn-omp-generalises", only(edge, nnomp), verdict.Inconclusive},
	} {
		kittest.WantOutcome(t, c.claim, claims[c.claim], c.res, c.want)
	}
}

func TestCh6ScoresArePaired(t *testing.T) {
	res := synthetic(favour(omp, partTest, 0.05), 0, noNegatives, 0, 0)
	a, b, err := scores(res, "kin8nm", partTest, omp, random, everyFraction)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 6 || len(b) != 6 {
		t.Fatalf("%d and %d values, want one per repetition (6)", len(a), len(b))
	}
	for i, v := range oriented(false, a, b) {
		// MSE 0.45 against 0.5: OMP is better by 0.05, a positive difference.
		if v < 0.05-1e-12 || v > 0.05+1e-12 {
			t.Errorf("difference %g, want +0.05 (lower MSE is better)", v)
		}
		if a[i] < 0.45-1e-12 || a[i] > 0.45+1e-12 || b[i] < 0.5-1e-12 || b[i] > 0.5+1e-12 {
			t.Errorf("repetition %d: MSEs %g and %g, want 0.45 and 0.5", i, a[i], b[i])
		}
	}
	if _, _, err := scores(res, "kin8nm", partTest, methodFull, omp, everyFraction); err == nil {
		t.Error("the full forest as the first side: no error")
	}
	res.Rows = slices.DeleteFunc(res.Rows, func(r run.Row) bool { return r.Method == random && r.Rep == 3 })
	if _, _, err := scores(res, "kin8nm", partTest, omp, random, everyFraction); err == nil {
		t.Error("a repetition missing on one side: no error")
	}
}
