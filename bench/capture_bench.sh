#!/usr/bin/env bash
# Capture and conversion costs (issue 9): what tracing a real run adds per MPI call, and how fast
# `simfab convert` turns captures into TI traces and GOAL schedules.
#
#   bash bench/capture_bench.sh BUILD_DIR [--quick]
#
# 1. Capture overhead: tests/capture/send_overhead.c (100k MPI_Send of 8 B between 2 ranks, best of
#    5 rounds) under Open MPI's mpirun, 3 runs each without and with libsimfab-capture.so preloaded.
# 2. Conversion: bench/capture_gen.py writes a synthetic capture of N ranks x ITER iterations of
#    {Irecv, Isend, Waitall, Allreduce} (4 records per iteration); `simfab convert --ti` and
#    `--goal` are timed (wall seconds and peak RSS from /usr/bin/time), and records/s reported.
# No peer runs here: neither SimGrid nor LogGOPSim's Schedgen converts real-run traces on this machine.
set -u
[ $# -ge 1 ] || { echo "usage: bash bench/capture_bench.sh BUILD_DIR [--quick]" >&2; exit 2; }
BUILD=$(cd "$1" && pwd) || exit 2
QUICK=0
[ "${2:-}" = "--quick" ] && QUICK=1
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d /tmp/simfab-capture-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
export OMPI_MCA_plm=isolated OMPI_MCA_btl=self,vader OMPI_ALLOW_RUN_AS_ROOT=1 \
       OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

echo "## capture overhead (ns per MPI_Send of 8 B, best of 5 rounds of 100k)"
if command -v mpicc > /dev/null && [ -f "$BUILD/libsimfab-capture.so" ]; then
  mpicc -O2 -o "$TMP/send_overhead" "$SRC/tests/capture/send_overhead.c"
  for run in 1 2 3; do
    plain=$(mpirun -np 2 "$TMP/send_overhead" | grep 'rank 0' | grep -o '[0-9.]* ns')
    traced=$(cd "$TMP" && mpirun -np 2 -x LD_PRELOAD="$BUILD/libsimfab-capture.so" \
             -x SIMFAB_CAPTURE_DIR="$TMP/cap" "$TMP/send_overhead" | grep 'rank 0' | grep -o '[0-9.]* ns')
    echo "run $run: without $plain, with $traced"
  done
else
  echo "skipped: no mpicc or no $BUILD/libsimfab-capture.so"
fi

echo
echo "## simfab convert"
printf "%-8s %-8s %-10s %-6s %-9s %-12s %-9s\n" ranks iters records to wall_s records/s rss_MB
cases="16:5000 64:5000 256:2000"
[ $QUICK = 1 ] && cases="16:2000"
for c in $cases; do
  n=${c%%:*}; it=${c##*:}
  rm -rf "$TMP/in" "$TMP/out"*
  python3 "$SRC/bench/capture_gen.py" "$TMP/in" "$n" "$it"
  records=$((n * it * 4 + 2 * n))
  for to in ti goal; do
    out="$TMP/out.$to"
    /usr/bin/time -f "%e %M" -o "$TMP/time" "$BUILD/simfab" convert "$TMP/in" --$to "$out" --quiet
    read -r wall rss < "$TMP/time"
    awk -v n="$n" -v it="$it" -v rec="$records" -v to="$to" -v w="$wall" -v m="$rss" \
      'BEGIN { printf "%-8d %-8d %-10d %-6s %-9.2f %-12.0f %-9.1f\n", n, it, rec, to, w, (w > 0 ? rec / w : 0), m / 1024 }'
  done
done
