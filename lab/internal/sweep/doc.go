// Package sweep holds only a test: the robustness sweep of issues 16 and 34 over the exported API
// of every package of the lab: the numeric, statistical and plotting ones (kernel, lowrank,
// leverage, mmd, pursuit, learn, factor, csr, forest, graphkernel, text, verdict, plotting but its
// two file writers) and those that read files and the network (dataset, dataset/format), run
// experiments (run) and talk to a notebook (notebook). Every function listed there, and every
// exported method of their types (on the zero value and on a built value, found by reflection), is
// called with valid and bad arguments — NaN, ±Inf, subnormal and huge values, nil, typed-nil and
// zero-value objects, huge sizes (integers, and dimensions of 2⁴⁰ through lazy matrices, CSR
// matrices, documents that store nothing, file headers and images that claim them), huge
// iteration counts (under a deadline for Context functions), overflowing kernels, readers of
// garbage, experiments whose plans fail — one bad argument at a time. The test fails on a panic,
// on a call that does not return within its per-call timeout, and on a NaN or ±Inf in a result
// returned with a nil error: a function of the lab returns finite results or an error that says
// why. The file and network packages are swept from a scratch working folder with no mirror and
// an upstream on a closed local port, so that no call reaches the network or writes into the
// repository.
package sweep
