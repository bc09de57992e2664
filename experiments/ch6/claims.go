package ch6

import (
	"fmt"
	"maps"
	"slices"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// margin is the margin of chapter 6's "at least as good" and "hardly better" claims, fixed from
// the thesis's words before any run: one accuracy point, or 1% of the target's variance in MSE
// (targets are standardised).
const margin = 0.01

// everyFraction keeps every pruned size.
func everyFraction(float64) bool { return true }

// diffs returns one value per repetition: the mean, over the pruned sizes keep accepts, of how
// much better a scores than b on part ("test" or "fit") of data set key (a − b in accuracy, b − a in
// MSE, so that positive means a is better). b may be the full forest, whose score does not depend on
// the size. A repetition or size missing on one side is an error: the comparison is paired.
func diffs(res *run.Results, key, part, a, b string, keep func(float64) bool) ([]float64, error) {
	cls := classification(res, key)
	metric := metric(part, cls)
	side := func(m string) (map[int]map[float64]float64, error) {
		out := map[int]map[float64]float64{}
		rows := res.Where(key, m, metric)
		if len(rows) == 0 {
			return nil, fmt.Errorf("%s: no %s of %s on %s", res.ID, metric, m, key)
		}
		for _, r := range rows {
			x := -1.0 // the full forest: one value for every size
			if m != methodFull {
				var err error
				if x, err = r.ParamFloat(fractionParam); err != nil {
					return nil, err
				}
				if !keep(x) {
					continue
				}
			}
			if out[r.Rep] == nil {
				out[r.Rep] = map[float64]float64{}
			}
			out[r.Rep][x] = r.Value
		}
		return out, nil
	}
	if a == methodFull {
		return nil, fmt.Errorf("%s: the full forest must be the second side of a comparison", res.ID)
	}
	va, err := side(a)
	if err != nil {
		return nil, err
	}
	vb, err := side(b)
	if err != nil {
		return nil, err
	}
	reps := make([]int, 0, len(va))
	for rep := range va {
		reps = append(reps, rep)
	}
	slices.Sort(reps)
	out := make([]float64, 0, len(reps))
	for _, rep := range reps {
		sum, n := 0.0, 0
		for _, x := range slices.Sorted(maps.Keys(va[rep])) { // a fixed order: the same sum on every run
			v := va[rep][x]
			if b == methodFull {
				x = -1
			}
			w, ok := vb[rep][x]
			if !ok {
				return nil, fmt.Errorf("%s: %s on %s, repetition %d: no %s to pair with", res.ID, a, key, rep, b)
			}
			sum += better(cls, v) - better(cls, w)
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: %s on %s, repetition %d: no pruned size kept", res.ID, a, key, rep)
		}
		out = append(out, sum/float64(n))
	}
	if len(out) != len(vb) {
		return nil, fmt.Errorf("%s: %s has %d repetitions on %s, %s %d", res.ID, a, len(out), key, b, len(vb))
	}
	return out, nil
}

// label names a comparison in the evidence: "Kin8nm: OMP − Random (test)".
func label(key, a, b, part string) string {
	return fmt.Sprintf("%s: %s vs %s (%s, better > 0)", name(key), labels[a], labels[b], part)
}

// family builds one test per data set and other method from diffs of a against each of others,
// with test (MeanAbove, or a margin test) deciding each.
func family(res *run.Results, keys []string, part, a string, others []string, keep func(float64) bool, test func(label string, d []float64) verdict.Test) ([]verdict.Test, error) {
	var tests []verdict.Test
	for _, k := range keys {
		for _, b := range others {
			d, err := diffs(res, k, part, a, b, keep)
			if err != nil {
				return nil, err
			}
			tests = append(tests, test(label(k, a, b, part), d))
		}
	}
	return tests, nil
}

// beats is the test "a is better": mean difference above 0 (one-sided paired t).
func beats(label string, d []float64) verdict.Test { return verdict.MeanAbove(label, d, 0) }

// atLeastAsGood is non-inferiority: the mean difference is above −margin.
func atLeastAsGood(label string, d []float64) verdict.Test {
	return verdict.MeanAbove(label, d, -margin)
}

// hardlyBetter is "at most margin better": the mean difference is below margin.
func hardlyBetter(label string, d []float64) verdict.Test { return verdict.MeanBelow(label, d, margin) }

// worse is "a is worse": the mean difference is below 0.
func worse(label string, d []float64) verdict.Test { return verdict.MeanBelow(label, d, 0) }

// drawNote says what one value of a chapter-6 test is.
const drawNote = "one value per repetition (the same forest, split and data for every method): the mean over the pruned sizes of the paired difference, oriented so that positive means the first method is better (accuracy difference, or MSE difference with the sign flipped)"

// thesisKeys are the keys of the thesis's 11 data sets (not the leak-free variants).
func thesisKeys() []string {
	var out []string
	for _, s := range sets {
		if !s.leakFree {
			out = append(out, s.key)
		}
	}
	return out
}
