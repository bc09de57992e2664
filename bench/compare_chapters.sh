#!/usr/bin/env bash
# Side-by-side timings of the lab and numpy / scipy / scikit-learn for the performance goals of
# issues 4 (leverage scores), 5 (MMD) and 6 (sparse solvers), on the same data in the same run:
#   - exact ridge leverage scores at n = 5000, d = 54 (uniform data, thesis σ² and λ rules)
#     against numpy/scipy's Gram + Cholesky + triangular-inverse route (target ratio <= 0.8), and
#     the rate both reach on the nominal n²d + 2n³/3 flops;
#   - exact MMD² at n = m = 10⁴, d = 54, σ = 3 against rbf_kernel block sums over blocks of 2000
#     rows, using symmetry as the lab does ("sym") and over every block ("full") (target <= 0.8);
#   - OMP, 50 atoms, 2000 × 4000 unit-norm Gaussian dictionary, against scikit-learn's
#     OrthogonalMatchingPursuit(n_nonzero_coefs=50, fit_intercept=False).fit (copies the
#     dictionary inside the timing; paired with the lab building its DenseDictionary inside the
#     timing too) and orthogonal_mp(copy_X=False) (no copy; paired with the lab's solve on a
#     prepared dictionary) (target <= 0.8).
# Before timing, the Python side draws the data into a temporary folder and checks its routes
# against independent references, and the Go tests *AgreesWith* check that the lab gives the same
# scores (1e-8), the same MMD² (1e-12) and the same OMP support and coefficients (1e-8).
# The two sides run in alternating rounds (Go, then Python, RUNS times, default 7, at least 5);
# in each round a measure is the mean of CALLS calls (default 4) after one untimed warm-up call;
# the table shows the medians over the rounds.
#
# Then, Go only, GO_RUNS times each in one process (default 5; 0 skips this part): DAC-RLS at
# Covertype's size n = 581012 (m = 762) on the mirror's 31,220 real Covertype rows, standardised
# and resampled with replacement up to n (the mirror lacks the full file), seconds and peak memory
# (target < 30 s); Nyström and RFF MMD at 10⁶ points per sample (s = log n = 14; target < 5 s).
#
# Usage: bench/compare_chapters.sh        (from anywhere; RUNS=9 GO_RUNS=0 bench/compare_chapters.sh)
# Needs: Go, cgo and Debian's libopenblas-dev (the lab is built with -tags openblas), Debian's
# python3-sklearn (exit status 2, with the command to install it, when it is missing), and the
# data mirror (LAB_DATA_MIRROR, else /work/shared/datasets) for the DAC timing.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT=compare_chapters.sh
source bench/compare_lib.sh
RUNS=${RUNS:-7}
CALLS=${CALLS:-4}
GO_RUNS=${GO_RUNS:-5}
compare_at_least RUNS "$RUNS" 5
if ! [ "$GO_RUNS" -ge 0 ] 2>/dev/null; then
  echo "compare_chapters.sh: GO_RUNS=$GO_RUNS, want a count (0 skips the Go-only timings)" >&2
  exit 2
fi

compare_setup numpy scipy sklearn
export KERNELLAB_COMPARE_DATA="$work/data"
mkdir "$KERNELLAB_COMPARE_DATA"
compare_build leverage mmd pursuit

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "lab: $(go version | cut -d' ' -f3), OpenBLAS (cgo, -tags openblas); Python: $("$python" -c 'import numpy, scipy, sklearn; print(f"numpy {numpy.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}")'); $RUNS rounds of $CALLS calls"

"$python" bench/compare_chapters.py prepare "$KERNELLAB_COMPARE_DATA"
for pkg in leverage mmd pursuit; do
  if ! (cd "lab/$pkg" && "$work/$pkg.test" -test.run 'AgreesWith' -test.v) >"$work/agree.log" 2>&1 ||
    ! grep -q -- '--- PASS' "$work/agree.log"; then
    cat "$work/agree.log" >&2
    echo "compare_chapters.sh: the lab and Python disagree on the comparison data (lab/$pkg)" >&2
    exit 1
  fi
  grep -E '^\s+bench_compare_test.go' "$work/agree.log" | sed "s/^ */check lab\/$pkg: /"
done

# One round: the Go benchmarks, each twice (-count 2; the first sample is the warm-up, the second
# the mean of CALLS calls, -benchtime CALLSx), then the Python side (one warm-up call, then the
# mean of CALLS calls).
go_bench() { # go_bench PACKAGE PATTERN [FLAGS...]
  local pkg=$1 pattern=$2
  shift 2
  (cd "lab/$pkg" && "$work/$pkg.test" -test.run '^$' -test.bench "$pattern" "$@")
}
go_round() {
  go_bench leverage '^BenchmarkCompareExactRLS$' -test.benchtime "${CALLS}x" -test.count 2 &&
    go_bench mmd '^BenchmarkCompareExactMMD$' -test.benchtime "${CALLS}x" -test.count 2 &&
    go_bench pursuit '^BenchmarkCompareOMP(WithSetup)?$' -test.benchtime "${CALLS}x" -test.count 2
}
for round in $(seq "$RUNS"); do
  if ! go_round >>"$work/go.txt" 2>&1; then
    cat "$work/go.txt" >&2
    exit 1
  fi
  "$python" bench/compare_chapters.py time "$KERNELLAB_COMPARE_DATA" "$CALLS" >>"$work/times.txt"
  echo "round $round of $RUNS done" >&2
done
# Go lines "BenchmarkX-2 <calls> <ns> ns/op [<value> <unit>]...": every second sample of each name.
awk '/^Benchmark/ {
  name = $1; sub(/-[0-9]+$/, "", name)
  if (seen[name]++ % 2 == 0) next
  print name, $3 / 1e9
}' "$work/go.txt" >>"$work/times.txt"

if [ "$GO_RUNS" -gt 0 ]; then
  echo "Go only: DAC-RLS at n = 581012, Nyström and RFF MMD at 10^6 points per sample, $GO_RUNS runs each" >&2
  if ! { go_bench leverage '^BenchmarkDACCovtypeResampled$' -test.benchtime 1x -test.count "$GO_RUNS" &&
    go_bench mmd '^BenchmarkMillion$' -test.benchtime 1x -test.count "$GO_RUNS"; } >"$work/goonly.txt" 2>&1; then
    cat "$work/goonly.txt" >&2
    exit 1
  fi
  grep -E 'covtype .* resampled|σ² = ' "$work/goonly.txt" | sort -u | sed 's/^ *bench_compare_test.go:[0-9]*: /DAC data: /'
  # Every sample, with its extra metrics as "name:unit value".
  awk '/^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name)
    print name, $3 / 1e9
    for (i = 5; i < NF; i += 2) print name ":" $(i + 1), $i
  }' "$work/goonly.txt" >>"$work/times.txt"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# maximum NAME: the largest of the values recorded under NAME (median: bench/compare_lib.sh).
maximum() {
  awk -v name="$1" '$1 == name { print $2 }' "$work/times.txt" | sort -g | tail -1
}

echo
awk -v rls="$(median BenchmarkCompareExactRLS)" -v srls="$(median scipy_exact_rls)" \
  -v mmd="$(median BenchmarkCompareExactMMD)" -v smmd="$(median sklearn_mmd_sym)" -v fmmd="$(median sklearn_mmd_full)" \
  -v omp="$(median BenchmarkCompareOMP)" -v somp="$(median sklearn_orthogonal_mp_nocopy)" \
  -v ompc="$(median BenchmarkCompareOMPWithSetup)" -v sompc="$(median sklearn_omp_fit)" 'BEGIN {
  fmt = "%-52s %10s %10s %7s %8s  %s\n"
  printf fmt, "median of the rounds", "lab", "Python", "ratio", "target", ""
  row("exact RLS n=5000 vs numpy/scipy Gram+Cholesky", rls, srls)
  flops = 5000 * 5000 * 54 + 2 * 5000 ^ 3 / 3
  printf fmt, "  rate on n²d + 2n³/3 flops", sprintf("%.1f GF/s", flops / rls / 1e9), sprintf("%.1f GF/s", flops / srls / 1e9), "", "", ""
  row("exact MMD² n=m=1e4 vs rbf_kernel blocks, symmetric", mmd, smmd)
  row("exact MMD² n=m=1e4 vs rbf_kernel blocks, all", mmd, fmmd)
  row("OMP 50 atoms vs OrthogonalMatchingPursuit.fit", ompc, sompc)
  row("  (both copy the dictionary inside the timing)", "", "")
  row("OMP 50 atoms vs orthogonal_mp(copy_X=False)", omp, somp)
  row("  (neither copies the dictionary in the timing)", "", "")
}
function row(name, lab, py,    ratio) {
  if (lab == "") { printf "%s\n", name; return }
  ratio = lab / py
  printf fmt, name, sprintf("%.3f s", lab), sprintf("%.3f s", py), sprintf("%.2f", ratio), "<= 0.80", (ratio <= 0.80 ? "ok" : "SHORT")
}'

if [ "$GO_RUNS" -gt 0 ]; then
  echo
  awk -v dac="$(median BenchmarkDACCovtypeResampled)" -v peak="$(maximum BenchmarkDACCovtypeResampled:peak-MB)" \
    -v live="$(maximum BenchmarkDACCovtypeResampled:live-MB)" -v hwm="$(maximum BenchmarkDACCovtypeResampled:VmHWM-MB)" \
    -v cpu="$(median BenchmarkDACCovtypeResampled:cpu-s/op)" \
    -v rffc="$(median BenchmarkMillion/rff/contiguous)" -v rffr="$(median BenchmarkMillion/rff/resampled)" \
    -v nysc="$(median BenchmarkMillion/nystrom/contiguous)" -v nysr="$(median BenchmarkMillion/nystrom/resampled)" 'BEGIN {
    fmt = "%-52s %10s %8s  %s\n"
    printf fmt, "Go only, median of the runs", "lab", "target", ""
    row("DAC-RLS n=581012, m=762 (Covertype resampled)", dac, 30)
    printf "  CPU %.1f s/run; heap growth during DAC %.0f MB (uncollected garbage included, GOGC-dependent), live %.0f MB;\n  process peak RSS (VmHWM, data 251 MB and loaded table included) %.0f MB\n", cpu, peak, live, hwm
    row("RFF MMD, 1e6 per sample, contiguous rows", rffc, 5)
    row("RFF MMD, 1e6 per sample, resampled indices", rffr, 5)
    row("Nyström MMD, 1e6 per sample, contiguous rows", nysc, 5)
    row("Nyström MMD, 1e6 per sample, resampled indices", nysr, 5)
  }
  function row(name, lab, target) {
    printf fmt, name, sprintf("%.2f s", lab), sprintf("< %g s", target), (lab < target ? "ok" : "SHORT")
  }'
fi
