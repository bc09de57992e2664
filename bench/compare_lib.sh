# Shared steps of the side-by-side scripts (compare_sklearn.sh, compare_chapters.sh,
# compare_forest.sh), sourced by them: each sets SCRIPT (its name, for messages) first.

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
