#!/usr/bin/env bash
# Side-by-side timings of the slides' library (lab/factor, lab/learn) and scikit-learn / numpy for
# the performance goals of issue 14, on the same data in the same run:
#   - randomized SVD, k = 50, oversampling 10, 4 power iterations, of a 20,000 x 1000 dense matrix
#     (known spectrum exp(-i/10)) and of the 20 Newsgroups bag of words (lab/text's defaults,
#     18,846 documents), lab.RandomizedSVD against randomized_svd(power_iteration_normalizer="QR",
#     re-orthonormalising after every product as the lab does) (target ratio <= 0.8), and, for
#     reference, against "LU" (what "auto" picks);
#   - classic SVD of a 2000 x 1000 Gaussian matrix, lab.TruncatedSVD (k = 50 of the full thin SVD)
#     against numpy.linalg.svd(full_matrices=False) (target <= 1.0);
#   - KNN prediction (K = 5) of 1833 LFW query faces from 7331 training faces, all projected on 100
#     classic-SVD components, against KNeighborsClassifier(algorithm="brute").predict (target <= 0.8);
#   - Go only: the T = 30 topic model (hard EM) on the 20 Newsgroups bag of words, in documents per
#     second per EM iteration.
# Before timing, lab/factor's TestWriteFactorCompareData and lab/learn's TestWriteLearnCompareData
# write the data (the corpus and the faces from the data mirror) into a temporary folder, the
# Python side checks its routes against independent references (the closed-form spectrum, scipy's
# svds, the Frobenius norm) and writes its results, and the Go tests *AgreesWith* check that the
# lab's singular values are as close to the references as scikit-learn's, that its classic SVD
# gives numpy's values (1e-10) and that it predicts the same person for every query face.
# The two sides run in alternating rounds (Go, then Python, RUNS times, default 5, at least 5); in
# each round a measure is the mean of CALLS calls (default 2, at least 2) after one untimed warm-up
# call (Go: -benchtime CALLSx runs one call before the timed ones); the table shows the medians over
# the rounds. A round takes about a minute on 2 cores; preparing the data about two.
#
# Usage: bench/compare_slides.sh        (from anywhere; RUNS=7 CALLS=3 bench/compare_slides.sh)
# Needs: Go, cgo and Debian's libopenblas-dev (the lab is built with -tags openblas), Debian's
# python3-sklearn (exit status 2, with the command to install it, when it is missing), and the
# data mirror (LAB_DATA_MIRROR, else /work/shared/datasets).
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT=compare_slides.sh
source bench/compare_lib.sh
RUNS=${RUNS:-5}
CALLS=${CALLS:-2}
compare_at_least RUNS "$RUNS" 5
compare_at_least CALLS "$CALLS" 2
compare_mirror

compare_setup numpy scipy sklearn
export KERNELLAB_COMPARE_DATA="$work/data"
mkdir "$KERNELLAB_COMPARE_DATA"
compare_build factor learn

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lab: $(go version | cut -d' ' -f3), OpenBLAS (cgo, -tags openblas), GOMAXPROCS $(nproc); Python: $("$python" -c 'import numpy, scipy, sklearn; print(f"numpy {numpy.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}")'); $RUNS rounds of $CALLS calls"

if ! compare_test factor '^TestWriteFactorCompareData$' || ! compare_test learn '^TestWriteLearnCompareData$'; then
  echo "compare_slides.sh: writing the comparison data failed (is the data mirror there?)" >&2
  exit 1
fi
"$python" bench/compare_slides.py prepare "$KERNELLAB_COMPARE_DATA"
for pkg in factor learn; do
  if ! compare_test "$pkg" 'AgreesWith'; then
    echo "compare_slides.sh: the lab and Python disagree on the comparison data (lab/$pkg)" >&2
    exit 1
  fi
done

# One round: the Go benchmarks (-benchtime CALLSx: one warm-up call, then the mean of CALLS), then
# the Python side.
go_bench() { # go_bench PACKAGE PATTERN
  (cd "lab/$1" && "$work/$1.test" -test.run '^$' -test.benchtime "${CALLS}x" -test.bench "$2")
}
for round in $(seq "$RUNS"); do
  if ! { go_bench factor '^BenchmarkCompare(RandomizedSVD|TruncatedSVD)$' &&
    go_bench learn '^BenchmarkCompare(KNNPredict|TopicModel)$'; } >>"$work/go.txt" 2>&1; then
    cat "$work/go.txt" >&2
    exit 1
  fi
  "$python" bench/compare_slides.py time "$KERNELLAB_COMPARE_DATA" "$CALLS" >>"$work/times.txt"
  echo "round $round of $RUNS done" >&2
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
compare_go_times <"$work/go.txt"

echo
awk -v dense="$(median BenchmarkCompareRandomizedSVD/dense)" -v sdense="$(median sklearn_rsvd_dense)" \
  -v ldense="$(median sklearn_rsvd_dense_lu)" \
  -v sparse="$(median BenchmarkCompareRandomizedSVD/sparse)" -v ssparse="$(median sklearn_rsvd_sparse)" \
  -v lsparse="$(median sklearn_rsvd_sparse_lu)" \
  -v svd="$(median BenchmarkCompareTruncatedSVD)" -v ssvd="$(median numpy_svd)" \
  -v knn="$(median BenchmarkCompareKNNPredict)" -v sknn="$(median sklearn_knn_predict)" \
  -v topic="$(median BenchmarkCompareTopicModel)" -v rate="$(median BenchmarkCompareTopicModel:docs/s)" \
  -v iters="$(median BenchmarkCompareTopicModel:iterations)" 'BEGIN {
  fmt = "%-60s %10s %10s %7s %8s  %s\n"
  printf fmt, "median of the rounds", "lab", "Python", "ratio", "target", ""
  row("randomized SVD 20000 x 1000 dense, k=50 q=4, vs QR normalizer", dense, sdense, 0.8)
  row("  vs the LU normalizer, for reference", dense, ldense, 0)
  row("randomized SVD 20 Newsgroups bag of words, vs QR normalizer", sparse, ssparse, 0.8)
  row("  vs the LU normalizer, for reference", sparse, lsparse, 0)
  row("classic SVD 2000 x 1000 vs numpy.linalg.svd", svd, ssvd, 1.0)
  row("KNN predict, K=5, LFW faces on 100 components (brute)", knn, sknn, 0.8)
  printf "topic model T=30, 20 Newsgroups (Go only): %.3f s per fit, %g EM iterations, %.0f documents/s per iteration\n", topic, iters, rate
}'"$compare_row"
