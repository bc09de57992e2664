// Package matcheck validates the matrices and vectors that users hand to the lab's algorithms:
// non-nil (also a typed nil pointer), non-empty and finite (no NaN, no ±Inf). Packages kernel,
// lowrank, factor and learn all call it, so bad input is reported the same way everywhere.
//
// Every error names the argument and, for a non-finite value, its position, as in
// "lowrank: Nystrom.Fit: X[3,1] = NaN, want finite values": the first argument of each function
// (where) is the prefix that says which package and operation failed.
//
// The finite scan tests v−v ≠ 0, a single subtraction per value (zero for every finite v, NaN for
// NaN and ±Inf), so checking a 100000×54 input costs a few milliseconds.
package matcheck
