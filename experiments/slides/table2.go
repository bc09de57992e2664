package slides

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// printed2 is one row of the slides' table of experiment 2.
type printed2 struct {
	factorTime, topicTime string // as printed
	components            int
	score                 float64
}

// table2Printed are the slides' values (on their own corpus of about 150,000 annotations).
var table2Printed = map[string]printed2{
	methodClassic:    {"9 min", "16 s", 2433, 0.63},
	methodRandomized: {"126 s", "16 s", 2675, 1.29},
	methodSparse:     {"4 min", "25 s", 5226, 3.97},
	methodBayesian:   {"58 s", "16 s", 2600, 1.61},
}

// slides_table2 — experiment 2 of the student slides: the hard-EM topic model on each
// factorisation's reconstruction of a bag of words. It runs the tasks of slides_table3 as well.
func table2() *run.Experiment {
	return &run.Experiment{
		ID: "slides_table2", Title: "Topics: factorisation time, topic-model time, |Σ̃| and score per factorisation (student slides, experiment 2)",
		Source: "student slides, experiment 2 results table",
		Kind:   run.Table, Seed: 2002, Serial: true, Timings: []string{metricFactorTime, metricTopicTime},
		Plan:   topicsTasks,
		Render: renderSlidesTable2,
		Claims: []run.Claim{
			{
				ID:   "randomized-faster-than-classic",
				Kind: run.Timing,
				Text: "every randomized factorisation (randomized SVD, sparse PCA, Bayesian PCA) factorises the corpus faster than the classic SVD (slides: 126 s, 4 min and 58 s against 9 min)",
				Rule: "per corpus and method, one value per repetition: the method's factorisation time over the classic SVD's, " + fasterRule + "; family of 6 (3 methods × 2 corpora), Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					return checkSlidesFaster(res, func(m string) [2]string { return [2]string{m, methodClassic} }, methodClassic)
				},
			},
			{
				ID:   "sparse-largest-worst",
				Kind: run.Finding,
				Text: "sparse PCA keeps the most components (the largest |Σ̃|) and has the worst score (the largest: smaller is better)",
				Rule: "per corpus, against each other factorisation, one value per repetition: sparse PCA's |Σ̃| minus the other's, and its score minus the other's, means above 0 (paired t); family of 12 (2 metrics × 3 methods × 2 corpora), Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					return checkSlidesAboveOthers(res, corpora, methodSparse, metricComponents, metricScore)
				},
			},
			{
				ID:   "bayesian-fastest",
				Kind: run.Timing,
				Text: "Bayesian PCA is the fastest factorisation (slides: 58 s)",
				Rule: "per corpus, against each other factorisation, one value per repetition: Bayesian PCA's factorisation time over the other's, " + fasterRule + "; family of 6, Holm at 0.05",
				Check: func(res *run.Results) (verdict.Verdict, error) {
					return checkSlidesFaster(res, func(m string) [2]string { return [2]string{methodBayesian, m} }, methodBayesian)
				},
			},
		},
	}
}

// checkSlidesFaster decides "a factorises faster than b" on both corpora for the pairs (a, b) =
// pair(m) of every factorisation m but skip: the paired geometric-mean ratio of times below
// 1/verdict.TimeMargin.
func checkSlidesFaster(res *run.Results, pair func(m string) [2]string, skip string) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, c := range corpora {
		for _, m := range kit.Without(methodOrder, skip) {
			ab := pair(m)
			t, err := faster(res, c, metricFactorTime, ab[0], ab[1])
			if err != nil {
				return verdict.Verdict{}, err
			}
			tests = append(tests, t)
		}
	}
	return verdict.Decide(tests, "one value per repetition: every method factorises the same bag of words"), nil
}

// scoreBound is the largest topic-agreement score read as data: a million times the slides'
// largest score (3.97). The score averages, over the documents, the summed KL divergences to the
// guarantor runs over their variance; a value beyond this bound means that for some document the
// runs' divergences agree to within about a millionth of their sum, so that the ratio measures
// rounding and overflow, not agreement.
const scoreBound = 1e6

// degenerateScores reports whether a corpus's score column is degenerate: some value, of any
// method or of the reference row in any repetition, is not finite or beyond scoreBound. It
// returns the value that decided it (the largest in magnitude, or the first non-finite one).
func degenerateScores(res *run.Results, corpus string) (float64, bool) {
	worst := 0.0
	for _, m := range append(slices.Clone(methodOrder), methodGuarantor) {
		for _, v := range values(res, corpus, m, metricScore) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return v, true
			}
			if math.Abs(v) > math.Abs(worst) {
				worst = v
			}
		}
	}
	return worst, math.Abs(worst) > scoreBound
}

// degenerateNote says which corpora's score columns are degenerate, and why, for a caption; empty
// if none.
func degenerateNote(res *run.Results) string {
	var notes []string
	for _, c := range corpora {
		if v, bad := degenerateScores(res, c); bad {
			notes = append(notes, fmt.Sprintf("%s (a value of %.3g)", corpusNames[c], v))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return fmt.Sprintf("The score column of %s is degenerate and is not printed: a score counts as data only if every value of the corpus (every method, the reference row, "+
		"every repetition) is finite and at most %g, a million times the slides' largest score; beyond it some document's divergences to the guarantor runs agree "+
		"to within a millionth of their sum, and the score's ratio to their variance measures rounding, not agreement. The mean KL column is read instead. ",
		strings.Join(notes, " and "), scoreBound)
}

func renderSlidesTable2(res *run.Results, out *run.Output) error {
	header := []string{"corpus", "method", "factorisation time, s", "(slides)", "topic-model time, s", "(slides)", "|Σ̃|", "(slides)", "score", "(slides)", "documents skipped", "mean KL to a guarantor run"}
	var rows [][]string
	for _, c := range corpora {
		_, degenerate := degenerateScores(res, c)
		for _, m := range append(slices.Clone(methodOrder), methodGuarantor) {
			v := func(metric, format string) string { return cell(values(res, c, m, metric), format) }
			row := []string{corpusNames[c], labels[m], "—", "", v(metricTopicTime, "%.3g"), "", "all words", "", v(metricScore, "%.3g"), "", v(metricSkipped, "%g"), v(metricMeanKL, "%.3g")}
			if degenerate {
				row[8] = "degenerate (overflow)"
			}
			if m != methodGuarantor {
				row[2], row[6] = v(metricFactorTime, "%.3g"), v(metricComponents, "%g")
			}
			if p, ok := table2Printed[m]; ok {
				row[3], row[5], row[7], row[9] = p.factorTime, p.topicTime, fmt.Sprint(p.components), fmt.Sprint(p.score)
			}
			rows = append(rows, row)
		}
	}
	caption := "Student slides, experiment 2: the hard-EM topic model on each factorisation's reconstruction of a bag of words, our values beside the slides' " +
		"(their corpus, about 150,000 English annotations of the MSU text-analysis lab, is not available: 20 Newsgroups stands in for it and IMDB reviews are a second corpus; " +
		"the slides' values are on their corpus). " + degenerateNote(res) + topicsSetUp(res) + " Cells: median over the repetitions (range in brackets)."
	return plotting.WriteTable(filepath.Join(out.Dir, out.ID), caption, header, rows)
}

// topicsSetUp describes experiment 2's data and protocol at the results' scale for captions.
func topicsSetUp(res *run.Results) string {
	cfg := topicsScales.At(res.Scale)
	var sizes string
	for i, c := range corpora {
		if i > 0 {
			sizes += "; "
		}
		sizes += fmt.Sprintf("%s %s documents × %s words", corpusNames[c],
			cell(values(res, c, dataMethod, metricDocs), "%g"), cell(values(res, c, dataMethod, metricWords), "%g"))
	}
	docs := "every document"
	if cfg.maxDocs > 0 {
		docs = fmt.Sprintf("%d documents evenly spaced over the corpus (every label represented)", cfg.maxDocs)
	}
	return fmt.Sprintf("Data: %s; bag of words (scikit-learn's tokens and English stop words, 20 Newsgroups' headers and encoded lines removed (text.EncodedLine: 40 or more characters without a space, as in uuencoded and base64 binaries and PGP signatures), words of at least %d documents, "+
		"the %d most frequent kept, empty documents dropped): %s. Topic model: one topic per document (hard EM, smoothing β = 0.01), T = %d topics; "+
		"the guarantor is %d runs on the original counts; every other fit keeps the most likely of %d restarts. Each factorisation of the (uncentred) count matrix computes %d "+
		"components (the classic SVD is exact, on the densified matrix: LAPACK's dgesvdx computes the leading ones when they are at most a quarter of min(m, n), else dgesdd computes all and keeps those; randomized SVD: oversampling %d, %d power iterations; "+
		"sparse PCA: λ = %g·‖A‖_F, %d alternations from the randomized SVD; Bayesian PCA = probabilistic PCA, which centres, %d EM iterations), keeps |Σ̃| of them by the 70%% rule, and the topic model "+
		"is fitted to its rank-|Σ̃| reconstruction with negative entries clipped to 0, built row by row on the fly and copied once by the topic model (in dense rows, its E-step one matrix product, when at least a quarter of the entries are positive). "+
		"The reference row fits the same restarts to the original counts. Score (learn.TopicAgreement): for each document, the KL divergences of the kept model's posterior "+
		"q(t | d) to each guarantor run's (topics matched once per run by minimal total KL, an assignment problem), summed over the runs and divided by their variance over the runs "+
		"(the slide's 𝔻 read as the variance); the mean over the documents; smaller is better; documents with equal divergences to every run have no ratio and are skipped (counted). "+
		"Posteriors are those of the original documents. The last column is the plain mean, over the documents and the guarantor runs, of the matched KL divergence (TopicScore.MeanKL), a steadier summary than the score's ratio. Times: %s, tasks one at a time on a shared two-core machine; "+
		"the topic-model time includes building the reconstruction's rows.",
		docs, cfg.minDF, cfg.maxWords, sizes, cfg.topics, cfg.guarantors, cfg.restarts, cfg.factor.components, oversample, cfg.factor.powerIterations,
		cfg.factor.sparsePenalty, cfg.factor.sparseIterations, cfg.factor.emIterations, cfg.factor.timing())
}
