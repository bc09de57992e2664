package kernel

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// CrossBlocks computes the cross-kernel K(X, Z) between the rows of X (m×d) and of Z (n×d) one
// block of rows at a time and hands each block to use: use(lo, hi, block) with block the
// (hi−lo)×n matrix K(X[lo:hi], Z), for lo = 0, b, 2b, … in that order, b = max(1, ⌊2¹⁸/n⌋) rows
// (a block of at most 2 MiB, or one row), so that applying the kernel to many points, such as
// Σ_j α_j k(x, z_j) for every row x, never forms the m×n matrix. Each block is computed by
// [CrossInto] (all cores, the same values as Cross); block is reused, so use must not keep it, and
// may overwrite it. The blocks depend only on m and n, never on the number of goroutines.
//
// Errors: a nil use, nil or empty X or Z, NaN or ±Inf, and CrossInto's errors (returned as they
// are, naming "kernel: CrossInto"), after which use is not called again. Cost: O(m·n·d) time for
// the kernel values plus use's; memory one block of at most max(2¹⁸, n) floats.
func CrossBlocks(k Kernel, X, Z *mat.Dense, use func(lo, hi int, block *mat.Dense)) error {
	const op = "CrossBlocks"
	if use == nil {
		return fmt.Errorf("kernel: %s: nil use function", op)
	}
	if _, err := rowsOf(op, "X", X); err != nil {
		return err
	}
	if _, err := rowsOf(op, "Z", Z); err != nil {
		return err
	}
	rows, d := X.Dims()
	n, _ := Z.Dims()
	step := max(1, min(rows, blockElements/n))
	var block mat.Dense
	for lo := 0; lo < rows; lo += step {
		hi := min(rows, lo+step)
		block.Reset()
		if err := CrossInto(&block, k, X.Slice(lo, hi, 0, d), Z); err != nil {
			return err
		}
		use(lo, hi, &block)
	}
	return nil
}
