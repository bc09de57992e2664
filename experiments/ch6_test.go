package experiments

import (
	"hash/fnv"
	"slices"
	"testing"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// ch6Advantage is how much better than a middling score a method does in hand-made chapter-6
// results: accuracy above 0.8, or MSE below 0.5.
type ch6Advantage func(key, method, part string, fraction float64, rep int) float64

// ch6Jitter is a fixed pseudo-random value in [−1, 1] per cell, so that paired differences vary
// across repetitions as real ones do.
func ch6Jitter(parts ...any) float64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(run.P("", p).Value + "|"))
	}
	return float64(h.Sum64()%2001)/1000 - 1
}

// ch6Synthetic builds chapter-6 results over every data set: 6 repetitions, a 100-tree forest, every
// method at every pruned size on test and fit, scores from adv plus a jitter of ±noise, OMP's
// negative share from neg, and NN-OMP stopping at stop trees (0: never) with advantage stopAdv.
func ch6Synthetic(adv ch6Advantage, noise float64, neg func(key string, f float64, rep int) float64, stop int, stopAdv float64) *run.Results {
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
	for _, s := range ch6Sets {
		cls := !slices.Contains([]string{"kin8nm", "houses", "diamonds", "diabetes", "boston"}, s.key)
		for rep := range 6 {
			add(s.key, ch6Full, metricForestSize, rep, 100)
			for _, part := range []string{ch6Test, ch6Fit} {
				add(s.key, ch6Full, ch6Metric(part, cls), rep, score(cls, adv(s.key, ch6Full, part, -1, rep)+noise*ch6Jitter(s.key, part, rep)))
			}
			for _, m := range ch6Methods {
				for _, f := range ch6Fractions {
					x := run.P(ch6FractionParam, f)
					for _, part := range []string{ch6Test, ch6Fit} {
						add(s.key, m, ch6Metric(part, cls), rep, score(cls, adv(s.key, m, part, f, rep)+noise*ch6Jitter(s.key, m, part, f, rep)), x)
					}
					if m == ch6OMP {
						add(s.key, m, metricNegative, rep, neg(s.key, f, rep), x)
					}
				}
			}
			add(s.key, ch6NNOMP, metricStopped, rep, float64(stop))
			add(s.key, ch6NNOMP, metricStopPrefix+ch6Metric(ch6Test, cls), rep, score(cls, stopAdv+noise*ch6Jitter(s.key, "stop", rep)))
		}
	}
	return res
}

// ch6Favour gives method m the advantage a on part (every data set, every size) and nothing to the others.
func ch6Favour(m, part string, a float64) ch6Advantage {
	return func(_, method, p string, _ float64, _ int) float64 {
		if method == m && p == part {
			return a
		}
		return 0
	}
}

func noNegatives(string, float64, int) float64 { return 0 }

func TestCh6ClaimChecks(t *testing.T) {
	claims := map[string]func(*run.Results) (verdict.Verdict, error){}
	for _, e := range []*run.Experiment{fig6_1(), fig6_2(), fig6_3(), fig6_4(), fig6_5(), fig6_6()} {
		for _, c := range e.Claims {
			claims[e.ID+"/"+c.ID] = c.Check
		}
	}
	const big, noise = 0.05, 0.01
	flat := ch6Synthetic(func(string, string, string, float64, int) float64 { return 0 }, noise, noNegatives, 0, 0)
	ompUp := ch6Synthetic(ch6Favour(ch6OMP, ch6Test, big), noise, noNegatives, 0, 0)
	ompDown := ch6Synthetic(ch6Favour(ch6OMP, ch6Test, -big), noise, noNegatives, 0, 0)
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
		{"fig6_2/omp-unweighted-at-least-as-good", ch6Synthetic(ch6Favour(ch6OMP, ch6Test, 0.01), 0.03, noNegatives, 0, 0), verdict.Inconclusive},
		{"fig6_3/no-method-beats-random", flat, verdict.Supported},
		{"fig6_3/no-method-beats-random", ompUp, verdict.Contradicted},
		{"fig6_3/no-method-beats-random", ch6Synthetic(ch6Favour(ch6OMP, ch6Test, 0.01), 0.03, noNegatives, 0, 0), verdict.Inconclusive},
		{"fig6_3/omp-weights-overfit", ompDown, verdict.Supported},
		{"fig6_3/omp-weights-overfit", ompUp, verdict.Contradicted},
		{"fig6_3/omp-weights-overfit", flat, verdict.Inconclusive},
		{"fig6_4/omp-best-on-fit-data", ch6Synthetic(ch6Favour(ch6OMP, ch6Fit, big), noise, noNegatives, 0, 0), verdict.Supported},
		{"fig6_4/omp-best-on-fit-data", ch6Synthetic(ch6Favour(ch6OMP, ch6Fit, -big), noise, noNegatives, 0, 0), verdict.Contradicted},
		{"fig6_4/omp-best-on-fit-data", flat, verdict.Inconclusive},
		{"fig6_6/nn-omp-stops-by-itself", ch6Synthetic(ch6Favour("", "", 0), noise, noNegatives, 20, 0), verdict.Supported},
		{"fig6_6/nn-omp-stops-by-itself", flat, verdict.Contradicted},
		{"fig6_6/nn-omp-generalises", ch6Synthetic(ch6Favour("", "", 0), noise/5, noNegatives, 20, 0), verdict.Supported},
		{"fig6_6/nn-omp-generalises", ch6Synthetic(ch6Favour("", "", 0), noise, noNegatives, 20, -big), verdict.Contradicted},
		{"fig6_6/nn-omp-generalises", ch6Synthetic(ch6Favour("", "", 0), 0.03, noNegatives, 20, -0.01), verdict.Inconclusive},
	} {
		wantOutcome(t, c.claim, claims[c.claim], c.res, c.want)
	}

	// Ensemble: better than Random on regression and worse on classification supports; better on
	// both contradicts; no difference is inconclusive.
	ensemble := func(classWorse bool) ch6Advantage {
		return func(key, method, part string, _ float64, _ int) float64 {
			if method != ch6Ensemble || part != ch6Test {
				return 0
			}
			if classWorse && slices.Contains([]string{"kr_vs_kp", "steel_plates", "lfw_pairs", "gamma", "spambase", "breast_cancer"}, key) {
				return -big
			}
			return big
		}
	}
	c := claims["fig6_2/ensemble-strong-regression-weak-classification"]
	wantOutcome(t, "ensemble supported", c, ch6Synthetic(ensemble(true), noise, noNegatives, 0, 0), verdict.Supported)
	wantOutcome(t, "ensemble contradicted", c, ch6Synthetic(ensemble(false), noise, noNegatives, 0, 0), verdict.Contradicted)
	wantOutcome(t, "ensemble inconclusive", c, flat, verdict.Inconclusive)

	// Zhang and Kmeans against Random.
	zk := func(a float64) ch6Advantage {
		return func(_, method, part string, _ float64, _ int) float64 {
			if part == ch6Test && (method == ch6ZhangPred || method == ch6ZhangSim || method == ch6KMeans) {
				return a
			}
			return 0
		}
	}
	c = claims["fig6_2/zhang-kmeans-hardly-beat-random"]
	wantOutcome(t, "zhang supported", c, flat, verdict.Supported)
	wantOutcome(t, "zhang contradicted", c, ch6Synthetic(zk(big), noise, noNegatives, 0, 0), verdict.Contradicted)
	wantOutcome(t, "zhang inconclusive", c, ch6Synthetic(zk(0.01), 0.03, noNegatives, 0, 0), verdict.Inconclusive)

	// Negative weights: the share grows with the size (or falls), and OMP's score falls with it.
	growing := func(_ string, f float64, rep int) float64 { return 2*f + 0.01*ch6Jitter("neg", f, rep) + 0.02 }
	falling := func(_ string, f float64, rep int) float64 { return 0.8 - 2*f + 0.01*ch6Jitter("neg", f, rep) }
	noisy := func(_ string, f float64, rep int) float64 { return 0.3 + 0.2*ch6Jitter("neg", f, rep) }
	c = claims["fig6_5/negative-share-grows"]
	wantOutcome(t, "share grows", c, ch6Synthetic(ch6Favour("", "", 0), noise, growing, 0, 0), verdict.Supported)
	wantOutcome(t, "share falls", c, ch6Synthetic(ch6Favour("", "", 0), noise, falling, 0, 0), verdict.Contradicted)
	wantOutcome(t, "share noise", c, ch6Synthetic(ch6Favour("", "", 0), noise, noisy, 0, 0), verdict.Inconclusive)
	ompWithSize := func(sign float64) ch6Advantage {
		return func(_, method, part string, f float64, _ int) float64 {
			if method == ch6OMP && part == ch6Test {
				return sign * f
			}
			return 0
		}
	}
	c = claims["fig6_5/performance-falls"]
	wantOutcome(t, "performance falls", c, ch6Synthetic(ompWithSize(-1), 0.001, growing, 0, 0), verdict.Supported)
	wantOutcome(t, "performance rises", c, ch6Synthetic(ompWithSize(1), 0.001, growing, 0, 0), verdict.Contradicted)
	wantOutcome(t, "performance flat", c, ch6Synthetic(ch6Favour("", "", 0), noise, growing, 0, 0), verdict.Inconclusive)
}

func TestCh6DiffsArePaired(t *testing.T) {
	res := ch6Synthetic(ch6Favour(ch6OMP, ch6Test, 0.05), 0, noNegatives, 0, 0)
	d, err := ch6Diffs(res, "kin8nm", ch6Test, ch6OMP, ch6Random, ch6EveryFraction)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 6 {
		t.Fatalf("%d values, want one per repetition (6)", len(d))
	}
	for _, v := range d {
		// MSE 0.45 against 0.5: OMP is better by 0.05, a positive difference.
		if v < 0.05-1e-12 || v > 0.05+1e-12 {
			t.Errorf("difference %g, want +0.05 (lower MSE is better)", v)
		}
	}
	if _, err := ch6Diffs(res, "kin8nm", ch6Test, ch6Full, ch6OMP, ch6EveryFraction); err == nil {
		t.Error("the full forest as the first side: no error")
	}
	res.Rows = slices.DeleteFunc(res.Rows, func(r run.Row) bool { return r.Method == ch6Random && r.Rep == 3 })
	if _, err := ch6Diffs(res, "kin8nm", ch6Test, ch6OMP, ch6Random, ch6EveryFraction); err == nil {
		t.Error("a repetition missing on one side: no error")
	}
}
