// Package sweep holds only a test: the robustness sweep of issue 16 over the exported API of the
// numeric packages (kernel, lowrank, leverage, mmd, sparse, learn, factor, forest, graphkernel).
// Every function listed there, and every exported method of their types (on the zero value and
// on a built value, found by reflection), is called with valid and bad arguments — NaN, ±Inf,
// subnormal and huge values, nil and zero-value objects, huge sizes, overflowing kernels — one
// bad argument at a time. The test fails on a panic, on a call that does not return within its
// per-call timeout, and on a NaN or ±Inf in a result returned with a nil error: a function of
// the lab returns finite results or an error that says why.
package sweep
