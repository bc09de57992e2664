package text_test

import (
	"fmt"

	"github.com/fastkernels/kernellab/lab/text"
)

// Three documents become a bag of words: stop words go, the vocabulary is sorted, and each
// document is a list of (word ID, count) pairs.
func ExampleBuild() {
	bag, err := text.Build([]string{
		"The cat sat on the mat. The cat!",
		"A dog and a cat.",
		"Dogs bark; the dog sleeps.",
	}, text.Options{MinDF: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("vocabulary:", bag.Vocabulary)
	for i := range 3 {
		words, counts := bag.Row(i)
		fmt.Println("document", i, words, counts)
	}
	// Output:
	// vocabulary: [cat dog]
	// document 0 [0] [2]
	// document 1 [0 1] [1 1]
	// document 2 [1] [1]
}
