#!/usr/bin/env bash
# Peer ratio: simfab against SimGrid 3.32 (`smpirun -replay`) on the same TI trace, in the same run.
#
#   bash bench/peer_simgrid.sh BUILD_DIR [ITERS]
#
# For N = 1024 and 4096 (override with SIMFAB_PEER_SIZES="..."): gen_schedule writes one shared
# TI trace (ITERS x (compute 1e6 flops, allreduce of 8 B), default ITERS 10), a simfab YAML platform
# and the equivalent SimGrid XML cluster (N single-core 10 Gf hosts, 100 Gbps / 1 us private links,
# a 10 Tbps / 500 ns backbone) with a hostfile. Both simulators replay the trace; wall time and
# maximum RSS of each whole process are measured from the outside (/usr/bin/time when present,
# else the shell's clock and no RSS), and the ratio simfab/SimGrid of wall times is printed.
# The models differ (simfab: LogGOPS with parameters from the platform; SimGrid: its SMPI flow
# model with its default collective selector), so the predicted times are shown side by side
# for information, not as a validation.
#
# SimGrid comes from Debian (package libsimgrid-dev, which ships smpirun and smpireplaymain; there
# is no separate `simgrid` package in bookworm). If it is missing, this script installs it with
# apt-get when it runs as root and the package has a candidate; if it cannot, it says why and exits
# 0, so bench/run.sh goes on.
set -u

[ $# -ge 1 ] || { echo "usage: bash bench/peer_simgrid.sh BUILD_DIR [ITERS]" >&2; exit 2; }
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "peer_simgrid.sh: no build directory '$1'" >&2; exit 2; }
ITERS=${2:-10}
SIZES=${SIMFAB_PEER_SIZES:-"1024 4096"}
SIMFAB="$BUILD/simfab"
GEN="$BUILD/gen_schedule"
for b in "$SIMFAB" "$GEN"; do
  [ -x "$b" ] || { echo "peer_simgrid.sh: $b is missing; build first" >&2; exit 2; }
done

echo "== peer: SimGrid smpirun -replay vs simfab on the same TI allreduce trace =="

# shellcheck source=bench/simgrid_install.sh
. "$(dirname "$0")/simgrid_install.sh"
if ! command -v smpirun > /dev/null 2>&1; then
  install_libsimgrid /tmp/simfab-peer-apt.log || exit 0
  command -v smpirun > /dev/null 2>&1 || { echo "SimGrid skipped: smpirun still missing after install"; exit 0; }
fi
echo "SimGrid: $(smpirun -version 2>&1 | head -n 1)"

TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-peer.XXXXXX") || exit 0
trap 'rm -rf "$TMP"' EXIT
TIME_BIN=""
[ -x /usr/bin/time ] && TIME_BIN=/usr/bin/time
now() { date +%s.%N; }

# measure OUT_PREFIX CMD...: runs CMD with its output in OUT_PREFIX.log; sets M_RC, M_WALL, M_RSS_MIB.
measure() {
  local prefix=$1
  shift
  local t0 t1
  M_RC=0
  M_RSS_MIB="-"
  t0=$(now)
  if [ -n "$TIME_BIN" ]; then
    "$TIME_BIN" -f '%M' -o "$prefix.time" "$@" > "$prefix.log" 2>&1 || M_RC=$?
    [ -s "$prefix.time" ] && M_RSS_MIB=$(awk -v k="$(tail -n 1 "$prefix.time")" 'BEGIN { printf "%.1f", k / 1024 }')
  else
    "$@" > "$prefix.log" 2>&1 || M_RC=$?
  fi
  t1=$(now)
  M_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}

echo
echo "| N | iters | trace MiB | simfab s | simfab MiB | simfab makespan | SimGrid s | SimGrid MiB | SimGrid simulated time | wall ratio simfab/SimGrid |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $SIZES; do
  trace="$TMP/allreduce.ti"
  "$GEN" ti-allreduce "$n" 8 "$ITERS" > "$trace"
  "$GEN" platform "$n" > "$TMP/platform.yaml"
  echo "$trace" > "$TMP/list.txt"
  seq 0 $((n - 1)) | sed 's/^/node/' > "$TMP/hostfile"
  cat > "$TMP/platform.xml" << EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!-- the same cluster as 'gen_schedule platform $n' gives simfab -->
  <cluster id="c" prefix="node" suffix="" radical="0-$((n - 1))" speed="10Gf" core="1"
           bw="100Gbps" lat="1us" bb_bw="10Tbps" bb_lat="500ns"/>
</platform>
EOF
  size=$(awk -v b="$(stat -c %s "$trace")" 'BEGIN { printf "%.1f", b / 1048576 }')

  measure "$TMP/simfab" "$SIMFAB" run --platform "$TMP/platform.yaml" --trace "$trace" --json "$TMP/simfab.json" --quiet
  sf_rc=$M_RC sf_wall=$M_WALL sf_rss=$M_RSS_MIB
  sf_make="-"
  if [ "$sf_rc" = 0 ]; then
    sf_make=$(sed -n 's/^ *"makespan_ps": *\([0-9]*\).*/\1/p' "$TMP/simfab.json" | tail -n 1)
    sf_make=$(awk -v p="$sf_make" 'BEGIN { printf "%.4g us", p / 1e6 }')
  else
    sf_wall="FAILED (exit $sf_rc)"
    sed 's/^/    simfab: /' "$TMP/simfab.log" | head -n 5 >&2
  fi

  # smpirun -replay takes a list file naming the trace(s); one line = one trace shared by all ranks.
  measure "$TMP/simgrid" smpirun -np "$n" -platform "$TMP/platform.xml" -hostfile "$TMP/hostfile" \
    -replay "$TMP/list.txt" --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning
  sg_rc=$M_RC sg_wall=$M_WALL sg_rss=$M_RSS_MIB
  sg_sim=$(sed -n 's/.*Simulation time \([0-9.eE+-]*\).*/\1/p' "$TMP/simgrid.log" | tail -n 1)
  if [ "$sg_rc" != 0 ] || [ -z "$sg_sim" ]; then
    echo "    SimGrid failed (exit $sg_rc):" >&2
    tail -n 5 "$TMP/simgrid.log" | sed 's/^/    smpirun: /' >&2
    sg_wall="FAILED (exit $sg_rc)"
    sg_sim="-"
  else
    sg_sim=$(awk -v s="$sg_sim" 'BEGIN { printf "%.4g us", s * 1e6 }')
  fi
  ratio="-"
  if [ "$sf_rc" = 0 ] && [ "$sg_rc" = 0 ] && [ "$sg_sim" != "-" ]; then
    ratio=$(awk -v a="$sf_wall" -v b="$sg_wall" 'BEGIN { if (b > 0) printf "%.3g", a / b; else print "-" }')
  fi
  echo "| $n | $ITERS | $size | $sf_wall | $sf_rss | $sf_make | $sg_wall | $sg_rss | $sg_sim | $ratio |"
  rm -f "$trace"
done
echo
echo "wall ratio < 1: simfab is faster. Both timed as whole processes (parsing included)."
exit 0
