#!/usr/bin/env bash
# Energy accounting benchmark (energy issue: "Energy accounting must cost under 5 % of wall time on
# a replay with a million load changes; bench/ shows the with/without ratio").
#
#   bash bench/energy_bench.sh BUILD_DIR [--quick] [--runs K]
#     BUILD_DIR  a build tree holding `simfab` (Release)
#     --quick    a tenth of the iterations
#     --runs K   runs per variant, best taken (default 5)
#
# Workloads (bench/energy_gen.py; N = 256 ranks, 4 per host on 64 hosts of 4 cores):
#   ring     ITERS = 4000 iterations of: compute F (100-200 us, different per rank and
#            iteration), isend 8 B to r+1, irecv 8 B from r-1, waitall. 1,024,000 computations.
#   compute  the computations alone (no messages), 4 x ITERS per rank (4,096,000 computations, so
#            that CPU times of about 1 s stay well above /usr/bin/time's 10 ms resolution): the
#            replay does least besides the CPU, so the accounting's share is largest.
# Each computation starts and ends once: 2,048,000 load changes in ring, 8,192,000 in compute.
#
# Variants (the same machine; only its energy description and the keys change):
#   plain          one speed, no power: no energy meter (the baseline)
#   power          one speed, power 90:100:200 W: the meter on fixed hosts (an interval per
#                  computation); vs plain = the accounting on the default path
#   pstates        3 pstates (10, 8, 6 Gf), no power: the dynamic CPU model (shared cores, one
#                  engine event per completion), no meter; vs plain = the dynamic CPU path alone
#   pstates+power  3 pstates with power, energy/polling=busy (default): the meter on every load
#                  change of a dynamic host; vs pstates = the accounting on the dynamic path
#   pstates+power idle   the same with energy/polling=idle (joules integrated at each change)
#   ondemand 1ms   pstates+power with energy/governor=ondemand, energy/sampling-period=1ms (about
#                  700 samples per host); vs pstates+power = the governor (it also changes the
#                  simulated schedule, so this is not a pure overhead)
#
# Variants run round-robin, K rounds, so the machine's drift hits them alike; the best (minimum)
# of the K runs is reported. Columns: sim s = `simulate_s` (the event loop), wall s = `wall_s`
# (simfab's own clock: loading, parsing and the energy report included), process s = the whole
# process from outside, CPU s = its user + sys time (/usr/bin/time; steadier than wall times on a
# loaded machine, 10 ms resolution), the predicted makespan and energy, and the ratios of wall s,
# sim s and CPU s to those of the reference variant named in the "vs" column. Inputs go to a temporary directory under
# $SIMFAB_BENCH_TMP (default /tmp), at most 90 MiB at a time, deleted at exit. About 3 minutes on
# 2 cores.
set -u

usage() { echo "usage: bash bench/energy_bench.sh BUILD_DIR [--quick] [--runs K]" >&2; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "energy_bench.sh: no build directory '$1'" >&2; exit 2; }
shift
ITERS=4000
RUNS=5
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) ITERS=400 ;;
    --runs) shift; RUNS=${1:-}; [[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || usage ;;
    *) usage ;;
  esac
  shift
done
SIMFAB="$BUILD/simfab"
[ -x "$SIMFAB" ] || { echo "energy_bench.sh: $SIMFAB is missing; build first" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN="$ROOT/bench/energy_gen.py"
N=256
CORES=4
TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-energy.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
TIME_CMD=()
[ -x /usr/bin/time ] && TIME_CMD=(/usr/bin/time -f "%U %S" -o "$TMP/time")

now() { date +%s.%N; }
json_num() { sed -n "s/^ *\"$1\": *\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }

python3 "$GEN" hostfile $N $CORES > "$TMP/hosts.txt"
for k in plain power pstates pstates-power; do python3 "$GEN" platform $N $CORES $k > "$TMP/$k.yaml"; done

# Variant table: name | platform | extra options | reference variant for the ratio
VARIANTS=(
  "plain|plain||-"
  "power|power||plain"
  "pstates|pstates||plain"
  "pstates+power|pstates-power||pstates"
  "pstates+power idle|pstates-power|--cfg energy/polling=idle|pstates"
  "ondemand 1ms|pstates-power|--cfg energy/governor=ondemand --cfg energy/sampling-period=1ms|pstates+power"
)

echo "energy_bench: simfab $("$SIMFAB" version 2>/dev/null | head -n 1), $N ranks on $((N / CORES)) hosts of $CORES cores, $ITERS iterations, best of $RUNS, $(nproc) CPUs"
for wl in ring compute; do
  gen_t0=$(now)
  if [ $wl = ring ]; then
    python3 "$GEN" trace $N $ITERS > "$TMP/t.ti"
  else
    python3 "$GEN" trace $N $((4 * ITERS)) | grep -v -e ' isend ' -e ' irecv ' -e ' waitall' > "$TMP/t.ti"
  fi
  gen_s=$(awk -v a="$gen_t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  computes=$(grep -c ' compute ' "$TMP/t.ti")
  echo
  echo "workload $wl: $computes computations ($((2 * computes)) load changes), $(wc -l < "$TMP/t.ti") trace lines, $(($(stat -c %s "$TMP/t.ti") >> 20)) MiB, generated in $gen_s s"
  declare -A BEST_SIM=() BEST_WALL=() BEST_PROC=() BEST_CPU=() MAKESPAN=() ENERGY=() EVENTS=()
  for ((round = 1; round <= RUNS; round++)); do
    for v in "${VARIANTS[@]}"; do
      IFS='|' read -r name plat opts ref <<< "$v"
      json="$TMP/out.json"
      rm -f "$json"
      t0=$(now)
      # shellcheck disable=SC2086
      if ! "${TIME_CMD[@]}" "$SIMFAB" run --platform "$TMP/$plat.yaml" --hostfile "$TMP/hosts.txt" --trace "$TMP/t.ti" \
          $opts --quiet --json "$json" > "$TMP/log" 2>&1; then
        echo "energy_bench: '$name' failed:"; cat "$TMP/log"; exit 1
      fi
      proc=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
      cpu=$proc
      if [ ${#TIME_CMD[@]} -gt 0 ]; then read -r u sy < "$TMP/time"; cpu=$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.2f", u + s }'); fi
      sim=$(json_num simulate_s "$json")
      wall=$(json_num wall_s "$json")
      MAKESPAN[$name]=$(json_num makespan_ps "$json")
      ENERGY[$name]=$(json_num energy_j "$json")
      [ -n "${ENERGY[$name]}" ] && ENERGY[$name]=$(awk -v e="${ENERGY[$name]}" 'BEGIN { printf "%.2f", e }')
      EVENTS[$name]=$(json_num events "$json")
      for pair in "BEST_SIM:$sim" "BEST_WALL:$wall" "BEST_PROC:$proc" "BEST_CPU:$cpu"; do
        arr=${pair%%:*}
        val=${pair#*:}
        declare -n A=$arr
        if [ -z "${A[$name]:-}" ] || awk -v x="$val" -v y="${A[$name]}" 'BEGIN { exit !(x < y) }'; then A[$name]=$val; fi
        unset -n A
      done
    done
  done
  printf '| %-20s | %9s | %8s | %8s | %9s | %6s | %15s | %10s | %-14s | %10s | %9s | %9s |\n' variant events "sim s" \
    "wall s" "process s" "CPU s" "makespan ps" "energy J" "vs" "wall ratio" "sim ratio" "CPU ratio"
  echo '|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|'
  for v in "${VARIANTS[@]}"; do
    IFS='|' read -r name plat opts ref <<< "$v"
    if [ "$ref" = "-" ]; then
      wr="-"; sr="-"; cr="-"
    else
      cr=$(awk -v a="${BEST_CPU[$name]}" -v b="${BEST_CPU[$ref]}" 'BEGIN { printf "%.3f", a / b }')
      wr=$(awk -v a="${BEST_WALL[$name]}" -v b="${BEST_WALL[$ref]}" 'BEGIN { printf "%.3f", a / b }')
      sr=$(awk -v a="${BEST_SIM[$name]}" -v b="${BEST_SIM[$ref]}" 'BEGIN { printf "%.3f", a / b }')
    fi
    printf '| %-20s | %9s | %8.3f | %8.3f | %9.3f | %6.2f | %15s | %10s | %-14s | %10s | %9s | %9s |\n' "$name" \
      "${EVENTS[$name]}" "${BEST_SIM[$name]}" "${BEST_WALL[$name]}" "${BEST_PROC[$name]}" "${BEST_CPU[$name]}" \
      "${MAKESPAN[$name]}" "${ENERGY[$name]:--}" "$ref" "$wr" "$sr" "$cr"
  done
  unset BEST_SIM BEST_WALL BEST_PROC BEST_CPU MAKESPAN ENERGY EVENTS
done
