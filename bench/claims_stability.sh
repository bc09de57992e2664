#!/usr/bin/env bash
# claims_stability.sh — run the timing-dependent experiments twice at a scale (default quick), each
# time from scratch into its own results folder, and print every claim's verdict in both runs side by
# side. A claim may move to or from INCONCLUSIVE between runs; it must never flip between SUPPORTED and
# CONTRADICTED (the script exits 1 if one does).
#
#   bench/claims_stability.sh [--scale S] [--against RESULTS] [ID ...]
#
# Default IDs: the experiments that time calls. With --against, the first run is the one already in
# RESULTS (a results root, e.g. results/ after ./reproduce.sh) and only the second is made here.
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=quick
AGAINST=""
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) SCALE=${2:?}; shift 2 ;;
    --against) AGAINST=${2:?}; shift 2 ;;
    *) break ;;
  esac
done
IDS=("$@")
[ ${#IDS[@]} -gt 0 ] || IDS=(fig3_3 fig3_4 fig4_2 fig4_3 fig4_4 fig4_5 perrin_fig1)
LAB=${LAB:-.tools/bin/lab}
[ -x "$LAB" ] || { mkdir -p .tools/bin && go build -o "$LAB" ./cmd/lab; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-stability.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
runs="1 2"
if [ -n "$AGAINST" ]; then
  "$LAB" claims --scale "$SCALE" --results "$AGAINST" --out "$tmp/f1/CLAIMS.md" >/dev/null
  runs=2
fi
for k in $runs; do
  echo "run $k: ${IDS[*]} at $SCALE scale" >&2
  start=$(date +%s)
  "$LAB" run --scale "$SCALE" --fresh --results "$tmp/r$k" --figures "$tmp/f$k" "${IDS[@]}" >"$tmp/log$k" 2>&1 ||
    { cat "$tmp/log$k" >&2; exit 1; }
  echo "run $k took $(( $(date +%s) - start )) s" >&2
done
# Each report row is "| **claim** text | VERDICT | evidence |" under "## ID".
verdicts() { awk '/^## /{id=$2} /^\| \*\*/{split($0, c, "|"); name=c[2]; sub(/^ *\*\*/, "", name); sub(/\*\*.*/, "", name); v=c[3]; gsub(/ /, "", v); print id "/" name, v}' "$1"; }
join <(verdicts "$tmp/f1/CLAIMS.md" | sort) <(verdicts "$tmp/f2/CLAIMS.md" | sort) | awk -v ids=" ${IDS[*]} " '
  { split($1, p, "/"); if (index(ids, " " p[1] " ") == 0) next
    flip = ($2 == "SUPPORTED" && $3 == "CONTRADICTED") || ($2 == "CONTRADICTED" && $3 == "SUPPORTED")
    printf "| %s | %s | %s |%s\n", $1, $2, $3, flip ? " FLIP" : ""; bad += flip }
  BEGIN { print "| claim | run 1 | run 2 |\n|---|---|---|" }
  END { if (bad) { print bad " verdict(s) flipped between SUPPORTED and CONTRADICTED" > "/dev/stderr"; exit 1 } }'
