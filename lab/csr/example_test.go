package csr_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
)

// A 3-document × 4-word bag of words from (document, word, count) triplets; the repeated
// (0, 2) entry is summed.
func Example() {
	docs := []int{0, 0, 0, 1, 2, 2}
	words := []int{0, 2, 2, 1, 1, 3}
	counts := []float64{1, 1, 2, 5, 1, 1}
	a, err := csr.FromTriplets(3, 4, docs, words, counts)
	if err != nil {
		fmt.Println(err)
		return
	}
	cols, vals := a.Row(0)
	fmt.Println("stored:", a.NNZ(), "row 0:", cols, vals)

	// A·B and Aᵀ·C with dense B (4×1) and C (3×1).
	var ab, atc mat.Dense
	if err := a.MulDense(&ab, mat.NewDense(4, 1, []float64{1, 1, 1, 1})); err != nil {
		fmt.Println(err)
		return
	}
	if err := a.MulTransDense(&atc, mat.NewDense(3, 1, []float64{1, 0, 1})); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("words per document:", mat.Col(nil, 0, &ab))
	fmt.Println("counts in documents 0 and 2:", mat.Col(nil, 0, &atc))
	// Output:
	// stored: 5 row 0: [0 2] [1 3]
	// words per document: [4 5 2]
	// counts in documents 0 and 2: [1 1 3 1]
}
