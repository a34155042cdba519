#!/usr/bin/env bash
# otf2_bench.sh [BUILD_DIR] [RANKS] [ITERS]: OTF2 in and out (issue 30) at scale.
# Workload: a 2-D halo exchange on RANKS ranks (default 1024, a 32x32 periodic grid), ITERS steps
# (default 100) of compute, 4 irecv + 4 isend of 64 KiB, waitall, and an allreduce every 5 steps,
# as one TI trace per rank. Steps:
#   1. simfab run --trace (network/model=smpi): the reference replay
#   2. the same with --otf2-out: what writing the archive costs
#   3. simfab run --otf2 on that archive: read + align + replay; events/s = the archive's events
#      (the locations' event counts) / the run's wall time
#   4. simfab convert --otf2 --ti: read + align + write TI
# Prints one markdown table (wall s, peak MiB from the JSON or /usr/bin/time) and the check that
# run 3 predicts run 1's makespan. The files live in a temporary directory, removed at the end.
set -euo pipefail
BUILD=${1:-build}
RANKS=${2:-1024}
ITERS=${3:-100}
[ -x "$BUILD/simfab" ] || { echo "otf2_bench.sh: $BUILD/simfab is missing; build first (make build)" >&2; exit 2; }
command -v otf2-print >/dev/null || { echo "otf2_bench.sh: otf2-print is missing (scripts/install-deps.sh)" >&2; exit 2; }
TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-otf2.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
PLATFORM=$(mktemp "$TMP/platform.XXXXXX.yaml")
cat > "$PLATFORM" <<EOF
version: 1
clusters:
  - name: c
    prefix: node
    count: $RANKS
    speed: 10Gf
    bandwidth: 100Gbps
    latency: 1us
    backbone: {bandwidth: 1Tbps, latency: 500ns}
EOF
python3 - "$TMP/halo.ti" "$RANKS" "$ITERS" <<'PY'
import math, os, sys
path, n, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
px = int(math.isqrt(n)); py = n // px
files = []
for r in range(n):
    x, y = r % px, r // px
    nb = [((x + 1) % px) + y * px, ((x - 1) % px) + y * px, x + ((y + 1) % py) * px, x + ((y - 1) % py) * px]
    lines = ["init"]
    for it in range(iters):
        lines.append("compute 2e6")
        lines += [f"irecv {p} {t ^ 1} 65536" for t, p in enumerate(nb)]
        lines += [f"isend {p} {t} 65536" for t, p in enumerate(nb)]
        lines.append("waitall")
        if (it + 1) % 5 == 0:
            lines.append("allreduce 1 1 0")
    lines.append("finalize")
    f = f"{path}_files/rank-{r}.ti"
    os.makedirs(os.path.dirname(f), exist_ok=True)
    open(f, "w").write("".join(f"{r} {l}\n" for l in lines))
    files.append(os.path.relpath(f, os.path.dirname(path)))
open(path, "w").write("\n".join(files) + "\n")
PY
run() {  # label, JSON path, args...
  local label=$1 json=$2; shift 2
  "$BUILD/simfab" run --platform "$PLATFORM" --cfg network/model=smpi --quiet --json "$json" "$@"
}
run "ti" "$TMP/ti.json" --trace "$TMP/halo.ti"
run "ti+otf2-out" "$TMP/out.json" --trace "$TMP/halo.ti" --otf2-out "$TMP/arch"
run "otf2" "$TMP/otf2.json" --otf2 "$TMP/arch/traces.otf2"
/usr/bin/time -f "%e %M" -o "$TMP/conv.time" "$BUILD/simfab" convert --otf2 "$TMP/arch/traces.otf2" --ti "$TMP/back.ti" --quiet
events=$(otf2-print -G "$TMP/arch/traces.otf2" | awk -F'# Events: ' '/^LOCATION/ {split($2, a, ","); s += a[1]} END {print s}')
bytes=$(du -sb "$TMP/arch" | cut -f1)
python3 - "$TMP" "$RANKS" "$ITERS" "$events" "$bytes" <<'PY'
import json, sys
tmp, n, iters, events, size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
ti, out, o2 = (json.load(open(f"{tmp}/{k}.json")) for k in ("ti", "out", "otf2"))
conv_s, conv_kb = open(f"{tmp}/conv.time").read().split()
print(f"halo exchange, {n} ranks, {iters} steps; archive: {events} events, {size / 2**20:.0f} MiB")
print("| step | wall s | sim s | peak MiB | events/s |")
print("|---|---:|---:|---:|---:|")
print(f"| run --trace (TI) | {ti['wall_s']:.2f} | {ti['simulate_s']:.2f} | {ti['peak_rss_bytes'] / 2**20:.0f} | |")
print(f"| run --trace --otf2-out | {out['wall_s']:.2f} | {out['simulate_s']:.2f} | {out['peak_rss_bytes'] / 2**20:.0f} "
      f"| {events / out['wall_s']:.3g} written |")
print(f"| run --otf2 | {o2['wall_s']:.2f} | {o2['simulate_s']:.2f} | {o2['peak_rss_bytes'] / 2**20:.0f} "
      f"| {events / o2['wall_s']:.3g} read+replayed |")
print(f"| convert --otf2 --ti | {float(conv_s):.2f} | | {int(conv_kb) / 1024:.0f} | {events / float(conv_s):.3g} read+converted |")
same = ti["makespan_ps"] == o2["makespan_ps"]
print(f"makespan: TI {ti['makespan_ps']} ps, read back from OTF2 {o2['makespan_ps']} ps ({'same' if same else 'DIFFERENT'})")
PY
