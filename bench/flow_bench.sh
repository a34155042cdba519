#!/usr/bin/env bash
# Flow-model benchmark (issue 3): simfab's `network/model=flow` against SimGrid 3.32's default
# SMPI model (`smpirun -no-privatize -replay`) on the same platform and the same TI trace.
#
#   bash bench/flow_bench.sh BUILD_DIR [--no-peer] [--quick] [--model flow|smpi]
#     BUILD_DIR  a build tree holding `simfab` and `gen_schedule`
#     --no-peer  simfab only (no SimGrid runs)
#     --quick    only the cases with N <= 1024
#     --model    simfab's network model (default flow). With smpi, simfab reads the very XML
#                platform and hostfile SimGrid gets, and the last column is the relative
#                difference of the predicted makespans (SimGrid's "Simulated time", 6 digits).
#
# Cases (inputs written by gen_schedule into a temporary directory, deleted after each case):
#   random-flows   N ranks, N/2 concurrent 64 MiB flows between random distinct ranks (a seeded
#                  random perfect matching, seed 1), on the 2-level platform (32 hosts per leaf)
#   alltoall       every rank isends 64 KiB to every other rank and irecvs from every other rank,
#                  then one waitall: N(N-1) concurrent messages; N = 256, 1024, 4096 on the 2-level
#                  platform, N = 256, 1024 on the plain one-switch cluster (`gen_schedule platform N`)
# Platforms: `gen_schedule platform-2level N 32` (YAML) and `platform-2level-xml N 32` (its
# SimGrid twin), `gen_schedule platform N` and `platform-xml N`; rank r runs on host node<r> in
# both simulators (`gen_schedule hostfile N`).
#
# Per case, one table row: messages (simfab's count); simfab's process wall time and CPU time
# (user + sys), both measured from outside with parsing included, and its wall time per message;
# events/s and solver updates/s over simfab's event loop (`simulate_s`); solves (`network.solves`:
# max-min solves, one per simulated instant with flow starts or ends); SimGrid's process wall and
# CPU time; the ratio SimGrid/simfab of wall times and of CPU times (the CPU ratio is the one to
# trust on a loaded machine); both peak RSS; both predicted makespans. "solver updates" = flow
# starts + flow ends = 2 x `network.flows` from simfab's JSON (each message is one flow in the
# max-min system), so updates/s = 2 x flows / simulate_s.
# A run that fails or exceeds SIMFAB_BENCH_TIMEOUT seconds (default 300) is reported as such; the
# same simulator is then skipped on the larger cases of that series (random-flows, alltoall on
# one platform), and so is a run whose time predicted from the smaller case (scaled by messages,
# a lower bound for a simulator that is at least linear in messages) exceeds the timeout. A
# SimGrid timeout still gives a lower bound on the ratio ("> x").
# Memory: the 4096-rank all-to-all has 16.8 M messages in flight at once; simfab peaks near
# 11 GiB on it (about 700 B per message in flight) and its trace is 0.75 GB on disk.
# Environment: SIMFAB_BENCH_TIMEOUT, SIMFAB_BENCH_TMP (parent of the temporary directory, /tmp).
set -u

usage() {
  echo "usage: bash bench/flow_bench.sh BUILD_DIR [--no-peer] [--quick] [--model flow|smpi]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "flow_bench.sh: no build directory '$1'" >&2; exit 2; }
shift
PEER=1
QUICK=0
MODEL=flow
while [ $# -gt 0 ]; do
  case "$1" in
    --no-peer) PEER=0 ;;
    --quick) QUICK=1 ;;
    --model) shift; MODEL=${1:-}; { [ "$MODEL" = flow ] || [ "$MODEL" = smpi ]; } || usage ;;
    *) usage ;;
  esac
  shift
done

SIMFAB="$BUILD/simfab"
GEN="$BUILD/gen_schedule"
for b in "$SIMFAB" "$GEN"; do
  [ -x "$b" ] || { echo "flow_bench.sh: $b is missing; build first (cmake --build $BUILD --target simfab gen_schedule)" >&2; exit 2; }
done
if [ "$PEER" = 1 ] && ! command -v smpirun > /dev/null 2>&1; then
  echo "flow_bench.sh: smpirun (SimGrid) is not installed: running simfab only (bench/peer_simgrid.sh shows how to install it)"
  PEER=0
fi
TIMEOUT_S=${SIMFAB_BENCH_TIMEOUT:-300}
TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-flow.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
TIME_BIN=""
[ -x /usr/bin/time ] && TIME_BIN=/usr/bin/time

PER_SWITCH=32
FLOW_BYTES=$((64 << 20))
A2A_BYTES=65536
SEED=1
if [ "$QUICK" = 1 ]; then
  FLOW_SIZES="1024"
  A2A_SIZES_2LEVEL="256 1024"
else
  FLOW_SIZES="1024 4096"
  A2A_SIZES_2LEVEL="256 1024 4096"
fi
A2A_SIZES_CLUSTER="256 1024"

now() { date +%s.%N; }
json_num() { sed -n "s/^ *\"$1\": *\([-0-9.eE+]*\).*/\1/p" "$2" | head -n 1; }
# json_net KEY FILE: a number of the "network" object of simfab's JSON (its first KEY after it).
json_net() {
  awk -v k="\"$1\":" '/"network": *\{/ { f = 1; next }
    f && index($0, k) { sub(/.*": */, ""); sub(/[^-0-9.eE+].*/, ""); print; exit }' "$2"
}
fmt() { awk -v x="$1" -v f="$2" 'BEGIN { if (x == "" || x == "-") print "-"; else printf f, x }'; }

# measure PREFIX CMD...: runs CMD under the timeout with its output in PREFIX.log; sets M_RC,
# M_WALL (seconds, from outside), M_CPU (user + sys seconds of the process and its children, or
# "-") and M_RSS (MiB, or "-").
measure() {
  local prefix=$1
  shift
  local t0 t1 u s k
  M_RC=0
  M_RSS="-"
  M_CPU="-"
  rm -f "$prefix.time"
  t0=$(now)
  if [ -n "$TIME_BIN" ]; then
    timeout "$TIMEOUT_S" "$TIME_BIN" -f '%U %S %M' -o "$prefix.time" "$@" > "$prefix.log" 2>&1 || M_RC=$?
    if [ "$M_RC" = 0 ] && [ -s "$prefix.time" ]; then
      read -r u s k <<< "$(tail -n 1 "$prefix.time")"
      M_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
      M_RSS=$(awk -v k="$k" 'BEGIN { printf "%.0f", k / 1024 }')
    fi
  else
    timeout "$TIMEOUT_S" "$@" > "$prefix.log" 2>&1 || M_RC=$?
  fi
  t1=$(now)
  M_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}

failure() {  # failure RC: the table text for a failed run
  if [ "$1" = 124 ]; then echo "timeout (${TIMEOUT_S} s)"; else echo "FAILED (exit $1)"; fi
}

HEADER='| case | platform | N | messages | simfab s | simfab CPU s | simfab us/msg | events/s | solver updates/s | solves | simfab MiB | SimGrid s | SimGrid CPU s | SimGrid MiB | SimGrid/simfab wall | SimGrid/simfab CPU | simfab makespan | SimGrid makespan | (simfab - SimGrid) / SimGrid |'
RULE='|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'

# Per series and simulator: the previous case's message count and wall time ("" = it failed).
declare -A PREV_MSGS PREV_WALL PREV_WHY

# skip_reason SERIES SIM MSGS: why this run is skipped, or nothing.
skip_reason() {
  local key="$1/$2" msgs=$3
  [ -n "${PREV_MSGS[$key]:-}" ] || return 0
  if [ -n "${PREV_WHY[$key]:-}" ]; then
    echo "skipped: ${PREV_WHY[$key]} at ${PREV_MSGS[$key]} messages"
    return 0
  fi
  local predicted
  predicted=$(awk -v s="${PREV_WALL[$key]}" -v m="$msgs" -v pm="${PREV_MSGS[$key]}" 'BEGIN { printf "%.0f", s * m / pm }')
  [ "$predicted" -gt "$TIMEOUT_S" ] && echo "skipped: >= $predicted s predicted (timeout $TIMEOUT_S s)"
  return 0
}

# run_case NAME PLATFORM N MSGS TRACE_ARGS...   PLATFORM: 2level or cluster
run_case() {
  local name=$1 plat=$2 n=$3 msgs=$4
  shift 4
  local series="$name/$plat"
  local trace="$TMP/trace.ti" yaml="$TMP/platform.yaml" xml="$TMP/platform.xml" json="$TMP/simfab.json"
  local t0 gen_s
  t0=$(now)
  "$GEN" "$@" > "$trace" || { echo "| $name | $plat | $n | $msgs | generator failed |"; rm -f "$trace"; return; }
  gen_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  if [ "$plat" = 2level ]; then
    "$GEN" platform-2level "$n" "$PER_SWITCH" > "$yaml"
    "$GEN" platform-2level-xml "$n" "$PER_SWITCH" > "$xml"
  else
    "$GEN" platform "$n" > "$yaml"
    "$GEN" platform-xml "$n" > "$xml"
  fi
  "$GEN" hostfile "$n" > "$TMP/hostfile"
  echo "$trace" > "$TMP/replay.txt"
  local mib
  mib=$(awk -v b="$(stat -c %s "$trace")" 'BEGIN { printf "%.0f", b / 1048576 }')
  echo "    ($name $plat N=$n: $msgs messages, trace $mib MiB generated in $gen_s s)" >&2

  # simfab
  local sf_wall="-" sf_cpu="-" sf_per="-" sf_eps="-" sf_ups="-" sf_solves="-" sf_rss="-" sf_make="-" sf_ps="" why
  why=$(skip_reason "$series" simfab "$msgs")
  if [ -n "$why" ]; then
    sf_wall=$why
  else
    rm -f "$json"
    if [ "$MODEL" = smpi ]; then  # the very inputs SimGrid reads
      measure "$TMP/simfab" "$SIMFAB" run --platform "$xml" --hostfile "$TMP/hostfile" --trace "$trace" \
        --cfg network/model=smpi --json "$json" --quiet
    else
      measure "$TMP/simfab" "$SIMFAB" run --platform "$yaml" --trace "$trace" --cfg network/model=flow \
        --json "$json" --quiet
    fi
    PREV_MSGS["$series/simfab"]=$msgs
    if [ "$M_RC" = 0 ] && [ -s "$json" ]; then
      PREV_WALL["$series/simfab"]=$M_WALL PREV_WHY["$series/simfab"]=""
      local events sim real_msgs makespan flows
      events=$(json_num events "$json")
      sim=$(json_num simulate_s "$json")
      real_msgs=$(json_num messages "$json")
      makespan=$(json_num makespan_ps "$json")
      flows=$(json_net flows "$json")
      sf_solves=$(json_net solves "$json")
      [ -n "$sf_solves" ] || sf_solves="-"
      [ "$real_msgs" != "$msgs" ] && echo "    note: simfab counted $real_msgs messages, expected $msgs" >&2
      msgs=$real_msgs
      sf_wall=$M_WALL sf_cpu=$M_CPU sf_rss=$M_RSS
      sf_per=$(awk -v w="$M_WALL" -v m="$msgs" 'BEGIN { printf "%.2f", w / m * 1e6 }')
      sf_eps=$(awk -v e="$events" -v s="$sim" 'BEGIN { if (s > 0) printf "%.2f M", e / s / 1e6; else print "-" }')
      sf_ups=$(awk -v f="$flows" -v s="$sim" 'BEGIN { if (f != "" && s > 0) printf "%.2f M", 2 * f / s / 1e6; else print "-" }')
      sf_make=$(awk -v p="$makespan" 'BEGIN { printf "%.4g ms", p / 1e9 }')
      sf_ps=$makespan
    else
      PREV_WHY["$series/simfab"]=$(failure "$M_RC")
      sf_wall="$(failure "$M_RC") after $M_WALL s"
      sed 's/^/    simfab: /' "$TMP/simfab.log" | tail -n 5 >&2
    fi
  fi

  # SimGrid: smpirun sets --cfg=network/model:SMPI itself and no model option is changed.
  # -no-privatize: replay has no application globals to privatize, and without it smpirun copies
  # and dlopens the replay binary once per rank (3.5x slower at 4096 ranks, and it aborts beyond
  # about 6,500 ranks when the process runs out of memory mappings).
  local sg_wall="-" sg_cpu="-" sg_rss="-" sg_make="-" ratio="-" cratio="-" diff="-"
  if [ "$PEER" = 1 ]; then
    why=$(skip_reason "$series" simgrid "$msgs")
    if [ -n "$why" ]; then
      sg_wall=$why
    else
      measure "$TMP/simgrid" smpirun -no-privatize -np "$n" -platform "$xml" -hostfile "$TMP/hostfile" \
        -replay "$TMP/replay.txt" --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning \
        --cfg=smpi/display-timing:yes
      PREV_MSGS["$series/simgrid"]=$msgs
      local sim_t
      sim_t=$(sed -n 's/.*Simulated time: \([0-9.eE+-]*\) seconds.*/\1/p' "$TMP/simgrid.log" | tail -n 1)
      if [ "$M_RC" = 0 ] && [ -n "$sim_t" ]; then
        PREV_WALL["$series/simgrid"]=$M_WALL PREV_WHY["$series/simgrid"]=""
        sg_wall=$M_WALL sg_cpu=$M_CPU sg_rss=$M_RSS
        sg_make=$(awk -v s="$sim_t" 'BEGIN { printf "%.4g ms", s * 1e3 }')
        [ -n "$sf_ps" ] && diff=$(awk -v a="$sf_ps" -v s="$sim_t" 'BEGIN { printf "%+.2e", (a * 1e-12 - s) / s }')
        if [ "$sf_per" != "-" ]; then
          ratio=$(awk -v a="$sg_wall" -v b="$sf_wall" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
          cratio=$(awk -v a="$sg_cpu" -v b="$sf_cpu" 'BEGIN { if (a != "-" && b > 0) printf "%.1f", a / b; else print "-" }')
        fi
      else
        PREV_WHY["$series/simgrid"]=$(failure "$M_RC")
        sg_wall="$(failure "$M_RC")"
        [ "$M_RC" != 124 ] && sed 's/^/    smpirun: /' "$TMP/simgrid.log" | tail -n 5 >&2
        # A timeout still bounds the wall ratio from below.
        [ "$M_RC" = 124 ] && [ "$sf_per" != "-" ] &&
          ratio=$(awk -v a="$M_WALL" -v b="$sf_wall" 'BEGIN { if (b > 0) printf "> %.1f", a / b; else print "-" }')
      fi
    fi
  fi
  rm -f "$trace" "$TMP"/*.log "$json"
  echo "| $name | $plat | $n | $msgs | $sf_wall | $sf_cpu | $sf_per | $sf_eps | $sf_ups | $sf_solves | $sf_rss | $sg_wall | $sg_cpu | $sg_rss | $ratio | $cratio | $sf_make | $sg_make | $diff |"
}

START=$(now)
echo "simfab flow benchmark (network/model=$MODEL): $("$SIMFAB" version 2>/dev/null | head -n 1), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
[ "$PEER" = 1 ] && echo "peer: $(smpirun -version 2>&1 | head -n 1), smpirun -no-privatize -replay, network/model:SMPI (smpirun's default)"
echo "build: $BUILD   inputs in: $TMP   per-run timeout: ${TIMEOUT_S} s"
echo "2-level platform: $PER_SWITCH hosts per leaf; 10Gbps/1us split-duplex host links, 40Gbps/500ns split-duplex"
echo "leaf uplinks, one shared 1Tbps/500ns backbone. cluster: gen_schedule platform N (100Gbps/1us, 10Tbps/500ns backbone)."
echo "simfab s / SimGrid s: wall time of the whole process, CPU s: its user + sys time, both from outside (parsing"
echo "included); events/s and solver updates/s (= 2 x network.flows, flow starts + ends) over simfab's event loop"
echo "(simulate_s); solves = simfab's max-min solves."
echo
echo "$HEADER"
echo "$RULE"
for n in $FLOW_SIZES; do
  run_case random-flows 2level "$n" $((n / 2)) ti-random-flows "$n" $((n / 2)) "$FLOW_BYTES" "$SEED"
done
for n in $A2A_SIZES_2LEVEL; do
  run_case alltoall 2level "$n" $((n * (n - 1))) ti-alltoall "$n" "$A2A_BYTES"
done
for n in $A2A_SIZES_CLUSTER; do
  run_case alltoall cluster "$n" $((n * (n - 1))) ti-alltoall "$n" "$A2A_BYTES"
done
echo
echo "done in $(awk -v a="$START" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s"
exit 0
