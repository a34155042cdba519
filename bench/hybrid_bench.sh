#!/usr/bin/env bash
# Hybrid execution benchmark (issue 25): what `simfab hybrid` adds to a real MPI program's run.
#   1. bench/hybrid_overhead.c (built with the system's mpicc): a ping-pong between ranks 0 and 1
#      (2 ranks), or between (0,1) and (2,3) at once (4 ranks), of 8 B, 64 KiB and 1 MiB messages,
#      run plainly (`mpirun --oversubscribe -np N`) and under `simfab hybrid -np N --quiet --cfg
#      hybrid/compute=none` (mpirun -np N+1: the ranks with libsimfab-hybrid.so preloaded, and
#      the simulator process). The program times its loop with CLOCK_MONOTONIC (real time, which
#      simfab does not touch) and with MPI_Wtime (virtual time under simfab hybrid, on the default
#      cluster: 1 Gf hosts, 10 Gbps / 1 us links, LogGOPS). A message is one one-way send; rank 0
#      reports its pair. `added` = hybrid wall - plain wall, per message. `CPU` is rank 0's own
#      user + system time over the loop (getrusage; Open MPI's waiting included). Both launches
#      run with --bind-to none: mpirun binds 2 ranks to a core each by default, which made plain
#      1 MiB messages 3-4x slower and 8 B ones erratic here (3 or more processes are not bound).
#   2. The simulator's event rate: one hybrid run with --json (2 ranks, 8 B): events /
#      simulate_s (the simulator runs while the program does, so this is the rate the program
#      lets it reach), against `simfab run` replaying the same TI lines offline (written here,
#      the lines the library sends: `compute 0` before each call, with hybrid/compute=none), for
#      the simulator's own rate on that work.
# Each row is the best of REPS runs (default 3), plain and hybrid separately.
#
#   bash bench/hybrid_bench.sh [BUILD_DIR] [--reps N]   # BUILD_DIR defaults to the repo's build/
#
# Needs mpicc and mpirun (Debian's Open MPI: openmpi-bin, libopenmpi-dev). simfab, its library
# and simulator are copied to a temporary directory under $SIMFAB_BENCH_TMP (default /tmp),
# deleted at the end. About 35 s on 2 cores with 3 reps; each run is stopped after
# $SIMFAB_BENCH_TIMEOUT seconds (default 300). A measurement, not a test: it never fails on time.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/bench_setup.sh" hybrid_bench.sh "simfab libsimfab-hybrid.so simfab-hybrid-sim" "$@"
for tool in mpicc mpirun; do
  command -v "$tool" > /dev/null || { echo "hybrid_bench.sh: no $tool (apt-get install openmpi-bin libopenmpi-dev)" >&2; exit 2; }
done
# simfab hybrid finds its library and simulator next to itself: keep the private copy whole.
cp "$BUILD/libsimfab-hybrid.so" "$BUILD/simfab-hybrid-sim" "$TMP/"
mpicc -O2 -o "$TMP/hybrid_overhead" "$HERE/hybrid_overhead.c"

MPIRUN=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" = 0 ] && MPIRUN=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
HYBRID=("$SIMFAB" hybrid --quiet --cfg hybrid/compute=none --mpirun-arg --bind-to --mpirun-arg none)
TIMEOUT=${SIMFAB_BENCH_TIMEOUT:-300}

# measure NP SIZE ITERS WARMUP: REPS plain and REPS hybrid runs, one table row
measure() {
  local np="$1" size="$2" iters="$3" warmup="$4"
  local prog=("$TMP/hybrid_overhead" -s "$size" -n "$iters" -w "$warmup")
  : > "$TMP/plain.out"
  : > "$TMP/hybrid.out"
  for _ in $(seq "$REPS"); do
    timeout "$TIMEOUT" "${MPIRUN[@]}" -np "$np" "${prog[@]}" >> "$TMP/plain.out"
    timeout "$TIMEOUT" "${HYBRID[@]}" -np "$np" -- "${prog[@]}" >> "$TMP/hybrid.out"
  done
  python3 - "$TMP" "$np" "$size" <<'EOF'
import sys
tmp, np, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
def runs(name):
    rows = []
    for line in open(f"{tmp}/{name}.out"):
        f = line.split()
        if f and f[0] == "size":
            d = dict(zip(f[0::2], f[1::2]))
            rows.append((float(d["wall_us_per_msg"]), float(d["virtual_us_per_msg"]), float(d["cpu_us_per_msg"])))
    return rows
plain, hybrid = min(runs("plain")), min(runs("hybrid"))
label = f"{size} B" if size < 1024 else f"{size // 1024} KiB" if size < 1 << 20 else f"{size >> 20} MiB"
print(f"| {np} | {label} | {plain[0]:.2f} | {hybrid[0]:.2f} | {hybrid[0] - plain[0]:+.2f} | {hybrid[1]:.3f} | "
      f"{plain[2]:.2f} | {hybrid[2]:.2f} |")
EOF
}

echo
echo "Ping-pong wall time per message (one one-way send), plain mpirun against simfab hybrid"
echo "(hybrid/compute=none), best of $REPS; 8 B: 100,000 round trips, 64 KiB: 10,000, 1 MiB: 1,000"
echo
echo "| ranks | size | plain wall us/msg | hybrid wall us/msg | added wall us/msg | virtual us/msg | plain CPU us/msg | hybrid CPU us/msg |"
echo "|---|---|---|---|---|---|---|---|"
for np in 2 4; do
  measure "$np" 8 100000 1000
  measure "$np" 65536 10000 100
  measure "$np" 1048576 1000 10
done

# The event rate: one hybrid run with --json, then the same lines replayed by simfab run.
ITERS=100000 WARMUP=1000
timeout "$TIMEOUT" "${HYBRID[@]}" -np 2 --json "$TMP/hybrid.json" -- \
  "$TMP/hybrid_overhead" -s 8 -n "$ITERS" -w "$WARMUP" > /dev/null
printf 'clusters:\n  - {name: default, prefix: node-, count: 2, speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n' \
  > "$TMP/default2.yaml"
python3 - "$TMP/pingpong.ti" "$ITERS" "$WARMUP" <<'EOF'
import sys
path, iters, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as f:
    for r in (0, 1):
        p, out = 1 - r, []
        call = lambda a: out.append(f"{r} compute 0\n{r} {a}\n")
        out.append(f"{r} init\n")
        pair = [f"send {p} 0 8 6", f"recv {p} 0 8 6"]
        if r: pair.reverse()
        for i in range(warmup + iters):
            if i == warmup:
                call("barrier"); call("wtime")
            for a in pair: call(a)
        call("wtime"); call("finalize")
        f.write("".join(out))
EOF
"$SIMFAB" run --platform "$TMP/default2.yaml" --trace "$TMP/pingpong.ti" --quiet --progress never \
  --json "$TMP/replay.json"
python3 - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
h, r = json.load(open(f"{tmp}/hybrid.json")), json.load(open(f"{tmp}/replay.json"))
print()
print("Simulator event rate, 2 ranks, 8 B (events / simulate_s)")
print()
print("| run | messages | events | events/msg | sim s | M events/s | predicted s |")
print("|---|---|---|---|---|---|---|")
for label, d in (("simfab hybrid (while the program runs)", h), ("simfab run, the same lines offline", r)):
    print(f"| {label} | {d['messages']:,} | {d['events']:,} | {d['events'] / d['messages']:.2f} | "
          f"{d['simulate_s']:.3f} | {d['events'] / d['simulate_s'] / 1e6:.2f} | {d['makespan_s']:.6f} |")
# The library skips `compute` when no nanosecond passed since the last call: a few events fewer.
if h["makespan_ps"] != r["makespan_ps"] or abs(h["events"] - r["events"]) > 100:
    print("\n(note: the offline replay differs from the hybrid run: not the same lines)")
EOF
