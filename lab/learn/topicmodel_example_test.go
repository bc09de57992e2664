package learn_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/fastkernels/kernellab/lab/learn"
	"github.com/fastkernels/kernellab/lab/text"
)

// Six tiny documents about two subjects: the one-topic-per-document model separates them, its
// top words name the topics, and a second run, whose topic labels are arbitrary, is matched to
// the first one by the assignment problem (zero divergence: the runs agree up to the labels).
func ExampleFitTopicModel() {
	bag, err := text.Build([]string{
		"the goalkeeper saved the penalty and the match ended",
		"a late goal won the match for the home team",
		"the team scored a goal from the penalty spot",
		"the oven bakes bread with flour and yeast",
		"knead the flour and yeast then bake the bread",
		"bread from the oven smells of yeast",
	}, text.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := learn.TopicModelOptions{Restarts: 5}
	a, err := learn.FitTopicModel(rand.New(rand.NewPCG(1, 1)), bag, 2, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := learn.FitTopicModel(rand.New(rand.NewPCG(15, 1)), bag, 2, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("topics of run a:", a.Topics, "of run b:", b.Topics)
	for t := range 2 {
		ids, _ := a.TopWords(t, 3)
		words := make([]string, len(ids))
		for i, id := range ids {
			words[i] = bag.Vocabulary[id]
		}
		fmt.Printf("topic %d: %s\n", t, strings.Join(words, ", "))
	}
	pa, _ := a.LogPosterior(bag)
	pb, _ := b.LogPosterior(bag)
	match, meanKL, err := learn.MatchTopics(pa, pb)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("run b's topics for a's: %v, mean KL %.3f\n", match, meanKL)
	// Output:
	// topics of run a: [1 1 1 0 0 0] of run b: [0 0 0 1 1 1]
	// topic 0: bread, yeast, flour
	// topic 1: goal, match, penalty
	// run b's topics for a's: [1 0], mean KL 0.000
}
