#!/usr/bin/env bash
# Side-by-side timings of lab/forest and scikit-learn for the chapter-6 performance goals of
# issue 13, on the same data in the same run:
#   - random-forest fit, 1000 fully grown trees with bootstrap, on California's training part
#     (data set "houses", 12,384 x 8, regression, max_features = d) and Spambase's (2,761 x 57,
#     labels +-1, max_features = sqrt(d)), against RandomForestRegressor / RandomForestClassifier
#     (n_jobs=2, same trees and max_features) (target ratio <= 0.5); the validation MSE and
#     accuracy of both sides' forests are shown beside the times;
#   - OMP pruning of a 1000-tree prediction matrix (16,512 x 1000: the per-tree predictions of a
#     lab forest on California's training and validation rows) at every size from 1 to 300 (30%),
#     lab.PruneOMP (one path; on the normal equations, as n > T) against scikit-learn's
#     OrthogonalMatchingPursuit fitted once per size on the unit-norm columns, as the thesis's
#     code does (target <= 0.8), against orthogonal_mp(return_path=True) (target <= 0.8, issue
#     35), against the same with precompute=True (scikit-learn's Gram route for the whole path,
#     the peer's best route: target <= 1.0) and against one Gram-route fit at size 300 (target
#     <= 1.0, issue 35).
# Before timing, lab/forest's TestWriteForestCompareData writes the data (from the data mirror)
# into a temporary folder, the Python side checks it and writes scikit-learn's OMP path, and
# TestPruneOMPAgreesWithSklearn checks that PruneOMP picks the same trees in the same order with
# the same weights (1e-10 relative to the largest).
# The two sides run in alternating rounds (Go, then Python, RUNS times, default 5, at least 5); in
# each round a measure is the mean of CALLS calls (default 1; no warm-up call, as each call takes
# seconds to minutes); the table shows the medians over the rounds. A round takes about 4 minutes
# on 2 cores, most of it scikit-learn's 300 OMP fits.
#
# Usage: bench/compare_forest.sh        (from anywhere; RUNS=7 bench/compare_forest.sh for more)
# Needs: Go, cgo and Debian's libopenblas-dev (the lab is built with -tags openblas), Debian's
# python3-sklearn (exit status 2, with the command to install it, when it is missing), and the
# data mirror (LAB_DATA_MIRROR, else /work/shared/datasets).
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT=compare_forest.sh
source bench/compare_lib.sh
RUNS=${RUNS:-5}
CALLS=${CALLS:-1}
compare_at_least RUNS "$RUNS" 5
compare_at_least CALLS "$CALLS" 1
compare_mirror

compare_setup numpy sklearn
export KERNELLAB_COMPARE_DATA="$work/data"
mkdir "$KERNELLAB_COMPARE_DATA"
compare_build forest

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lab: $(go version | cut -d' ' -f3), OpenBLAS (cgo, -tags openblas), GOMAXPROCS $(nproc); Python: $("$python" -c 'import numpy, sklearn; print(f"numpy {numpy.__version__}, scikit-learn {sklearn.__version__}")'), n_jobs=2; $RUNS rounds of $CALLS call(s)"

if ! compare_test forest '^TestWriteForestCompareData$'; then
  echo "compare_forest.sh: writing the comparison data failed (is the data mirror there?)" >&2
  exit 1
fi
"$python" bench/compare_forest.py prepare "$KERNELLAB_COMPARE_DATA"
if ! compare_test forest 'AgreesWith'; then
  echo "compare_forest.sh: the lab and scikit-learn disagree on the OMP path" >&2
  exit 1
fi

# One round: the Go benchmarks (-benchtime CALLSx: the mean of CALLS calls), then the Python side.
for round in $(seq "$RUNS"); do
  if ! (cd lab/forest && "$work/forest.test" -test.run '^$' -test.benchtime "${CALLS}x" \
    -test.bench '^(BenchmarkCompareForestFit|BenchmarkComparePruneOMP)$') >>"$work/go.txt" 2>&1; then
    cat "$work/go.txt" >&2
    exit 1
  fi
  "$python" bench/compare_forest.py time "$KERNELLAB_COMPARE_DATA" "$CALLS" >>"$work/times.txt"
  echo "round $round of $RUNS done" >&2
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
compare_go_times <"$work/go.txt"

echo
awk -v cal="$(median BenchmarkCompareForestFit/california)" -v scal="$(median sklearn_forest_california)" \
  -v spam="$(median BenchmarkCompareForestFit/spambase)" -v sspam="$(median sklearn_forest_spambase)" \
  -v calq="$(median BenchmarkCompareForestFit/california:val-MSE)" -v scalq="$(median sklearn_forest_california:val-MSE)" \
  -v spamq="$(median BenchmarkCompareForestFit/spambase:val-accuracy)" -v sspamq="$(median sklearn_forest_spambase:val-accuracy)" \
  -v omp="$(median BenchmarkComparePruneOMP)" -v somp="$(median sklearn_omp_per_size)" \
  -v path="$(median sklearn_omp_path)" -v gpath="$(median sklearn_omp_gram_path)" \
  -v largest="$(median sklearn_omp_largest)" 'BEGIN {
  fmt = "%-56s %10s %10s %7s %8s  %s\n"
  printf fmt, "median of the rounds", "lab", "sklearn", "ratio", "target", ""
  row("forest fit, 1000 trees, California 12384 x 8 (d)", cal, scal, 0.5)
  printf "  validation MSE: lab %.4g, scikit-learn %.4g (ratio %.3f)\n", calq, scalq, calq / scalq
  row("forest fit, 1000 trees, Spambase 2761 x 57 (sqrt)", spam, sspam, 0.5)
  printf "  validation accuracy: lab %.4f, scikit-learn %.4f\n", spamq, sspamq
  row("OMP pruning, sizes 1..300, vs one fit per size", omp, somp, 0.8)
  row("  vs orthogonal_mp(return_path=True)", omp, path, 0.8)
  row("  vs the same with precompute=True (Gram route)", omp, gpath, 1.0)
  row("  vs one Gram-route fit at size 300", omp, largest, 1.0)
}'"$compare_row"
