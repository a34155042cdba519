#!/usr/bin/env bash
# NIC model benchmark (issue 23): what nic/model=portals costs.
#   1. Seed 000 §3.2's Portals sweep: 64 message sizes (the NIC's thresholds, then log2-uniform
#      sizes from 1 B to 4 MiB) x 10,000 Put-with-ACK operations from node 0 to node 1
#      (examples/portals/ptlperf.c -m put-ack -r 64), the seed's ~40 s of simulation; then the
#      same 10,000 x 10 at one size, 8 B and 1 MiB, to show the wall time does not follow the size.
#      Payloads are timed but not copied (--cfg nic/max-memcpy=0, S4BXI_MAX_MEMCPY); one row
#      copies them, to show what the copies cost.
#   2. MPI over Portals: examples/mpi/allreduce_loop.c on 8 ranks (1,024 doubles, 2,000
#      iterations) under nic/model=portals, against the same run with nic/model unset (the flow
#      model, and the default LogGOPS).
# Each row is the best of REPS runs (default 3) of `simfab exec --json`: `wall s` is simfab's own
# clock, `sim s` the event loop; events/s are per sim s.
#
#   bash bench/nic_bench.sh [BUILD_DIR] [--reps N]     # BUILD_DIR defaults to the repo's build/
#
# Programs are built with BUILD_DIR/simfab-cc into a temporary directory under $SIMFAB_BENCH_TMP
# (default /tmp), deleted at the end. A measurement, not a test: it never fails on time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/bench_setup.sh" nic_bench.sh "simfab simfab-cc" "$@"
"$BUILD/simfab-cc" -O2 -o "$TMP/ptlperf" "$HERE/../examples/portals/ptlperf.c"
"$BUILD/simfab-cc" -O2 -o "$TMP/allreduce_loop" "$HERE/../examples/mpi/allreduce_loop.c"

# row LABEL OPS SIMFAB-EXEC-ARGS...: REPS runs, one table row (best wall s and sim s separately)
row() {
  local label="$1" ops="$2" i
  shift 2
  for i in $(seq "$REPS"); do
    "$SIMFAB" exec --quiet --progress never --json "$TMP/r$i.json" "$@" > /dev/null
  done
  python3 - "$TMP" "$REPS" "$label" "$ops" <<'EOF'
import json, sys
tmp, reps, label, ops = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
docs = [json.load(open(f"{tmp}/r{i}.json")) for i in range(1, reps + 1)]
wall = min(d["wall_s"] for d in docs)
sim = min(d["simulate_s"] for d in docs)
ev = docs[0]["events"]
print(f"| {label} | {ops:,} | {ev:,} | {ev / max(ops, 1):.1f} | {wall:.3f} | {sim:.3f} | {ev / sim / 1e6:.2f} | "
      f"{wall / max(ops, 1) * 1e6:.2f} | {docs[0]['makespan_ps'] / 1e12:.4f} |")
EOF
}

NIC=(-np 2 --cfg nic/model=portals --cfg online/compute=declared)
echo
echo "Portals sweep (ptlperf put-ack; node 0 -> node 1 of the default cluster, 10 Gb/s links)"
echo
echo "| case | operations | events | events/op | wall s | sim s | M events/s | wall us/op | simulated s |"
echo "|---|---|---|---|---|---|---|---|---|"
row "64 sizes x 10,000 (1 B - 4 MiB)" 640000 "${NIC[@]}" --cfg nic/max-memcpy=0 "$TMP/ptlperf" -m put-ack -r 64 -s 1 -S 4194304 -n 10000
row "8 B x 100,000" 100000 "${NIC[@]}" --cfg nic/max-memcpy=0 "$TMP/ptlperf" -m put-ack -s 8 -S 8 -n 100000
row "1 MiB x 100,000" 100000 "${NIC[@]}" --cfg nic/max-memcpy=0 "$TMP/ptlperf" -m put-ack -s 1048576 -S 1048576 -n 100000
row "64 sizes x 10,000, payloads copied" 640000 "${NIC[@]}" "$TMP/ptlperf" -m put-ack -r 64 -s 1 -S 4194304 -n 10000
row "64 sizes x 10,000, CT mode (PtlCTWait)" 640000 "${NIC[@]}" --cfg nic/max-memcpy=0 "$TMP/ptlperf" -m ct -r 64 -s 1 -S 4194304 -n 10000

echo
echo "MPI over Portals (allreduce_loop, 8 ranks, 1,024 doubles, 2,000 iterations; 'operations' = allreduces)"
echo
echo "| case | operations | events | events/op | wall s | sim s | M events/s | wall us/op | simulated s |"
echo "|---|---|---|---|---|---|---|---|---|"
MPI=(-np 8 --cfg online/compute=declared)
row "nic/model=portals (over flow)" 2000 "${MPI[@]}" --cfg nic/model=portals "$TMP/allreduce_loop" 1024 2000
row "nic/model unset, network/model=flow" 2000 "${MPI[@]}" --cfg network/model=flow "$TMP/allreduce_loop" 1024 2000
row "nic/model unset (LogGOPS)" 2000 "${MPI[@]}" "$TMP/allreduce_loop" 1024 2000
