#!/usr/bin/env bash
# Model switching benchmark (issue 24): what a switch saves and what it costs.
#   1. A 1,024-rank 3-D stencil (gen_schedule ti-stencil3d: 6 neighbours, 64 KiB halos, 100
#      iterations, 1 Mflop per iteration) on a 1,024-host cluster: the packet model throughout,
#      against the packet model for the first 10 iterations and LogGOPS for the other 90 (a TI
#      `switch` action after the 10th iteration of every rank), and LogGOPS throughout. If the
#      switch were free, the switched run would cost about 0.1 x packet + 0.9 x LogGOPS.
#   2. The switch's own cost: the same stencil under LogGOPS with a switch before every
#      iteration, alternating between two identical configurations (network/model=loggops and
#      loggops/S=65535, which is the default), against no switch.
#   3. Seed 000 §6.6.1 / test 20: tests/switch/osu_switch.c (10 warm-up + 100 timed 8-B
#      ping-pongs) switching from nic/model=portals to LogGOPS after K = 0, 10, ..., 110
#      iterations: the measured latency and the wall time per K.
# Each row is the best of REPS runs (default 3) of `simfab --json`: wall s is simfab's own clock.
#
#   bash bench/switch_bench.sh [BUILD_DIR] [--reps N]   # BUILD_DIR defaults to the repo's build/
#
# Inputs go to a temporary directory under $SIMFAB_BENCH_TMP (default /tmp), deleted at the end
# (about 60 MB). A measurement, not a test: it never fails on time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/bench_setup.sh" switch_bench.sh "simfab gen_schedule simfab-cc" "$@"

"$BUILD/gen_schedule" platform 1024 > "$TMP/p1024.yaml"
"$BUILD/gen_schedule" ti-stencil3d 1024 100 65536 1000000 > "$TMP/plain.ti"
# The same trace with `switch` actions: before iteration 11 (packet -> loggops), and before every
# iteration (alternating two identical LogGOPS configurations). An iteration starts at `compute`.
python3 - "$TMP" <<'EOF'
import sys
tmp = sys.argv[1]
with open(f"{tmp}/plain.ti") as f, open(f"{tmp}/after10.ti", "w") as a, open(f"{tmp}/every.ti", "w") as e:
    seen = {}
    for line in f:
        rank, action = line.split(" ", 2)[:2]
        if action.strip() == "compute" or action == "compute":
            k = seen.get(rank, 0)
            seen[rank] = k + 1
            if k == 10:
                a.write(f"{rank} switch network/model=loggops\n")
            e.write(f"{rank} switch " + ("loggops/S=65535" if k % 2 else "network/model=loggops") + "\n")
        a.write(line)
        e.write(line)
EOF

# row LABEL SIMFAB-ARGS...: REPS runs, one table row
row() {
  local label="$1" i
  shift
  for i in $(seq "$REPS"); do
    "$SIMFAB" "$@" --quiet --progress never --json "$TMP/r$i.json" > /dev/null
  done
  python3 - "$TMP" "$REPS" "$label" <<'EOF'
import json, sys
tmp, reps, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
docs = [json.load(open(f"{tmp}/r{i}.json")) for i in range(1, reps + 1)]
wall = min(d["wall_s"] for d in docs)
sim = min(d["simulate_s"] for d in docs)
d = docs[0]
phases = "; ".join(f"{p['model']} {p['events']:,} ev" for p in d.get("phases", []))
print(f"| {label} | {d['events']:,} | {wall:.3f} | {sim:.3f} | {d['makespan_ps'] / 1e12:.6f} | {phases} |")
EOF
}

echo
echo "1,024-rank stencil, 100 iterations (1,024-host cluster)"
echo
echo "| case | events | wall s | sim s | predicted s | phases |"
echo "|---|---|---|---|---|---|"
RUN=(run --platform "$TMP/p1024.yaml")
row "packet throughout" "${RUN[@]}" --trace "$TMP/plain.ti" --cfg network/model=packet
row "packet 10 iterations, then LogGOPS" "${RUN[@]}" --trace "$TMP/after10.ti" --cfg network/model=packet
row "LogGOPS throughout" "${RUN[@]}" --trace "$TMP/plain.ti"
row "LogGOPS, a switch before every iteration" "${RUN[@]}" --trace "$TMP/every.ti"

echo
echo "Seed 000 test 20: OSU latency (8 B), nic/model=portals until iteration K, then LogGOPS"
echo
"$BUILD/simfab-cc" -O2 -o "$TMP/osu_switch" "$HERE/../tests/switch/osu_switch.c"
echo "| K | latency us | events | wall s |"
echo "|---|---|---|---|"
for k in 0 10 20 30 40 50 60 70 80 90 100 110; do
  best=""
  for i in $(seq "$REPS"); do
    "$SIMFAB" exec -np 2 --cfg online/compute=declared --cfg nic/model=portals --json "$TMP/o$i.json" --quiet \
      "$TMP/osu_switch" -k "$k" > "$TMP/o$i.out"
  done
  python3 - "$TMP" "$REPS" "$k" <<'EOF'
import json, sys
tmp, reps, k = sys.argv[1], int(sys.argv[2]), sys.argv[3]
docs = [json.load(open(f"{tmp}/o{i}.json")) for i in range(1, reps + 1)]
lat = [l.split()[1] for l in open(f"{tmp}/o1.out") if l.startswith("latency-us")][0]
print(f"| {k} | {lat} | {docs[0]['events']:,} | {min(d['wall_s'] for d in docs):.4f} |")
EOF
done
