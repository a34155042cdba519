#!/usr/bin/env bash
# Peer comparison of route computation: simfab's topology generators and routing against SimGrid
# 3.32's FAT_TREE, TORUS and DRAGONFLY clusters, measured in the same run.
#
#   bash bench/peer_topo_simgrid.sh BUILD_DIR [--size small|large|all] [--pairs N]
#
# For each instance, simfab runs `BUILD_DIR/topo_bench --instance NAME --pairs N --routes-only`
# (building the topology into an empty Platform, then Platform::route_into over N pseudo-random
# ordered host pairs), and SimGrid runs bench/peer/sg_routes.cpp, compiled here against the
# installed SimGrid (s4u::Engine::load_platform of the cluster's XML, then Host::route_to over the
# same N host-index pairs: same formula and seed). N defaults to 1,000,000. One table row per
# instance: hosts, simfab build s, SimGrid load s, routes/s of each, the ratio simfab/SimGrid of
# routes/s, mean links per route of each, links of each.
#
# Instances (--size: small, about 4,096 hosts; large, about 65,536 hosts; all, both: the default):
#   fat-tree   simfab fat-tree-16-3 (16-ary 3-tree, D-mod-K)     SimGrid FAT_TREE "3;16,16,16;1,16,16;1,1,1"
#              simfab fat-tree-16-4 (16-ary 4-tree)               SimGrid FAT_TREE "4;16,16,16,16;1,16,16,16;1,1,1,1"
#   torus      simfab torus-16x16x16 / torus-32x32x64             SimGrid TORUS "16,16,16" / "32,32,64"
#   dragonfly  simfab dragonfly-16-15-1-16 (3,840 hosts)          SimGrid DRAGONFLY "16,1;1,1;16,1;16" (4,096)
#              simfab dragonfly-64-63-1-16 (64,512 hosts)         SimGrid DRAGONFLY "64,1;1,1;64,1;16" (65,536)
# The shapes differ where the generators do (bench/README.md, "Topologies and routing"): SimGrid's
# torus hosts are the routers (no host cable: 2 links fewer per route); its dragonfly attaches the
# link to group j to router j of each group (so groups <= routers per chassis; more segfaults in
# 3.32), while simfab's needs routers x global links to be a multiple of groups - 1, hence one
# router fewer per group. Links are 100 Gbps / 100 ns in SimGrid (one class for all) and
# 100 Gbps with 100 ns host / 150 ns switch cables in simfab: latencies do not enter the timing.
#
# Limits: each process is stopped after SIMFAB_BENCH_TIMEOUT seconds (default 60) and reported as
# "timeout"; SimGrid's routing loop stops by itself after SIMFAB_SG_ROUTE_S seconds (default 20)
# and the row then gives the pairs it routed. SimGrid 3.32's FAT_TREE build is quadratic (every
# node is tested against every node of the level above), so the 65,536-host fat-tree does not
# load within the default timeout (it took 99-149 s on 2026-11-23). On the 2-core development
# machine --size small takes about 15 s, and the default (all) about 90-100 s, 60 of them waiting
# for that fat-tree's timeout.
#
# SimGrid comes from Debian (libsimgrid-dev: headers and libsimgrid.so). When the header or the
# library is missing, the script installs the package with apt-get if it runs as root and the
# package has a candidate; otherwise, or when sg_routes does not compile, it says why and exits 0.
# Temporary files (XML, sg_routes, logs) go to a directory under $SIMFAB_BENCH_TMP (default /tmp),
# removed on exit.
set -u

usage() { echo "usage: bash bench/peer_topo_simgrid.sh BUILD_DIR [--size small|large|all] [--pairs N]" >&2; exit 2; }
[ $# -ge 1 ] || usage
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "peer_topo_simgrid.sh: no build directory '$1'" >&2; exit 2; }
shift
SIZE=all
PAIRS=1000000
while [ $# -gt 0 ]; do
  case "$1" in
    --size) [ $# -ge 2 ] || usage; SIZE=$2; shift 2 ;;
    --pairs) [ $# -ge 2 ] || usage; PAIRS=$2; shift 2 ;;
    *) usage ;;
  esac
done
case "$SIZE" in small|large|all) ;; *) usage ;; esac
case "$PAIRS" in ''|*[!0-9]*|0) echo "peer_topo_simgrid.sh: --pairs takes a positive integer" >&2; exit 2 ;; esac
TIMEOUT=${SIMFAB_BENCH_TIMEOUT:-60}
ROUTE_S=${SIMFAB_SG_ROUTE_S:-20}
REPO=$(cd "$(dirname "$0")/.." && pwd)
TOPO_BENCH="$BUILD/topo_bench"
[ -x "$TOPO_BENCH" ] || { echo "peer_topo_simgrid.sh: $TOPO_BENCH is missing; build the topo_bench target first" >&2; exit 2; }

echo "== peer: route computation, simfab topo_bench vs SimGrid Host::route_to =="

have_simgrid() {
  [ -f /usr/include/simgrid/s4u/Engine.hpp ] &&
    { ldconfig -p 2>/dev/null | grep -q 'libsimgrid\.so ' || [ -e /usr/lib/x86_64-linux-gnu/libsimgrid.so ]; }
}
# shellcheck source=bench/simgrid_install.sh
. "$(dirname "$0")/simgrid_install.sh"
if ! have_simgrid; then
  install_libsimgrid /tmp/simfab-topo-peer-apt.log || exit 0
  have_simgrid || { echo "SimGrid skipped: headers or library still missing after the install"; exit 0; }
fi
command -v g++ > /dev/null 2>&1 || { echo "SimGrid skipped: no g++ to compile bench/peer/sg_routes.cpp"; exit 0; }

TMP=$(mktemp -d "${SIMFAB_BENCH_TMP:-/tmp}/simfab-topo-peer.XXXXXX") || { echo "SimGrid skipped: cannot create a temporary directory"; exit 0; }
trap 'rm -rf "$TMP"' EXIT

if ! g++ -O2 -std=c++17 "$REPO/bench/peer/sg_routes.cpp" -o "$TMP/sg_routes" -lsimgrid > "$TMP/compile.log" 2>&1; then
  echo "SimGrid skipped: bench/peer/sg_routes.cpp does not compile against the installed SimGrid:"
  head -n 20 "$TMP/compile.log" | sed 's/^/    /'
  exit 0
fi
SG_VERSION=$(sed -n 's/^#define SIMGRID_VERSION_STRING *"\(.*\)".*/\1/p' /usr/include/simgrid/version.h 2>/dev/null | head -n 1)
echo "${SG_VERSION:-SimGrid, unknown version}; pairs: $PAIRS; timeout: $TIMEOUT s per process; load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

# label | simfab instance | SimGrid topology | SimGrid topo_parameters | SimGrid hosts
SMALL=(
  "fat-tree 16-ary 3-tree|fat-tree-16-3|FAT_TREE|3;16,16,16;1,16,16;1,1,1|4096"
  "torus 16x16x16|torus-16x16x16|TORUS|16,16,16|4096"
  "dragonfly 16 groups, 16 hosts/router|dragonfly-16-15-1-16|DRAGONFLY|16,1;1,1;16,1;16|4096"
)
LARGE=(
  "fat-tree 16-ary 4-tree|fat-tree-16-4|FAT_TREE|4;16,16,16,16;1,16,16,16;1,1,1,1|65536"
  "torus 32x32x64|torus-32x32x64|TORUS|32,32,64|65536"
  "dragonfly 64 groups, 16 hosts/router|dragonfly-64-63-1-16|DRAGONFLY|64,1;1,1;64,1;16|65536"
)
case "$SIZE" in
  small) CASES=("${SMALL[@]}") ;;
  large) CASES=("${LARGE[@]}") ;;
  all) CASES=("${SMALL[@]}" "${LARGE[@]}") ;;
esac

# kv FILE KEY: the value of `KEY value` in sg_routes' output.
kv() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }
# field ROW N: the N-th cell of a markdown table row (1-based), trimmed.
field() { printf '%s\n' "$1" | awk -F'|' -v n="$2" '{ gsub(/^ +| +$/, "", $(n + 1)); print $(n + 1) }'; }

echo
echo "| instance | simfab | SimGrid topo_parameters | hosts simfab / SimGrid | links simfab / SimGrid | simfab build s | SimGrid load s | simfab routes/s | SimGrid routes/s | ratio simfab/SimGrid | mean links/route simfab / SimGrid |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in "${CASES[@]}"; do
  IFS='|' read -r label inst topo params sg_hosts <<< "$c"
  xml="$TMP/platform.xml"
  cat > "$xml" << EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="c" prefix="node" suffix="" radical="0-$((sg_hosts - 1))" speed="1Gf" bw="100Gbps" lat="100ns"
             topology="$topo" topo_parameters="$params"/>
  </zone>
</platform>
EOF

  sf_rc=0
  timeout "$TIMEOUT" "$TOPO_BENCH" --instance "$inst" --pairs "$PAIRS" --routes-only > "$TMP/simfab.log" 2>&1 || sf_rc=$?
  row=$(grep '^| [a-z]' "$TMP/simfab.log" | grep -v '^| instance ' | tail -n 1)
  if [ "$sf_rc" = 0 ] && [ -n "$row" ]; then
    sf_hosts=$(field "$row" 2)
    sf_links=$(field "$row" 4)
    sf_build=$(field "$row" 5)
    sf_rps=$(field "$row" 7 | awk '{ printf "%.0f", $1 * 1e6 }')
    sf_mean=$(field "$row" 9)
  else
    [ "$sf_rc" = 124 ] && sf_build="timeout ($TIMEOUT s)" || sf_build="FAILED (exit $sf_rc)"
    sed 's/^/    topo_bench: /' "$TMP/simfab.log" | tail -n 3 >&2
    sf_hosts="-" sf_links="-" sf_rps="" sf_mean="-"
  fi

  sg_rc=0
  timeout "$TIMEOUT" "$TMP/sg_routes" "$xml" "$PAIRS" "$ROUTE_S" --log=root.thres:warning > "$TMP/sg.log" 2>&1 || sg_rc=$?
  if [ "$sg_rc" = 0 ] && [ -n "$(kv "$TMP/sg.log" routes_per_s)" ]; then
    sg_load=$(kv "$TMP/sg.log" load_s)
    sg_links=$(( $(kv "$TMP/sg.log" links) - 1 ))  # minus the network model's __loopback__ link
    sg_rps=$(kv "$TMP/sg.log" routes_per_s)
    sg_mean=$(kv "$TMP/sg.log" mean_links)
    sg_done=$(kv "$TMP/sg.log" pairs)
    [ "$sg_done" != "$PAIRS" ] && sg_mean="$sg_mean (over $sg_done pairs)"
  else
    if [ "$sg_rc" = 124 ]; then sg_load="timeout ($TIMEOUT s)"; else sg_load="FAILED (exit $sg_rc)"; fi
    tail -n 3 "$TMP/sg.log" | sed 's/^/    sg_routes: /' >&2
    sg_links="-" sg_rps="" sg_mean="-"
  fi

  ratio="-"
  if [ -n "$sf_rps" ] && [ -n "$sg_rps" ]; then
    ratio=$(awk -v a="$sf_rps" -v b="$sg_rps" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
  fi
  fmt() { [ -n "$1" ] && awk -v r="$1" 'BEGIN { printf "%.3g M", r / 1e6 }' || echo "-"; }
  echo "| $label | \`$inst\` | \`$topo $params\` | $sf_hosts / $sg_hosts | $sf_links / $sg_links | $sf_build | $sg_load | $(fmt "$sf_rps") | $(fmt "$sg_rps") | $ratio | $sf_mean / $sg_mean |"
done
echo
echo "ratio > 1: simfab computes routes faster. Build/load times include generating every switch and link;"
echo "SimGrid's link count leaves out its network model's __loopback__ link. Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
exit 0
