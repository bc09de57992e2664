package parallel_test

import (
	"fmt"

	"github.com/fastkernels/kernellab/lab/internal/parallel"
)

func ExampleBlocks() {
	// Squares of 0..9 computed in blocks of 4 rows on all cores: each block writes only its rows.
	squares := make([]int, 10)
	_ = parallel.Blocks(len(squares), 4, func(_, lo, hi int) error {
		for i := lo; i < hi; i++ {
			squares[i] = i * i
		}
		return nil
	})
	fmt.Println(squares)
	// Output: [0 1 4 9 16 25 36 49 64 81]
}
