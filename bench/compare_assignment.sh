#!/usr/bin/env bash
# Side-by-side timings of the lab's linear assignment solver (lab/learn.Assignment) and scipy's
# linear_sum_assignment (issues 34 and 35, target ratio <= 1.0 on every matrix), on the same
# matrices in the same run: n x n for n = 500, 2000 and 3000 of three kinds,
#   - zeros (every assignment optimal: ties everywhere);
#   - integer costs uniform on 0-4 (many ties);
#   - costs uniform on [0, 1) (no ties).
# lab/learn's TestWriteAssignmentCompareData writes the matrices into a temporary folder, the
# Python side writes scipy's optimal totals and TestAssignmentAgreesWithScipy checks that the lab
# finds the same totals (exactly for integer costs) before anything is timed.
# The two sides run in alternating rounds (Go, then Python, RUNS times, default 5, at least 5); in
# each round a measure is the mean of CALLS calls (default 20, at least 2: the 500 x 500 calls take
# about a millisecond, and a mean of 3 of them read 1.45 where 20 read 0.80) after one untimed
# warm-up call; the table shows the medians over the rounds. A round takes under a minute on 2 cores.
#
# Usage: bench/compare_assignment.sh        (from anywhere; RUNS=7 CALLS=30 bench/compare_assignment.sh)
# Needs: Go, cgo and Debian's libopenblas-dev (the test binary is built as the other scripts'),
# and Python with numpy and scipy (exit status 2, with the command to install them, when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT=compare_assignment.sh
source bench/compare_lib.sh
RUNS=${RUNS:-5}
CALLS=${CALLS:-20}
compare_at_least RUNS "$RUNS" 5
compare_at_least CALLS "$CALLS" 2

compare_setup numpy scipy
export KERNELLAB_COMPARE_DATA="$work/data"
mkdir "$KERNELLAB_COMPARE_DATA"
compare_build learn

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lab: $(go version | cut -d' ' -f3); Python: $("$python" -c 'import numpy, scipy; print(f"numpy {numpy.__version__}, scipy {scipy.__version__}")'); $RUNS rounds of $CALLS calls"

if ! compare_test learn '^TestWriteAssignmentCompareData$'; then
  echo "compare_assignment.sh: writing the cost matrices failed" >&2
  exit 1
fi
"$python" bench/compare_assignment.py prepare "$KERNELLAB_COMPARE_DATA"
if ! compare_test learn '^TestAssignmentAgreesWithScipy$'; then
  echo "compare_assignment.sh: the lab and scipy disagree on an optimal total" >&2
  exit 1
fi

for round in $(seq "$RUNS"); do
  if ! (cd lab/learn && "$work/learn.test" -test.run '^$' -test.benchtime "${CALLS}x" -test.bench '^BenchmarkCompareAssignment$') >>"$work/go.txt" 2>&1; then
    cat "$work/go.txt" >&2
    exit 1
  fi
  "$python" bench/compare_assignment.py time "$KERNELLAB_COMPARE_DATA" "$CALLS" >>"$work/times.txt"
  echo "round $round of $RUNS done" >&2
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
compare_go_times <"$work/go.txt"

echo
rows=""
for kind in zeros ints uniform; do
  for n in 500 2000 3000; do
    rows="$rows $kind $n $(median "BenchmarkCompareAssignment/${kind}_$n") $(median "scipy_assign_${kind}_$n")"
  done
done
awk -v rows="$rows" 'BEGIN {
  fmt = "%-60s %10s %10s %7s %8s  %s\n"
  printf fmt, "median of the rounds", "lab", "scipy", "ratio", "target", ""
  n = split(rows, f, " ")
  what["zeros"] = "zeros"; what["ints"] = "integer costs 0-4"; what["uniform"] = "uniform costs"
  for (i = 1; i <= n; i += 4) row(sprintf("assignment %s x %s, %s", f[i + 1], f[i + 1], what[f[i]]), f[i + 2], f[i + 3], 1.0)
}'"$compare_row"
