package slides

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// slides_table3 — the top-5 words of several topics (student slides, experiment 2), for the topic
// model on the original counts and on each factorisation's reconstruction, drawn from
// slides_table2's runs.
func table3() *run.Experiment {
	return &run.Experiment{
		ID: "slides_table3", Title: "Topics: the five most probable words of several topics per factorisation (student slides, experiment 2)",
		Source: "student slides, experiment 2 top-words table",
		Kind:   run.Table, Uses: table2(),
		Render: renderSlidesTable3,
		Claims: []run.Claim{{
			ID:   "sparse-top-words-lack-common-words",
			Kind: run.Finding,
			Text: "the top words of sparse PCA's topics hold no words of the common vocabulary, which are in the top words of every topic of the other methods",
			Rule: fmt.Sprintf("per corpus, one value per repetition: the share of the top-5 words of all topics under sparse PCA that are common words (the words of highest document frequency); "+
				"one-sided t test, supported if the mean is shown below %g, contradicted if shown above (the slides' \"no common words at all\", 0 within a tolerance of %g: "+
				"they judged from the 35 top words of the 7 topics they print, and with a larger share a reader of 35 words would more likely than not see one); "+
				"premise: the other three factorisations' top words hold common words (their mean share above %g), as the slides say; family of 2 corpora, Holm at 0.05",
				commonTolerance, commonTolerance, commonTolerance),
			Check: checkSlidesCommonWords,
		}},
	}
}

// commonTolerance is the share of common words among sparse PCA's top words that still reads as
// the slides' "none at all": they judged from the top words of the 7 topics they print, 35 words,
// and a reader of 35 words drawn with a share p of common words sees none of them with
// probability (1 − p)^35, below one half from p = 1 − 2^(−1/35) ≈ 0.0196. The tolerance is fixed
// from the slides' sentence and table, not from our shares.
const commonTolerance = 0.02

// checkSlidesCommonWords tests, per corpus, that sparse PCA's share of common words among its
// topics' top words is 0 within commonTolerance, given that the other methods' top words do hold
// common words.
func checkSlidesCommonWords(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	var notes []string
	for _, c := range corpora {
		label := fmt.Sprintf("%s: common-word share of %s's top words", corpusNames[c], labels[methodSparse])
		sparse := values(res, c, methodSparse, metricCommonShare)
		if len(sparse) == 0 {
			return verdict.Verdict{}, fmt.Errorf("%s: no %s of %s on %s", res.ID, metricCommonShare, methodSparse, c)
		}
		var others []string
		var total float64
		n := 0
		for _, m := range kit.Without(methodOrder, methodSparse) {
			v := values(res, c, m, metricCommonShare)
			if len(v) != len(sparse) {
				return verdict.Verdict{}, fmt.Errorf("%s: %s on %s: %d repetitions of %s against %d of %s", res.ID, metricCommonShare, c, len(v), m, len(sparse), methodSparse)
			}
			others = append(others, fmt.Sprintf("%s %s", labels[m], cell(v, "%.3g")))
			for _, x := range v {
				total += x
				n++
			}
		}
		notes = append(notes, fmt.Sprintf("%s, the others' shares: %s", corpusNames[c], strings.Join(others, ", ")))
		if mean := total / float64(n); !(mean > commonTolerance) {
			tests = append(tests, verdict.Premise(label, fmt.Sprintf("the other methods' top words hold hardly any common word either (mean share %.3g)", mean)))
			continue
		}
		tests = append(tests, verdict.MeanBelow(label, sparse, commonTolerance))
	}
	notes = append(notes, "one value per repetition: every method's topics on the same corpus")
	return verdict.Decide(tests, notes...), nil
}

func renderSlidesTable3(res *run.Results, out *run.Output) error {
	methods := append([]string{methodGuarantor}, methodOrder...)
	header := []string{"corpus", "topic (π)"}
	for _, m := range methods {
		header = append(header, labels[m])
	}
	var rows [][]string
	for _, c := range corpora {
		priors := res.Where(c, methodGuarantor, metricTopicPrior)
		if len(priors) == 0 {
			return fmt.Errorf("%s: no topics recorded for %s", res.ID, c)
		}
		for _, pr := range priors {
			rank, _ := pr.Param(topicParam)
			r, err := pr.ParamFloat(topicParam)
			if err != nil {
				return err
			}
			row := []string{corpusNames[c], fmt.Sprintf("#%g (%.3f)", r+1, pr.Value)}
			for _, m := range methods {
				words := make([]string, topWords)
				for _, r := range res.Where(c, m, metricTopWord) {
					if t, _ := r.Param(topicParam); t != rank || r.Rep != 0 {
						continue
					}
					place, err := r.ParamFloat(placeParam)
					if err != nil || place < 0 || int(place) >= topWords {
						return fmt.Errorf("%s: %s %s topic %s: bad word place (%v)", res.ID, c, m, rank, err)
					}
					words[int(place)], _ = r.Param(wordParam)
				}
				row = append(row, strings.Join(words, ", "))
			}
			rows = append(rows, row)
		}
	}
	cfg := topicsScales.At(res.Scale)
	caption := fmt.Sprintf("Student slides, experiment 2: the %d most probable words of the %d topics of largest prior π in the topic model on the original counts "+
		"(repetition 0), and of the topics matched to them (learn.MatchTopics, minimal total KL between the documents' posteriors) in the models fitted to each "+
		"factorisation's reconstruction. The slides print 7 topics of one model (Topic #1: john, love, father, wife, family; #2: police, joe, kill, gang, killed; "+
		"#3: friend, go, tell, get, father; #4: find, house, one, death, body; #5: war, men, one, army, soldie[r]; #6: love, get, father, family, life; "+
		"#7: film, new, school, life, play), on their own corpus. The claim counts as common words the %d words of highest document frequency. %s",
		topWords, cfg.shown, cfg.common, topicsSetUp(res))
	return plotting.WriteTable(filepath.Join(out.Dir, out.ID), caption, header, rows)
}
