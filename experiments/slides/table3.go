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
			Text: "the top words of sparse PCA's topics hold no words of the common vocabulary, which are in the top words of every topic of the other methods",
			Rule: "per corpus, one value per repetition: the share of the top-5 words of all topics that are common words (the words of highest document frequency) under sparse PCA " +
				"minus the mean of that share under the other three factorisations, mean below 0 (paired t); premise: the others' share is positive; family of 2 corpora, Holm at 0.05",
			Check: checkSlidesCommonWords,
		}},
	}
}

func checkSlidesCommonWords(res *run.Results) (verdict.Verdict, error) {
	var tests []verdict.Test
	for _, c := range corpora {
		others := make([][]float64, 0, 3)
		for _, m := range kit.Without(methodOrder, methodSparse) {
			_, o, err := paired(res, c, metricCommonShare, methodSparse, m)
			if err != nil {
				return verdict.Verdict{}, err
			}
			others = append(others, o)
		}
		sparse := values(res, c, methodSparse, metricCommonShare)
		d := make([]float64, len(sparse))
		var othersTotal float64
		for i := range d {
			var mean float64
			for _, o := range others {
				mean += o[i] / float64(len(others))
			}
			othersTotal += mean
			d[i] = sparse[i] - mean
		}
		label := fmt.Sprintf("%s: common-word share of %s − mean of the others", corpusNames[c], labels[methodSparse])
		if othersTotal == 0 {
			tests = append(tests, verdict.Premise(label, "the other methods' top words hold no common word either"))
			continue
		}
		tests = append(tests, verdict.MeanBelow(label, d, 0))
	}
	return verdict.Decide(tests, "one value per repetition, paired: every method's topics on the same corpus"), nil
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
