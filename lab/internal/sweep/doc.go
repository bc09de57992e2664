// Package sweep holds only a test: the robustness sweep of issues 16 and 34 over the exported API
// of the numeric, statistical and plotting packages (kernel, lowrank, leverage, mmd, pursuit,
// learn, factor, csr, forest, graphkernel, text, verdict, plotting but its two file writers). Every
// function listed there, and every exported method of their types (on the zero value and on a built
// value, found by reflection), is called with valid and bad arguments — NaN, ±Inf, subnormal and
// huge values, nil, typed-nil and zero-value objects, huge sizes (integers, and dimensions of 2⁴⁰
// through lazy matrices, CSR matrices and documents that store nothing), huge iteration counts
// (under a deadline for Context functions), overflowing kernels — one bad argument at a time. The
// test fails on a panic, on a call that does not return within its per-call timeout, and on a NaN
// or ±Inf in a result returned with a nil error: a function of the lab returns finite results or an
// error that says why. The packages that read files and the network (dataset), run experiments
// (run) or talk to a notebook (notebook) are tested through their own tests instead: their inputs
// are paths and servers.
package sweep
