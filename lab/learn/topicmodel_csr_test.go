package learn

import "github.com/fastkernels/kernellab/lab/csr"

// A CSR bag of words is a Documents: the topic model reads lab/csr matrices directly.
var _ Documents = (*csr.Matrix)(nil)
