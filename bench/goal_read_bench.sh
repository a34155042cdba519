#!/usr/bin/env bash
# goal_read_bench.sh [BUILD_DIR]: how fast simfab reads GOAL schedules (issue 29), as text and
# compiled (`simfab goal --compile`), and what a whole `simfab run --goal` costs with each form.
# Inputs: Schedgen's dissemination allreduce (gen_schedule goal-dissemination N 8) at 65,536 and
# 1,048,576 ranks (1.57 GB of text), written to a temporary directory and removed at the end.
# Prints one markdown table; the read columns are the best of 2 (goal_read_bench), the run columns
# one `simfab run --goal ... --quiet` each (wall time and peak RSS from its JSON).
# LogGOPSim's figures for the same 1M-rank text (its txt2bin, then the run) are in the issue:
# txt2bin 36-196 s, then 92-114 s and 7.4 GiB.
set -euo pipefail
BUILD=${1:-build}
for b in simfab gen_schedule goal_read_bench; do
  [ -x "$BUILD/$b" ] || { echo "goal_read_bench.sh: $BUILD/$b is missing; build first (make build)" >&2; exit 2; }
done
TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-goalread.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
echo "| N | form | MB | read s | MB/s | read peak MiB | run wall s | run sim s | run peak MiB | makespan ps |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in 65536 1048576; do
  "$BUILD/gen_schedule" goal-dissemination "$n" 8 > "$TMP/d.goal"
  "$BUILD/simfab" goal --compile "$TMP/d.goal" -o "$TMP/d.sgb" --quiet
  for form in goal sgb; do
    read -r _ kind bytes _ _ _ secs rate rss < <("$BUILD/goal_read_bench" "$TMP/d.$form" 2)
    "$BUILD/simfab" run --goal "$TMP/d.$form" --quiet --json "$TMP/r.json"
    python3 - "$TMP/r.json" "$n" "$kind" "$bytes" "$secs" "$rate" "$rss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, kind, size, secs, rate, rss = sys.argv[2:]
print(f"| {n} | {kind} | {int(size) / 1e6:.0f} | {float(secs):.2f} | {rate} | {float(rss):.0f} | {d['wall_s']:.2f} "
      f"| {d['simulate_s']:.2f} | {d['peak_rss_bytes'] / 2**20:.0f} | {d['makespan_ps']} |")
PY
  done
  rm -f "$TMP/d.goal" "$TMP/d.sgb"
done
