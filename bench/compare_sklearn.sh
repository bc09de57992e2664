#!/usr/bin/env bash
# Side-by-side timings of the lab and scikit-learn at the sizes of issue 3 (Performance): n = 100000
# points uniform on [0, 1)^54, 500 landmarks / random features / components, Gaussian kernel with
# gamma = 1/(2*9). Prints, for Nystroem.fit_transform, RBFSampler.fit_transform and rbf_kernel, the
# median over RUNS rounds (default 7, at least 5) of each side, the ratio lab / scikit-learn and the
# target (<= 0.8); then the GEMM rate of the lab's Nyström feature map against numpy's DGEMM rate at
# the same size (target >= 70%).
#
# The two sides run in alternating rounds (one Go process, then one Python process, RUNS times),
# so that on a shared machine both see the same load. In each round a measure is the mean of CALLS
# calls (default 4) after one untimed warm-up call: the first touches of freshly allocated memory
# are slow in some VMs, and both runtimes reuse memory in steady state.
#
# Usage: bench/compare_sklearn.sh            (from anywhere; RUNS=9 bench/compare_sklearn.sh for more)
# Needs: Go, cgo and Debian's libopenblas-dev (the lab is built with -tags openblas), and Debian's
# python3-sklearn (exit status 2, with the command to install it, when it is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT=compare_sklearn.sh
source bench/compare_lib.sh
RUNS=${RUNS:-7}
CALLS=${CALLS:-4}
compare_at_least RUNS "$RUNS" 5

compare_setup numpy sklearn
compare_build lowrank kernel

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lab: $(go version | cut -d' ' -f3), OpenBLAS (cgo, -tags openblas); scikit-learn $("$python" -c 'import sklearn; print(sklearn.__version__)') with numpy $("$python" -c 'import numpy; print(numpy.__version__)'); $RUNS rounds of $CALLS calls"

# One round: the Go benchmarks, each twice (-count 2; the first sample is the warm-up, the second
# the mean of CALLS calls, -benchtime CALLSx), then the Python side (one warm-up call, then the
# mean of CALLS calls).
go_round() {
  (cd lab/lowrank && "$work/lowrank.test" -test.run '^$' -test.benchtime "${CALLS}x" -test.count 2 \
    -test.bench '^(BenchmarkNystromFitTransform|BenchmarkRFFTransform|BenchmarkNystromMapGEMM)$') &&
    (cd lab/kernel && "$work/kernel.test" -test.run '^$' -test.benchtime "${CALLS}x" -test.count 2 \
      -test.bench '^BenchmarkCrossGaussian$/^new$')
}
for round in $(seq "$RUNS"); do
  if ! go_round >>"$work/go.txt" 2>&1; then
    cat "$work/go.txt" >&2
    exit 1
  fi
  "$python" bench/compare_sklearn.py "$CALLS" >>"$work/times.txt"
  echo "round $round of $RUNS done" >&2
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# Go lines "BenchmarkX-2 <calls> <ns> ns/op [<rate> GFLOP/s]": every second sample of each name.
awk '/^Benchmark/ {
  name = $1; sub(/-[0-9]+$/, "", name)
  if (seen[name]++ % 2 == 0) next
  print name, ($6 == "GFLOP/s" ? $5 : $3 / 1e9)
}' "$work/go.txt" >>"$work/times.txt"

echo
awk -v ny="$(median BenchmarkNystromFitTransform)" -v sny="$(median sklearn_nystroem_fit_transform)" \
  -v rff="$(median BenchmarkRFFTransform)" -v srff="$(median sklearn_rbfsampler_fit_transform)" \
  -v cross="$(median BenchmarkCrossGaussian/new)" -v scross="$(median sklearn_rbf_kernel)" \
  -v gemm="$(median BenchmarkNystromMapGEMM)" -v sgemm="$(median numpy_dgemm)" 'BEGIN {
  fmt = "%-44s %13s %14s %7s %8s  %s\n"
  printf fmt, "median of the rounds", "lab", "scikit-learn", "ratio", "target", ""
  row("Nyström fit + transform vs Nystroem", ny, sny)
  row("RFF, 500 features vs RBFSampler", rff, srff)
  row("kernel.Cross vs rbf_kernel, 100000 x 500", cross, scross)
  ratio = gemm / sgemm
  printf fmt, "GEMM rate: Nyström map vs numpy DGEMM", sprintf("%.1f GFLOP/s", gemm), sprintf("%.1f GFLOP/s", sgemm),
    sprintf("%.2f", ratio), ">= 0.70", (ratio >= 0.70 ? "ok" : "SHORT")
}
function row(name, lab, sk,    ratio) {
  ratio = lab / sk
  printf fmt, name, sprintf("%.3f s", lab), sprintf("%.3f s", sk), sprintf("%.2f", ratio), "<= 0.80", (ratio <= 0.80 ? "ok" : "SHORT")
}'
