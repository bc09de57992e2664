package slides

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

func TestCompareBasesMatchesUpToSignAndOrder(t *testing.T) {
	// Three orthogonal 2×4 "eigenfaces"; sparse PCA's basis is the first negated, then the
	// third and the second swapped, with one of 24 loadings set to zero.
	e := []*mat.Dense{
		mat.NewDense(2, 4, []float64{1, 1, 1, 1, 1, 1, 1, 1}),
		mat.NewDense(2, 4, []float64{1, -1, 1, -1, 1, -1, 1, -1}),
		mat.NewDense(2, 4, []float64{1, 1, 1, 1, -1, -1, -1, -1}),
	}
	s := []*mat.Dense{
		mat.NewDense(2, 4, []float64{-1, -1, -1, -1, -1, -1, -1, -1}),
		mat.NewDense(2, 4, []float64{1, 1, 1, 1, -1, -1, -1, -1}),
		mat.NewDense(2, 4, []float64{1, -1, 1, -1, 1, -1, 1, 0}),
	}
	c, err := compareBases(s, e)
	if err != nil {
		t.Fatal(err)
	}
	// |cos| of the last with the second eigenface: 7 / (√7·√8) = √(7/8).
	want := []float64{1, 1, math.Sqrt(7.0 / 8)}
	for j := range want {
		if math.Abs(c.cos[j]-want[j]) > 1e-12 || c.match[j] != []int{0, 2, 1}[j] {
			t.Errorf("image %d: match %d |cos| %g, want %d %g", j+1, c.match[j], c.cos[j], []int{0, 2, 1}[j], want[j])
		}
	}
	if c.zeros != 1.0/24 {
		t.Errorf("zero share %g, want 1/24", c.zeros)
	}
	got := c.sentence(0.004)
	for _, part := range []string{"coincide", "0.935–1.000", "images 1 with the eigenface of the same rank", "2 with eigenface 3, 3 with eigenface 2", "4.2% of sparse PCA's loadings"} {
		if !strings.Contains(got, part) {
			t.Errorf("sentence %q lacks %q", got, part)
		}
	}
	// A basis image far from every eigenface: they differ.
	s[2] = mat.NewDense(2, 4, []float64{1, 0, 0, 0, 0, 0, 0, 0})
	if c, err = compareBases(s, e); err != nil {
		t.Fatal(err)
	}
	if got := c.sentence(0.004); !strings.Contains(got, "differ") || !strings.Contains(got, "0.354–1.000") {
		t.Errorf("sentence %q: want the images said to differ, |cosine| 0.354–1.000", got)
	}
	if _, err := compareBases(s[:2], e); err == nil {
		t.Error("two basis images against three eigenfaces: no error")
	}
}

func TestDegenerateScoresByTheStatedRule(t *testing.T) {
	res := synthetic("slides_table2", 3, like, 0, 0)
	for _, c := range corpora {
		if v, bad := degenerateScores(res, c); bad {
			t.Errorf("%s: slides-like scores (largest %g) called degenerate", c, v)
		}
	}
	if note := degenerateNote(res); note != "" {
		t.Errorf("note %q for finite scores", note)
	}
	// One repetition of sparse PCA's score overflows on 20 Newsgroups: that corpus's column, and
	// only it, is degenerate, and its score tests fail their premise.
	for i, r := range res.Rows {
		if r.Dataset == corpora[0] && r.Method == methodSparse && r.Metric == metricScore && r.Rep == 1 {
			res.Rows[i].Value = 3.9e148
		}
	}
	if v, bad := degenerateScores(res, corpora[0]); !bad || v != 3.9e148 {
		t.Errorf("20 Newsgroups: degenerate %v (value %g), want true (3.9e148)", bad, v)
	}
	if _, bad := degenerateScores(res, corpora[1]); bad {
		t.Error("IMDB called degenerate")
	}
	if note := degenerateNote(res); !strings.Contains(note, "20 Newsgroups (a value of 3.9e+148)") || strings.Contains(note, "IMDB") {
		t.Errorf("note %q", note)
	}
	tests, err := aboveOthers(res, corpora[0], methodSparse, metricScore)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		if tc.Outcome() != verdict.Inconclusive || !strings.Contains(tc.Reason, "degenerate") {
			t.Errorf("%s: %v (%s), want a failed premise", tc.Label, tc.Outcome(), tc.Reason)
		}
	}
	for i, r := range res.Rows {
		if r.Dataset == corpora[1] && r.Method == methodSparse && r.Metric == metricScore {
			res.Rows[i].Value = math.Inf(1)
		}
	}
	if v, bad := degenerateScores(res, corpora[1]); !bad || !math.IsInf(v, 1) {
		t.Errorf("IMDB with +Inf: degenerate %v (%g)", bad, v)
	}
}

func TestDegenerateTopicsByTheStatedRules(t *testing.T) {
	words := topicWords{
		methodClassic: {{"edu", "use", "know", "just", "like"}, {"god", "jesus", "christ", "people", "church"}},
		methodSparse:  {{"dos", "g9v", "b8f", "a86", "145"}, {"145", "0d", "a86", "b8f", "0t"}},
		methodBayesian: {{"like", "just", "life", "good", "film"}, {"like", "just", "life", "good", "film"},
			{"film", "movie", "story", "like", "life"}},
	}
	bad := degenerateTopics(words, []string{methodClassic, methodSparse, methodBayesian})
	if _, ok := bad[methodClassic]; ok {
		t.Errorf("real topics called degenerate: %q", bad[methodClassic])
	}
	if why := bad[methodSparse]; !strings.Contains(why, "9 of its 10 top words hold digits (145, a86, b8f)") {
		t.Errorf("junk topics: %q", why)
	}
	if why := bad[methodBayesian]; !strings.Contains(why, "2 of its 3 topics have the same top words (like, just, life, good, film)") || strings.Contains(why, "digits") {
		t.Errorf("repeated topics: %q", why)
	}
}

func TestSlidesFig1ResultReadsTheCurves(t *testing.T) {
	curve := func(xs, means []float64) kit.Curve {
		c := kit.Curve{}
		for i, x := range xs {
			c.Points = append(c.Points, run.Summary{X: x, Mean: means[i]})
		}
		return c
	}
	got := slidesFig1Result(curve([]float64{0, 1, 5}, []float64{0.9, 1, 1.02}), curve([]float64{0, 5, 40}, []float64{0.8, 1.07, 1.03}), 1.05)
	want := "The randomized SVD's mean score is 0.900 at q = 0 and 1.020 at q = 5 power iterations; Bayesian PCA's is 0.800 after 0 EM iterations, 1.070 after 5 and 1.030 after 40; the classic SVD's median is 1.050."
	if got != want {
		t.Errorf("result\n%q, want\n%q", got, want)
	}
}
