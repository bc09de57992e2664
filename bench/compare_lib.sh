# Shared steps of the side-by-side scripts (compare_sklearn.sh, compare_chapters.sh, compare_assignment.sh,
# compare_forest.sh, compare_slides.sh), sourced by them: each sets SCRIPT (its name, for messages) first.

# compare_setup MODULES...: lets OpenBLAS pick the processor's own kernels, finds a Python that
# imports MODULES (into $python; exit status 2 with the install command when there is none), and
# makes the temporary folder $work, removed on exit.
compare_setup() {
  # Both sides may pick the processor's own OpenBLAS kernels (AVX-512 where present): unset here,
  # in this comparison only; tests and CI keep whatever the environment sets.
  unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
  local modules candidate
  modules=$(IFS=,; echo "$*")
  python=""
  for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c "import $modules" 2>/dev/null; then
      python=$candidate
      break
    fi
  done
  if [ -z "$python" ]; then
    echo "$SCRIPT: scikit-learn is not installed; install it with: sudo apt-get install python3-sklearn" >&2
    exit 2
  fi
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

# compare_mirror: the data mirror is LAB_DATA_MIRROR, else /work/shared/datasets where it exists.
compare_mirror() {
  if [ -z "${LAB_DATA_MIRROR:-}" ] && [ -d /work/shared/datasets ]; then
    export LAB_DATA_MIRROR=/work/shared/datasets
  fi
}

# compare_build PACKAGE...: builds the test binary of each lab/PACKAGE once, with OpenBLAS, as
# $work/PACKAGE.test (exit status 2 with the install command when that fails).
compare_build() {
  export CGO_ENABLED=1 CGO_LDFLAGS="${CGO_LDFLAGS:-} -lopenblas"
  local pkg
  for pkg in "$@"; do
    if ! go test -tags openblas -c -o "$work/$pkg.test" "./lab/$pkg/" >"$work/build.log" 2>&1; then
      cat "$work/build.log" >&2
      echo "$SCRIPT: building the lab with OpenBLAS failed; install it with: sudo apt-get install libopenblas-dev" >&2
      exit 2
    fi
  done
}

# median NAME: the median of the values recorded under NAME in $work/times.txt ("nan" if none).
median() {
  awk -v name="$1" '$1 == name { print $2 }' "$work/times.txt" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit } print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# compare_at_least NAME VALUE LEAST: exit status 2 unless VALUE (of setting NAME) is an integer
# of at least LEAST.
compare_at_least() {
  if ! [ "$2" -ge "$3" ] 2>/dev/null; then
    echo "$SCRIPT: $1=$2, want at least $3" >&2
    exit 2
  fi
}

# compare_test PACKAGE PATTERN: runs lab/PACKAGE's tests matching PATTERN ($work/PACKAGE.test,
# verbose, into $work/test.log) and prints what its bench_compare_test.go logs, as
# "check lab/PACKAGE: ..."; prints the whole log to stderr and returns 1 when a test fails or none
# passes.
compare_test() {
  if ! (cd "lab/$1" && "$work/$1.test" -test.run "$2" -test.v) >"$work/test.log" 2>&1 ||
    ! grep -q -- '--- PASS' "$work/test.log"; then
    cat "$work/test.log" >&2
    return 1
  fi
  grep -E '^\s+bench_compare_test.go' "$work/test.log" | sed "s/^ *bench_compare_test.go:[0-9]*: /check lab\/$1: /"
}

# compare_go_times: reads Go benchmark lines "BenchmarkX-2 <calls> <ns> ns/op [<value> <unit>]..."
# on its input and appends each one's seconds per call to $work/times.txt as "BenchmarkX <s>", and
# each extra metric as "BenchmarkX:unit <value>".
compare_go_times() {
  awk '/^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name)
    print name, $3 / 1e9
    for (i = 5; i < NF; i += 2) print name ":" $(i + 1), $i
  }' >>"$work/times.txt"
}

# compare_row is an awk function for the results tables: row(name, lab, py, target) prints, in the
# calling program's format fmt, the two medians in seconds, their ratio and, for a target above 0,
# the target and "ok" or "SHORT".
compare_row='
function row(name, lab, py, target,    ratio) {
  ratio = lab / py
  if (target == 0) {
    printf fmt, name, sprintf("%.3f s", lab), sprintf("%.3f s", py), sprintf("%.2f", ratio), "", ""
    return
  }
  printf fmt, name, sprintf("%.3f s", lab), sprintf("%.3f s", py), sprintf("%.2f", ratio), sprintf("<= %.2f", target), (ratio <= target ? "ok" : "SHORT")
}'
