#!/usr/bin/env bash
# reproduce.sh — one command for the whole lab.
#
#   ./reproduce.sh                     set up, fetch and verify the data, run the catalogue at quick scale,
#                                      render its figures, tables, CLAIMS.md and gallery into results/quick/figures,
#                                      execute the notebooks; nothing committed is touched (git status stays clean)
#   ./reproduce.sh --scale paper       the same at the thesis's sizes into results/paper/ (hours; see --shard)
#   ./reproduce.sh --only fig3_1 table3_1   only these experiments (unknown IDs are refused before any
#                                      long step; the notebooks are not executed with --only)
#   ./reproduce.sh --fresh             recompute instead of reusing kept task results (after a code change)
#   ./reproduce.sh --shard 3/20        run one shard of the repetitions (no render); on a Slurm cluster use
#                                      `lab plan` and `lab slurm --submit` instead (README: Scales and clusters)
#   ./reproduce.sh --no-notebooks      skip executing the notebooks
#   ./reproduce.sh --results DIR       results root (default results/, git-ignored); --figures DIR: where
#                                      figures go (default <results>/<scale>/figures)
#   ./reproduce.sh --update-reference  the maintainers' step: write the committed outputs instead (figures/ for
#                                      quick, figures/paper/ for paper, the results behind them in
#                                      figures/results/<scale>, CLAIMS.md from those), then commit them
#   ./reproduce.sh --render-only       redraw figures and the claims report from the results on disk; from a
#                                      clean clone, `--scale paper --render-only --results figures/results
#                                      --update-reference --no-notebooks` redraws figures/paper/ from the
#                                      committed paper results
#   ./reproduce.sh setup               only the set-up steps (tools, this clone's Jupyter kernel)
#   ./reproduce.sh notebook [ARGS]     set up, then open the notebooks in Jupyter with this clone's GoNB kernel
#                                      (ARGS go to `jupyter notebook`, e.g. --no-browser --ip=0.0.0.0)
#   ./reproduce.sh test                the full check: go vet, go test -race, fuzz seeds, the smoke-scale
#                                      run of every experiment, every notebook executed through GoNB, a sharded
#                                      run through a live single-node Slurm (needs root and slurm-wlm + munge),
#                                      and tests/fresh_clones.sh (the README's commands in a row in fresh clones
#                                      of HEAD, two clones' kernels side by side)
#
# The GoNB kernel is this clone's own: installed in .tools/jupyter (JUPYTER_PATH), never in the user's
# Jupyter folder, so that two clones, or the removal of one, never break each other's notebooks.
#
# A run ends with `lab diff`: its results against the committed reference results (figures/results/<scale>),
# metric by metric; a drift of a metric that must be identical makes the run exit non-zero.
#
# Environment: LAB_DATA_MIRROR (read data from a local mirror <mirror>/<name>/<file> instead of
# downloading), LAB_DATA_CACHE (download cache), LAB_PURE_GO=1 (do not use OpenBLAS even if present).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"
BIN="$ROOT/.tools/bin"
USER_PATH=$PATH # the notebooks run with the user's own PATH, as when opened by hand
export PATH="$BIN:$PATH"

MODE=run
SCALE=quick
SHARD=""
NOTEBOOKS=1
RENDER_ONLY=0
RUN_FLAGS=()
RESULTS="$ROOT/results"
FIGURES=""
UPDATE_REFERENCE=()
ONLY=()
NOTEBOOK_ARGS=()
# This clone's own Jupyter data folder, which holds its GoNB kernel spec (see setup_jupyter).
JUPYTER_DIR="$ROOT/.tools/jupyter"

usage() { sed -n '/^set -euo/q;2,$p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; }
die() { echo "reproduce.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    test|setup) MODE=$1 ;;
    notebook) MODE=notebook; shift; NOTEBOOK_ARGS=("$@"); break ;;
    --scale) SCALE=${2:?--scale needs smoke, quick or paper}; shift ;;
    --shard) SHARD=${2:?--shard needs i/N}; shift ;;
    --results) RESULTS=${2:?}; shift ;;
    --figures) FIGURES=${2:?}; shift ;;
    --no-notebooks) NOTEBOOKS=0 ;;
    --update-reference) UPDATE_REFERENCE=(--update-reference) ;;
    --fresh) RUN_FLAGS+=(--fresh) ;;
    --render-only) RENDER_ONLY=1 ;;
    --only) shift; while [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; do ONLY+=("$1"); shift; done; continue ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
  shift
done
case "$SCALE" in smoke|quick|paper) ;; *) die "unknown scale '$SCALE' (smoke, quick or paper)";; esac
# A run renders beside its results (lab's default), never into the committed outputs; with
# --update-reference into the scale's committed folder (lab refuses it for smoke, which has none).
if [ -z "$FIGURES" ] && [ ${#UPDATE_REFERENCE[@]} -gt 0 ]; then
  case "$SCALE" in
    quick) FIGURES="$ROOT/figures" ;;
    paper) FIGURES="$ROOT/figures/paper" ;;
  esac
fi
FIGURES=${FIGURES:-$RESULTS/$SCALE/figures}

# ---- timing and summary -------------------------------------------------------------------------
declare -a SUMMARY=()
STEP_NAME=""
STEP_START=0
step() {
  end_step
  STEP_NAME=$1
  STEP_START=$(date +%s)
  printf '\n== %s\n' "$STEP_NAME"
}
declare -a SUMMARY_TIMES=()
end_step() {
  if [ -n "$STEP_NAME" ]; then
    SUMMARY+=("$STEP_NAME")
    SUMMARY_TIMES+=("$(( $(date +%s) - STEP_START ))")
    STEP_NAME=""
  fi
}
print_summary() {
  end_step
  local i width=0
  for i in "${!SUMMARY[@]}"; do [ ${#SUMMARY[i]} -le $width ] || width=${#SUMMARY[i]}; done
  printf '\n== summary\n'
  for i in "${!SUMMARY[@]}"; do printf '  %-*s %6ss\n' "$width" "${SUMMARY[i]}" "${SUMMARY_TIMES[i]}"; done
}

# ---- set-up ---------------------------------------------------------------------------------------
use_openblas() {
  [ -z "${LAB_PURE_GO:-}" ] && command -v gcc >/dev/null 2>&1 &&
    { ldconfig -p 2>/dev/null | grep -q 'libopenblas\.so' || [ -e /usr/lib/x86_64-linux-gnu/libopenblas.so ]; }
}

setup_go() {
  command -v go >/dev/null || die "Go is missing: install Go ≥ 1.26 from https://go.dev/dl/ (or use the Dockerfile)"
  PURE_GOFLAGS=${GOFLAGS:-}
  if use_openblas; then
    export CGO_ENABLED=1 CGO_LDFLAGS="${CGO_LDFLAGS:-} -lopenblas"
    export GOFLAGS="${GOFLAGS:+$GOFLAGS }-tags=openblas"
    BLAS="OpenBLAS (cgo, build tag openblas)"
  else
    BLAS="pure Go (gonum); install libopenblas-dev for the fast path"
  fi
  echo "BLAS: $BLAS"
  mkdir -p "$BIN"
  # The Jupyter kernel (GoNB) and goimports are `tool` dependencies pinned in go.mod.
  go build -o "$BIN/" ./cmd/lab github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports
}

# find_jupyter sets JUPYTER to a jupyter whose nbconvert and nbclient work (Debian's /usr/bin one first
# when an unrelated Python environment shadows it), or to "".
find_jupyter() {
  JUPYTER=""
  for j in /usr/bin/jupyter "$(command -v jupyter 2>/dev/null || true)"; do
    if [ -n "$j" ] && [ -x "$j" ] && "$j" nbconvert --version >/dev/null 2>&1; then
      JUPYTER=$j
      return
    fi
  done
}

JUPYTER_HELP="Jupyter (nbconvert + nbclient) is missing. On Debian/Ubuntu:
    sudo apt-get install jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel jupyter-notebook
  elsewhere: pip install nbconvert nbclient jupyter_client ipykernel notebook"

setup_jupyter() {
  find_jupyter
  if [ -z "$JUPYTER" ]; then
    if [ "$MODE" = test ]; then die "$JUPYTER_HELP"; fi
    echo "$JUPYTER_HELP" >&2
    echo "(continuing without notebooks)" >&2
    NOTEBOOKS=0
    return
  fi
  # The kernel spec goes into this clone's own Jupyter data folder (gonb honours JUPYTER_DATA_DIR),
  # not the user's: a per-user spec points into whichever clone installed it last, and another
  # clone's set-up or removal broke this one's notebooks. --force_deps: gopls is not needed headless.
  JUPYTER_DATA_DIR="$JUPYTER_DIR" "$BIN/gonb" --install --force_deps >/dev/null 2>&1 ||
    die "installing the GoNB Jupyter kernel failed: run 'JUPYTER_DATA_DIR=$JUPYTER_DIR $BIN/gonb --install --force_deps'"
  # The kernel runs goimports and go: its spec carries a PATH that finds them whatever the PATH of
  # the shell that starts Jupyter (jupyter_client expands ${PATH} from that shell's environment).
  python3 "$ROOT/notebooks/kernelspec_path.py" "$JUPYTER_DIR/kernels/gonb/kernel.json" \
    "$BIN:$(dirname "$(command -v go)")" || die "could not set the GoNB kernel's PATH"
  # Jupyter looks in JUPYTER_PATH before the user's folder, so "gonb" is this clone's kernel.
  export JUPYTER_PATH="$JUPYTER_DIR${JUPYTER_PATH:+:$JUPYTER_PATH}"
  echo "Jupyter: $JUPYTER ($("$JUPYTER" nbconvert --version)), GoNB kernel installed in $JUPYTER_DIR"
}

# open_notebooks starts Jupyter on notebooks/ with this clone's kernel, as the user's own PATH.
open_notebooks() {
  [ -n "$JUPYTER" ] || die "$JUPYTER_HELP"
  local root_flag=()
  [ "$(id -u)" != 0 ] || root_flag=(--allow-root) # Jupyter refuses root without it
  PATH=$USER_PATH exec "$JUPYTER" notebook ${root_flag[@]+"${root_flag[@]}"} ${NOTEBOOK_ARGS[@]+"${NOTEBOOK_ARGS[@]}"} "$ROOT/notebooks"
}

# run_notebooks executes every notebook headless at $1 scale into $2 (the committed ones stay clean).
run_notebooks() {
  local scale=$1 out=$2 nb
  mkdir -p "$out"
  for nb in notebooks/*.ipynb; do
    echo "-- $nb"
    # Without .tools/bin on PATH, as a user who opens the notebooks by hand: the kernel spec finds it.
    PATH=$USER_PATH LAB_SCALE=$scale LAB_RESULTS="$RESULTS" "$JUPYTER" nbconvert --to notebook --execute \
      --ExecutePreprocessor.kernel_name=gonb --ExecutePreprocessor.timeout=3600 \
      --output-dir "$out" "$nb" >"$out/$(basename "$nb" .ipynb).log" 2>&1 ||
      { grep -v -E '^[IW][0-9]{4} ' "$out/$(basename "$nb" .ipynb).log" | tail -n 20 >&2; die "notebook $nb failed"; }
    [ -s "$out/$(basename "$nb")" ] || die "notebook $nb produced no output"
    python3 notebooks/check_images.py "$out/$(basename "$nb")" || die "notebook $nb lacks figures (see above)"
  done
}

# check_only_ids refuses unknown --only IDs before the long steps (data, runs), with lab's message.
check_only_ids() {
  [ ${#ONLY[@]} -gt 0 ] || return 0
  local known id
  known=$(lab list --scale "$SCALE" | awk 'NR > 1 {print $1}')
  for id in "${ONLY[@]}"; do
    grep -qx -- "$id" <<<"$known" || die "--only: unknown experiment '$id' (lab list shows them)"
  done
}

# ---- modes ----------------------------------------------------------------------------------------
main_run() {
  step "set-up (Go tools, GoNB kernel)"
  setup_go
  check_only_ids
  setup_jupyter
  if [ "$MODE" = setup ]; then print_summary; return; fi
  if [ "$MODE" = notebook ]; then open_notebooks; fi

  if [ "$RENDER_ONLY" = 0 ]; then
    step "data: fetch and verify"
    lab datasets fetch
    step "run the catalogue at $SCALE scale${SHARD:+ (shard $SHARD)}"
    lab run --scale "$SCALE" --results "$RESULTS" --figures "$FIGURES" ${UPDATE_REFERENCE[@]+"${UPDATE_REFERENCE[@]}"} \
      ${SHARD:+--shard "$SHARD"} ${RUN_FLAGS[@]+"${RUN_FLAGS[@]}"} ${ONLY[@]+"${ONLY[@]}"}
    if [ -n "$SHARD" ]; then
      print_summary
      echo "shard $SHARD done: results in $RESULTS/$SCALE (merge with: lab merge --scale $SCALE --into results DIR...)"
      return
    fi
  else
    step "render figures and tables from $RESULTS/$SCALE"
    lab render --scale "$SCALE" --results "$RESULTS" --figures "$FIGURES" ${UPDATE_REFERENCE[@]+"${UPDATE_REFERENCE[@]}"} ${ONLY[@]+"${ONLY[@]}"}
    lab claims --scale "$SCALE" --results "$RESULTS" --figures "$FIGURES" ${UPDATE_REFERENCE[@]+"${UPDATE_REFERENCE[@]}"}
  fi

  if [ "$NOTEBOOKS" = 1 ] && [ ${#ONLY[@]} -eq 0 ]; then
    step "notebooks at $SCALE scale"
    run_notebooks "$SCALE" "$RESULTS/$SCALE/notebooks"
  elif [ "$NOTEBOOKS" = 1 ]; then
    echo "(notebooks not executed: --only runs a part of the catalogue; ./reproduce.sh without --only runs them)"
  fi
  local drift=0
  if [ "$RENDER_ONLY" = 0 ] && git -C "$ROOT" cat-file -e "HEAD:figures/results/$SCALE" 2>/dev/null; then
    step "did it reproduce? lab diff against the committed reference results"
    # Exit status 1: drift; 2: none of these experiments has reference results (not a failure).
    lab diff --scale "$SCALE" --results "$RESULTS" ${ONLY[@]+"${ONLY[@]}"} || { [ $? = 2 ] || drift=1; }
  else
    echo "(no committed reference results at $SCALE scale: nothing to diff against)"
  fi
  print_summary
  echo
  echo "figures and tables: $FIGURES"
  echo "claims report:      $FIGURES/CLAIMS.md"
  echo "gallery:            $FIGURES/README.md"
  echo "tidy results:       $RESULTS/$SCALE"
  [ "$NOTEBOOKS" = 1 ] && [ ${#ONLY[@]} -eq 0 ] && echo "executed notebooks: $RESULTS/$SCALE/notebooks"
  [ "$drift" = 0 ] || die "the results drifted from the committed reference results (table above; lab diff --help)"
  return 0
}

main_test() {
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX")
  # Kept when a step fails, for inspection; removed once every check passed.
  trap '[ ! -d "$tmp" ] || echo "test outputs kept in $tmp" >&2' EXIT
  RESULTS="$tmp/results"
  FIGURES="$tmp/figures"

  step "set-up (Go tools, GoNB kernel)"
  setup_go
  setup_jupyter

  step "gofmt and go vet"
  unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.tools/*'))
  [ -z "$unformatted" ] || die "gofmt would change: $unformatted"
  go vet ./...

  step "go test -race -short ./... (unit tests, examples, fuzz seed corpora)"
  # -short skips only the full-size data loads (MNIST, LFW), which the next step runs without -race.
  go test -race -short -count=1 ./...
  step "go test ./lab/dataset/... (every data set at full size against its SOURCE.md counts)"
  go test -count=1 ./lab/dataset/...
  step "timing-free figures and tables come out byte-identical from two fresh runs"
  go test -count=1 -run TestTimingFreeOutputsAreReproducible ./experiments/
  step "the committed figures, tables and claims reports regenerate from the committed reference results"
  go test -count=1 -run TestCommittedOutputsRegenerate ./cmd/lab/
  if [ "$GOFLAGS" != "$PURE_GOFLAGS" ]; then
    step "go test, pure-Go build (no OpenBLAS) of the numerical packages"
    GOFLAGS="$PURE_GOFLAGS" go test -count=1 -short ./lab/...
  fi

  step "a first run without a mirror: every data set from an upstream double, then the smoke catalogue"
  # lab/dataset/upstreamtest plays every upstream server on 127.0.0.1 from the mirror; the recipes
  # rebuild the six data sets no upstream serves as the loaders read them.
  go test -count=1 -run TestSmokeCatalogueFromUpstreamDouble ./cmd/lab/

  step "smoke-scale run of the whole catalogue"
  lab run --scale smoke --results "$RESULTS" --figures "$FIGURES"
  lab list --scale smoke | awk 'NR > 1 {print $1}' | while read -r id; do
    ls "$FIGURES/$id".* >/dev/null 2>&1 || die "the smoke run rendered nothing for $id"
  done
  [ -s "$FIGURES/CLAIMS.md" ] || die "the smoke run wrote no CLAIMS.md"

  step "live Slurm: lab slurm --submit on a single-node cluster, merged results = unsharded run"
  # Starts munged, slurmctld and slurmd (config in a temporary folder) and stops them by pid. Skipped,
  # with the apt-get line, where Slurm is missing, except in CI (CI=true), where that is a failure.
  go test -count=1 -v -run 'TestSlurmLive$' ./cmd/lab | grep -E '^(=== RUN|--- |    |ok|FAIL|PASS)' || die "the live Slurm test failed"

  step "notebooks executed through GoNB at smoke scale"
  run_notebooks smoke "$tmp/notebooks"

  step "notebooks in Jupyter Notebook through headless Chromium, live figures' sliders moved"
  # Skipped, with the apt-get line, where Chromium or Jupyter Notebook is missing, except in CI.
  (cd notebooks && PATH=$USER_PATH LAB_SCALE=smoke LAB_RESULTS="$RESULTS" LAB_BROWSER_TEST=1 \
    go test -count=1 -v -timeout 60m -run 'TestNotebooksInBrowser' .) |
    grep -E '^(=== RUN|--- |    |ok|FAIL|PASS)' || die "the browser test of the notebooks failed"

  step "fresh clones of HEAD: the README's two commands in a row, two clones' GoNB kernels"
  # The clones' own set-up adds the OpenBLAS flags to the caller's.
  JUPYTER=$JUPYTER GOFLAGS="$PURE_GOFLAGS" "$ROOT/tests/fresh_clones.sh"

  print_summary
  echo
  rm -rf "$tmp"
  echo "test: all checks passed"
}

case "$MODE" in
  test) main_test ;;
  *) main_run ;;
esac
