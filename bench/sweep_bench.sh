#!/usr/bin/env bash
# sweep_bench.sh: `simfab sweep` throughput and overhead per point (issue 31, the local half).
#
# Three workloads:
#   empty  N points of a 1-rank GOAL schedule with no operation on ideal hosts: the point is nothing
#          but simfab's start-up, loading and JSON, so its time per point is the overhead itself;
#   tiny   N points of examples/ti/pingpong.ti on examples/platforms/two-hosts.yaml (the point's own
#          work is well under a millisecond, so the sweep's time is its overhead: fork + exec of
#          simfab, its start-up, loading the inputs, writing and reading the JSON, the checkpoint);
#   grid   the 3 x 4 grid of tests/sweep (network/model x loggops/G on cluster16 + stencil16),
#          repeated R times.
# Each runs at -j1 and -j2 from an empty CSV, and under `mpirun -np 2` and `-np 3` (one and two
# worker processes; simfab-sweep-mpi) when Open MPI is installed. Reported: points/min, and the overhead per point at
# -j1: the sweep's wall time per point minus the point's own wall time inside one process (the
# wall_s of a single `simfab run --json`, parsing included), i.e. what running it as a separate
# process under the sweep adds. The target (issue 31): under 50 ms per point.
#
# usage: bash bench/sweep_bench.sh BUILD_DIR [TINY_POINTS] [GRID_REPS]   (default 200, 4)
set -euo pipefail
BUILD=${1:?usage: sweep_bench.sh BUILD_DIR [TINY_POINTS] [GRID_REPS]}
N=${2:-200}
REPS=${3:-4}
SIMFAB="$BUILD/simfab"
[ -x "$SIMFAB" ] || { echo "sweep_bench.sh: $SIMFAB is missing; build first" >&2; exit 2; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-sweep-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# The empty and tiny sweeps: one axis of N distinct values of a key the run reads (loggops/L, in ps).
printf 'num_ranks 1\nrank 0 {\n}\n' > "$TMP/empty.goal"
axis() { printf "axes:\n  loggops/L: ["; seq -s ", " 1000 1000 $((N * 1000)) | tr -d '\n'; echo "]"; }
{ echo "goal: $TMP/empty.goal"; axis; } > "$TMP/empty.yaml"
{
  echo "platform: $ROOT/examples/platforms/two-hosts.yaml"
  echo "trace: $ROOT/examples/ti/pingpong.ti"
  axis
} > "$TMP/tiny.yaml"
cat > "$TMP/grid.yaml" <<YAML
platform: $ROOT/examples/platforms/cluster16.yaml
trace: $ROOT/examples/ti/stencil16.ti
repetitions: $REPS
axes:
  network/model: [loggops, flow, smpi]
  loggops/G: [0.01ns, 0.02ns, 0.04ns, 0.08ns]
YAML

TIME_BIN=/usr/bin/time
[ -x "$TIME_BIN" ] || { echo "sweep_bench.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
timed() {  # prints "wall cpu" (s) of "$@": CPU is user + system, the children the command waited for included
  "$TIME_BIN" -f "%e %U %S" -o "$TMP/time" "$@" > /dev/null
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$TMP/time"
}
inprocess_wall() {  # the wall_s of one run of "$@", from its JSON (the process's own clock, parsing included)
  "$SIMFAB" run "$@" --json "$TMP/one.json" --quiet
  sed -n 's/^  "wall_s": \([0-9.e-]*\).*/\1/p' "$TMP/one.json"
}
process_alone() {  # "wall cpu" (s) per run of 20 separate `simfab run "$@"` processes, timed together
  local w c
  read -r w c < <(timed bash -c 'for i in $(seq 20); do "$0" run "$@" --json "'"$TMP"'/one.json" --reproducible --quiet; done' \
    "$SIMFAB" "$@")
  awk -v w="$w" -v c="$c" 'BEGIN { printf "%.4f %.4f", w / 20, c / 20 }'
}
ms() { awk -v a="$1" 'BEGIN { printf "%.1f", a * 1000 }'; }
row() {  # NAME SPEC POINTS INPROCESS_WALL "ALONE_WALL ALONE_CPU"
  local name=$1 spec=$2 points=$3 inproc=$4 alone_w alone_c j w c
  read -r alone_w alone_c <<< "$5"
  for j in 1 2; do
    rm -f "$TMP/out.csv"
    read -r w c < <(timed "$SIMFAB" sweep "$spec" -o "$TMP/out.csv" -j$j --quiet)
    [ "$(($(wc -l < "$TMP/out.csv") - 1))" = "$points" ] || { echo "sweep_bench.sh: $name -j$j: not $points rows" >&2; exit 1; }
    local per_w per_c
    per_w=$(awk -v s="$w" -v n="$points" 'BEGIN { print s / n }')
    per_c=$(awk -v s="$c" -v n="$points" 'BEGIN { print s / n }')
    if [ $j = 1 ]; then
      echo "| $name | $points | -j1 | $w | $(awk -v s="$w" -v n="$points" 'BEGIN { printf "%.0f", n / s * 60 }') | $(ms "$per_w") | $(ms "$inproc") | $(ms "$(awk -v a="$per_w" -v b="$inproc" 'BEGIN { print a - b }')") | $(ms "$(awk -v a="$per_w" -v b="$alone_w" 'BEGIN { print a - b }')") | $(ms "$per_c") / $(ms "$alone_c") |"
    else
      echo "| $name | $points | -j2 | $w | $(awk -v s="$w" -v n="$points" 'BEGIN { printf "%.0f", n / s * 60 }') | $(ms "$per_w") | | | | $(ms "$per_c") |"
    fi
  done
  # Under mpirun (simfab-sweep-mpi): process 0 hands out the points, K-1 workers run one each.
  [ -n "$MPIRUN" ] || return 0
  local np
  for np in 2 3; do
    rm -f "$TMP/out.csv"
    read -r w c < <(timed "$MPIRUN" -np $np "$SIMFAB" sweep "$spec" -o "$TMP/out.csv" --quiet)
    [ "$(($(wc -l < "$TMP/out.csv") - 1))" = "$points" ] || { echo "sweep_bench.sh: $name mpirun -np $np: not $points rows" >&2; exit 1; }
    echo "| $name | $points | mpirun -np $np ($((np - 1)) worker$([ $np -gt 2 ] && echo s)) | $w | $(awk -v s="$w" -v n="$points" 'BEGIN { printf "%.0f", n / s * 60 }') | $(ms "$(awk -v s="$w" -v n="$points" 'BEGIN { print s / n }')") | | | | $(ms "$(awk -v s="$c" -v n="$points" 'BEGIN { print s / n }')") |"
  done
}
MPIRUN=""
if command -v mpirun > /dev/null && [ -x "$BUILD/simfab-sweep-mpi" ]; then
  MPIRUN=$(command -v mpirun)
  export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
  [ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| workload | points | jobs | wall (s) | points/min | wall per point (ms) | point in-process (ms) | overhead per point (ms) | over \`simfab run\` alone (ms) | CPU per point: sweep / alone (ms) |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
row empty "$TMP/empty.yaml" "$N" "$(inprocess_wall --goal "$TMP/empty.goal")" "$(process_alone --goal "$TMP/empty.goal")"
TINY=(--platform "$ROOT/examples/platforms/two-hosts.yaml" --trace "$ROOT/examples/ti/pingpong.ti")
row tiny "$TMP/tiny.yaml" "$N" "$(inprocess_wall "${TINY[@]}")" "$(process_alone "${TINY[@]}")"
GRID=(--platform "$ROOT/examples/platforms/cluster16.yaml" --trace "$ROOT/examples/ti/stencil16.ti")
GRID_IN=$(for m in loggops flow smpi; do inprocess_wall "${GRID[@]}" --cfg network/model=$m; done | awk '{ s += $1 } END { printf "%.6f", s / NR }')
row "grid 3x4" "$TMP/grid.yaml" $((12 * REPS)) "$GRID_IN" "$(process_alone "${GRID[@]}" --cfg network/model=flow)"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
