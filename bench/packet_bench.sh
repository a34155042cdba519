#!/usr/bin/env bash
# Packet model benchmark (issue 11): what network/model=packet costs on seed 004's own workloads,
# next to the thesis's OMNeT++ InfiniBand model (seed 004 §3.3, §3.4; 200-240k events/s on a
# Core2Duo T6600).
#   1. §3.3: the 648-host M9 fat-tree (2 levels of 36-port switches) running the 648-rank
#      dissemination barrier (180 B, loggops/o=0), once and 100 times back to back;
#   2. §3.4 / §6 test 15: "N sends of 1000 B to rank+1, every send except the first follows a
#      receive" on 2-level fat-trees of k = 16, 22, 28, 32 (128-512 hosts), N = 15, 30, 45, next
#      to Table 4.8.1; plus one long run (k = 32, N = 1500) for a steady-state rate.
# Each row is the best of REPS runs (default 3) of `simfab run --json`: `wall s` is simfab's own
# clock (parsing included), `sim s` the event loop alone; rates are per sim s.
#
#   bash bench/packet_bench.sh [SIMFAB] [--reps N]      # SIMFAB defaults to the repo's build/simfab
#
# The binary is copied, and the inputs go, to a temporary directory under $SIMFAB_BENCH_TMP
# (default /tmp), deleted at the end (at most ~130 MB). This is a measurement, not a test: it
# never fails on time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SIMFAB="$HERE/../build/simfab"
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then SIMFAB="$1"; shift; fi
REPS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) REPS="$2"; shift ;;
    *) echo "packet_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$SIMFAB" ] || { echo "packet_bench.sh: no simfab binary at $SIMFAB" >&2; exit 2; }
GEN=(python3 "$HERE/gen_packet_workloads.py")
TMP="$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-packet.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
# a private copy, so that a rebuild of the binary during the run does not disturb it
cp "$SIMFAB" "$TMP/simfab"
echo "simfab: $SIMFAB (modified $(date -r "$SIMFAB" '+%F %T'))"
SIMFAB="$TMP/simfab"

# run_case PLATFORM GOAL: REPS runs, JSON documents in $TMP/r1.json ... (summary only kept)
run_case() {
  local i
  for i in $(seq "$REPS"); do
    "$SIMFAB" run --platform "$1" --goal "$2" --cfg network/model=packet --cfg loggops/o=0 \
      --quiet --progress never --json "$TMP/r$i.json"
  done
}

# report KIND LABEL SIZE BARRIERS THESIS_WALL THESIS_FINAL_PS THESIS_EVENTS: one table row from
# the REPS JSON documents (best wall s and best sim s taken separately)
report() {
  python3 - "$TMP" "$REPS" "$@" <<'EOF'
import json, math, sys
tmp, reps, kind, label, size, barriers, t_wall, t_final, t_events = sys.argv[1:]
reps, size, barriers = int(reps), int(size), int(barriers)
docs = [json.load(open(f"{tmp}/r{i}.json")) for i in range(1, reps + 1)]
d = docs[0]
wall = min(x["wall_s"] for x in docs)
sim = min(x["simulate_s"] for x in docs)
ev, net = d["events"], d["network"]
pk, hops = net["packets"], net["packet_hops"]
# packets of a SIZE-byte message (packet/mtu 2176, header 20, flit 64: the defaults)
mtu, hdr, flit = 2176, 20, 64
left, npk, nfl = size, 0, 0
while True:
    b = min(mtu, hdr + left)
    npk += 1; nfl += math.ceil(b / flit); left -= b - hdr
    if left <= 0: break
fpp = nfl / npk                       # flits per packet (all messages have SIZE bytes)
fh = hops * fpp                       # flit-hops
us = d["makespan_ps"] / 1e6
rss = d["peak_rss_bytes"] / 2**20
THESIS_RATE = 240e3
def m(x): return f"{x / 1e6:.2f} M"
if kind == "diss":
    t_wall = float(t_wall)
    print(f"| {label} | {barriers} | {us:.3f} | {ev} | {pk} | {hops} | {wall:.3f} | {sim:.3f} "
          f"| {wall / barriers * 1e3:.2f} | {m(ev / sim)} | {m(hops / sim)} | {m(fh / sim)} "
          f"| {wall / us:.2e} | {ev / sim / THESIS_RATE:.0f}x | {t_wall / (wall / barriers):.0f}x "
          f"| {rss:.0f} |")
else:
    tw = float(t_wall) if t_wall != "-" else None
    tf = int(t_final) if t_final != "-" else None
    te = int(t_events) if t_events != "-" else None
    tcol = (f"{tf / 1e6:.3f} | {d['makespan_ps'] / tf:.3f} | {tw:.2f} | {te}" if tf
            else "- | - | - | -")
    speed = f"{tw / wall:.0f}x" if tw else "-"
    tfh = f"{fh / tw / 1e3:.1f} k" if tw else "-"
    print(f"| {label} | {us:.3f} | {tcol} | {ev} | {hops} | {wall:.4f} | {sim:.4f} "
          f"| {m(ev / sim)} | {m(hops / sim)} | {m(fh / sim)} | {tfh} | {wall / us:.2e} "
          f"| {ev / sim / THESIS_RATE:.0f}x | {speed} |")
EOF
}

echo "$REPS runs per row, best taken; $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average at start: $(cut -d" " -f1-3 /proc/loadavg)"
echo
echo "## 1. Dissemination barrier, 648 hosts (M9: 2-level fat-tree of 36-port switches), 180 B, loggops/o=0"
echo "   thesis (seed 004 §3.3): 15.7 s for the network model alone, one dissemination, 200-240k events/s"
echo
echo "| workload | barriers | simulated us | events | packets | packet hops | wall s | sim s | wall ms / barrier | events/s | packet hops/s | flit-hops/s | wall s / simulated us | events/s vs 240k | thesis 15.7 s / our wall per barrier | peak MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
"${GEN[@]}" fat-tree 36 > "$TMP/m9.yaml"
for reps in 1 100; do
  "${GEN[@]}" dissemination 648 "$reps" 180 > "$TMP/diss.goal"
  run_case "$TMP/m9.yaml" "$TMP/diss.goal"
  report diss "dissemination x$reps" 180 "$reps" 15.7 - -
done
rm -f "$TMP/diss.goal"

echo
echo "## 2. N sends of 1000 B to rank+1 (seed 004 §3.4, Table 4.8.1; §6 test 15), loggops/o=0"
echo
echo "| hosts (k), N | simulated us | thesis us | ours / thesis | thesis wall s | thesis events | events | packet hops | wall s | sim s | events/s | packet hops/s | flit-hops/s | thesis flit-hops/s | wall s / simulated us | events/s vs 240k | thesis wall / our wall |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
# Table 4.8.1 (seed 004 §3.4): k N thesis-wall-s thesis-final-ps thesis-events
thesis="16 45 16.74 30355600 3874778
22 45 33.06 30149350 7234240
28 45 56.82 30034500 11785702
32 45 78.08 29868100 15374041
16 30 10.83 20247000 2551377
22 30 21.79 20086850 4788938
28 30 38.3 20086850 7806059
32 30 50.7 19897000 10150826
16 15 5.25 10147000 1239827
22 15 10.55 10140750 2349118
28 15 18.11 10140750 3741826
32 15 24.81 9949350 4904769"
for k in 16 22 28 32; do "${GEN[@]}" fat-tree "$k" > "$TMP/ft$k.yaml"; done
while read -r k n tw tf te; do
  hosts=$((k * k / 2))
  "${GEN[@]}" ring "$hosts" "$n" 1000 > "$TMP/ring.goal"
  run_case "$TMP/ft$k.yaml" "$TMP/ring.goal"
  report ring "$hosts ($k), $n" 1000 1 "$tw" "$tf" "$te"
done <<< "$thesis"
"${GEN[@]}" ring 512 1500 1000 > "$TMP/ring.goal"
run_case "$TMP/ft32.yaml" "$TMP/ring.goal"
report ring "512 (32), 1500" 1000 1 - - -
