#!/usr/bin/env bash
# Outputs benchmark (issue 10): what timelines and statistics cost a replay. The same TI trace
# (gen_schedule ti-stencil3d: compute, 6 irecv, 6 isend of 64 KiB, waitall per iteration) runs
# on the same platform (gen_schedule platform N) with no output, then with --stats, --trace-out,
# --trace-out limited to 16 ranks, and --paje; each row gives the best wall time of REPS runs,
# events/s, the ratio to the run without outputs, and the size of what was written.
#
#   bash bench/outputs_bench.sh BUILD_DIR [--quick] [--baseline OTHER_SIMFAB]
#     --quick     N = 256 only, 2 repetitions
#     --baseline  also time another simfab binary without outputs (e.g. one built from the commit
#                 before the outputs existed), to show what the hooks cost when no output is asked
# Inputs go to a temporary directory ($SIMFAB_BENCH_TMP, default /tmp), deleted at the end.
set -euo pipefail
BUILD="${1:?usage: outputs_bench.sh BUILD_DIR [--quick] [--baseline OTHER_SIMFAB]}"
shift
QUICK=""
BASELINE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=--quick ;;
    --baseline) BASELINE="$(realpath "$2")"; shift ;;
    *) echo "outputs_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
SIMFAB="$BUILD/simfab"
GEN="$BUILD/gen_schedule"
TMP="$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-outputs.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
sizes=(256 4096)
reps=3
iters=20
if [ "$QUICK" = "--quick" ]; then sizes=(256); reps=2; fi

best_wall() {  # best of $reps wall times (s) of the command
  local best=""
  for _ in $(seq "$reps"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    best=$(python3 -c "import sys; t=$t1-$t0; b='$best'; print(t if not b or t<float(b) else b)")
  done
  echo "$best"
}

echo "| N | iterations | outputs | events | wall s | events/s | wall / no outputs | written |"
echo "|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
  "$GEN" ti-stencil3d "$n" "$iters" 65536 1e6 > "$TMP/trace.ti"
  "$GEN" platform "$n" > "$TMP/platform.yaml"
  app=(run --platform "$TMP/platform.yaml" --trace "$TMP/trace.ti" --quiet --progress never)
  "$SIMFAB" "${app[@]}" --json "$TMP/r.json"
  events=$(python3 -c "import json; print(json.load(open('$TMP/r.json'))['events'])")
  base=""
  variants=(none stats trace-out trace-out-16 paje)
  [ -n "$BASELINE" ] && variants=(none baseline none-again stats trace-out trace-out-16 paje)
  for variant in "${variants[@]}"; do
    cmd=("$SIMFAB" "${app[@]}")
    rm -rf "$TMP/out" "$TMP/t.json" "$TMP/t.paje"
    case "$variant" in
      none|none-again) extra=(); what=() ;;
      baseline) cmd=("$BASELINE" run --platform "$TMP/platform.yaml" --trace "$TMP/trace.ti" --quiet); extra=(); what=() ;;
      stats) extra=(--stats "$TMP/out"); what=("$TMP/out") ;;
      trace-out) extra=(--trace-out "$TMP/t.json"); what=("$TMP/t.json") ;;
      trace-out-16) extra=(--trace-out "$TMP/t.json" --trace-ranks 0-15); what=("$TMP/t.json") ;;
      paje) extra=(--paje "$TMP/t.paje"); what=("$TMP/t.paje") ;;
    esac
    wall=$(best_wall "${cmd[@]}" "${extra[@]}")
    [ -z "$base" ] && base="$wall"
    written="-"
    [ ${#what[@]} -gt 0 ] && written="$(du -sh "${what[@]}" | cut -f1)B"
    python3 -c "
w=$wall; b=$base; e=$events
print(f'| $n | $iters | $variant | {e} | {w:.3f} | {e/w/1e6:.2f} M | {w/b:.2f} | $written |')"
  done
done
