package verdict

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/fastkernels/kernellab/lab/internal/median"
)

// bootstrapRounds is the number of bootstrap resamples behind a ratio of medians: enough for
// p-values down to 2.5e-4 and stable 90% percentile intervals.
const bootstrapRounds = 4000

// ratioBootstrap is the ratio median(a)/median(b) and its bootstrap distribution.
type ratioBootstrap struct {
	ratio  float64
	boot   []float64 // sorted
	n      int
	reason string
}

// bootstrapRatio resamples the draws: with paired, draw i of a and draw i of b stay together (the
// same repetition timed for both methods); otherwise a and b are resampled independently. The
// generator is seeded from the label, so a report is the same on every run of the same results.
func bootstrapRatio(label string, a, b []float64, paired bool) ratioBootstrap {
	if len(a) == 0 || len(b) == 0 || (paired && len(a) != len(b)) {
		return ratioBootstrap{reason: fmt.Sprintf("%d against %d draws cannot be compared", len(a), len(b))}
	}
	for _, v := range append(slices.Clone(a), b...) {
		if !(v > 0) || math.IsInf(v, 0) {
			return ratioBootstrap{reason: "a time is not positive and finite"}
		}
	}
	h := fnv.New64a()
	h.Write([]byte(label))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x9e3779b97f4a7c15))
	r := ratioBootstrap{ratio: median.Of(a) / median.Of(b), n: min(len(a), len(b)), boot: make([]float64, bootstrapRounds)}
	ra, rb := make([]float64, len(a)), make([]float64, len(b))
	for k := range r.boot {
		for i := range ra {
			j := rng.IntN(len(a))
			ra[i] = a[j]
			if paired {
				rb[i] = b[j]
			}
		}
		if !paired {
			for i := range rb {
				rb[i] = b[rng.IntN(len(b))]
			}
		}
		r.boot[k] = median.Of(ra) / median.Of(rb)
	}
	slices.Sort(r.boot)
	return r
}

// fractionAtLeast and fractionAtMost are bootstrap p-values, (count + 1)/(B + 1), so never 0.
func (r ratioBootstrap) fractionAtLeast(c float64) float64 {
	i, _ := slices.BinarySearch(r.boot, c)
	return float64(len(r.boot)-i+1) / float64(len(r.boot)+1)
}

func (r ratioBootstrap) fractionAtMost(c float64) float64 {
	i := sortSearchAbove(r.boot, c)
	return float64(i+1) / float64(len(r.boot)+1)
}

// sortSearchAbove is the number of values ≤ c in sorted v.
func sortSearchAbove(v []float64, c float64) int {
	lo, hi := 0, len(v)
	for lo < hi {
		m := (lo + hi) / 2
		if v[m] <= c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (r ratioBootstrap) test(label string) Test {
	if r.reason != "" {
		return Premise(label, r.reason)
	}
	lo := r.boot[int(math.Floor(Alpha*float64(len(r.boot))))]
	hi := r.boot[int(math.Ceil((1-Alpha)*float64(len(r.boot))))-1]
	return Test{Label: label, Estimate: r.ratio, Lo: lo, Hi: hi, N: r.n, Format: "%.3g"}
}

// RatioBelow tests the claim "median(a)/median(b) is below c" (typically timings: a faster than b
// when c = 1) with a bootstrap over the draws (paired when each draw timed both): supported when
// at most Alpha of the bootstrap ratios reach c, contradicted when at most Alpha stay below it, so
// a ratio whose interval straddles c is inconclusive, never a coin flip.
func RatioBelow(label string, a, b []float64, paired bool, c float64) Test {
	return ratioTest(label, a, b, paired, c, false)
}

// RatioAbove tests the claim "median(a)/median(b) is above c"; see [RatioBelow].
func RatioAbove(label string, a, b []float64, paired bool, c float64) Test {
	return ratioTest(label, a, b, paired, c, true)
}

// ratioTest is RatioAbove (above) or RatioBelow.
func ratioTest(label string, a, b []float64, paired bool, c float64, above bool) Test {
	r := bootstrapRatio(label, a, b, paired)
	t := r.test(label)
	if r.reason == "" {
		t.PSupport, t.PContradict = orient(r.fractionAtMost(c), r.fractionAtLeast(c), above)
	}
	t.Rule = "ratio of medians, 90% bootstrap interval; " + directionRule("%.3g", c, above)
	return t
}

// RatioWithin tests the claim "a and b are about the same: median(a)/median(b) lies within a
// factor f either way" (f > 1): supported when the bootstrap interval lies inside (1/f, f),
// contradicted when the ratio is shown to lie outside on one side, inconclusive otherwise.
func RatioWithin(label string, a, b []float64, paired bool, f float64) Test {
	r := bootstrapRatio(label, a, b, paired)
	t := r.test(label)
	if r.reason == "" {
		t.PSupport = math.Max(r.fractionAtLeast(f), r.fractionAtMost(1/f))
		t.PContradict = math.Min(1, 2*math.Min(r.fractionAtMost(f), r.fractionAtLeast(1/f)))
	}
	t.Rule = fmt.Sprintf("ratio of medians, 90%% bootstrap interval; supported if inside [1/%.3g, %.3g], contradicted if outside", f, f)
	return t
}
