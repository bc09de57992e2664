"""scipy side of bench/compare_assignment.sh (learn.Assignment, issue 34).

Two modes, on the data folder that lab/learn's TestWriteAssignmentCompareData fills (square cost
matrices, raw little-endian float64, row major):

    python3 compare_assignment.py prepare DIR   solve each matrix with
                                                scipy.optimize.linear_sum_assignment, check the
                                                answer is a permutation, and write the optimal
                                                totals (scipy_assign_totals.f64) for the Go test
                                                TestAssignmentAgreesWithScipy
    python3 compare_assignment.py time DIR [CALLS]
                                                time linear_sum_assignment on each matrix: one
                                                untimed warm-up call, then the mean of CALLS calls
                                                (default 2), printed as "scipy_assign_<case> <s>"
"""

import os
import sys
import time

import numpy as np
from scipy.optimize import linear_sum_assignment

# The order of the Go side's assignmentCases: each kind at each size.
CASES = [f"{kind}_{n}" for kind in ("zeros", "ints", "uniform") for n in (500, 2000, 3000)]


def read(folder, case):
    """Reads the square cost matrix of case."""
    data = np.fromfile(os.path.join(folder, f"assign_{case}.f64"), dtype="<f8")
    n = int(round(data.size ** 0.5))
    if n * n != data.size or not np.all(np.isfinite(data)):
        raise SystemExit(f"compare_assignment.py: assign_{case}.f64 holds {data.size} values, want a finite square matrix")
    return data.reshape(n, n)


def prepare(folder):
    totals = []
    for case in CASES:
        cost = read(folder, case)
        rows, cols = linear_sum_assignment(cost)
        if sorted(cols) != list(range(cost.shape[1])) or list(rows) != list(range(cost.shape[0])):
            raise SystemExit(f"compare_assignment.py: {case}: scipy's answer is not a permutation")
        totals.append(cost[rows, cols].sum())
    path = os.path.join(folder, "scipy_assign_totals.f64")
    np.asarray(totals, dtype="<f8").tofile(path + ".tmp")
    os.replace(path + ".tmp", path)


def timing(folder, calls):
    for case in CASES:
        cost = read(folder, case)
        linear_sum_assignment(cost)  # warm-up
        start = time.perf_counter()
        for _ in range(calls):
            linear_sum_assignment(cost)
        print(f"scipy_assign_{case} {(time.perf_counter() - start) / calls}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("prepare", "time"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        timing(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2)
