#!/usr/bin/env bash
# noise_bench.sh: the classic OS-noise experiment (LogGOPSim's; issue 33). An allreduce loop (TI:
# ITERS x (compute 1e6 flops = 100 us on gen_schedule's 10 Gf hosts, 8-byte allreduce)) on N ranks,
# without noise and with 1 % noise (a 25 us detour every 2.5 ms), the offsets drawn per rank
# (uncoordinated) or shared by all ranks (co-scheduled). Prints one row per N: makespans and the
# slowdowns against the noiseless run. Uncoordinated noise costs far more than its 1 % at scale
# (each iteration waits for the slowest rank, and some rank is almost always hit); co-scheduled
# noise costs about 1 %.
#
# usage: bash bench/noise_bench.sh BUILD_DIR [ITERS] [SIZES...]   (default 50 iterations, 1024 2048 4096)
set -euo pipefail
BUILD=${1:?usage: noise_bench.sh BUILD_DIR [ITERS] [SIZES...]}
ITERS=${2:-50}
shift $(( $# >= 2 ? 2 : 1 ))
SIZES=${*:-1024 2048 4096}
SIMFAB="$BUILD/simfab"
GEN="$BUILD/gen_schedule"
for b in "$SIMFAB" "$GEN"; do
  [ -x "$b" ] || { echo "noise_bench.sh: $b is missing; build first" >&2; exit 2; }
done
TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-noise.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
NOISE=(--cfg noise/period=2.5ms --cfg noise/duration=25us --cfg noise/seed=1)

makespan() {  # the makespan in ps of simfab run "$@"
  "$SIMFAB" run "$@" --json "$TMP/r.json" --reproducible > /dev/null
  sed -n 's/^  "makespan_ps": \([0-9]*\).*/\1/p' "$TMP/r.json"
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f %%", (a / b - 1) * 100 }'; }
us() { awk -v a="$1" 'BEGIN { printf "%.1f", a / 1e6 }'; }

echo "allreduce loop: $ITERS x (100 us compute + 8 B allreduce); noise 25 us every 2.5 ms (1 %)"
echo
echo "| ranks | no noise (us) | uncoordinated (us) | slowdown | co-scheduled (us) | slowdown | wall (s) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in $SIZES; do
  "$GEN" platform "$n" > "$TMP/p.yaml"
  "$GEN" ti-allreduce "$n" 8 "$ITERS" > "$TMP/t.ti"
  t0=$(date +%s.%N)
  IN=(--trace "$TMP/t.ti" --platform "$TMP/p.yaml")
  base=$(makespan "${IN[@]}")
  unco=$(makespan "${IN[@]}" "${NOISE[@]}")
  cosc=$(makespan "${IN[@]}" "${NOISE[@]}" --cfg noise/cosched=yes)
  wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  echo "| $n | $(us "$base") | $(us "$unco") | $(pct "$unco" "$base") | $(us "$cosc") | $(pct "$cosc" "$base") | $wall |"
done
